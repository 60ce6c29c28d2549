/**
 * The stores room's part of the root entry: the PromptStore contract, the in-memory store, and keeping a registry in
 * step with a store. The PostgreSQL store (./postgres/) is its own entry, `mcp-prompt-kit/postgres`.
 *
 * @module
 */
export type {
  PromptStore,
  StoreChangeEvent,
  StoreReadOptions,
  StoreRevisions,
  StoreRevisionsOptions,
  StoredPrompt,
} from './contract.js';
export { createMemoryPromptStore } from './memory.js';
export { syncRegistry } from './sync.js';
export type { RegistrySync, RegistrySyncHealth, SyncRegistryOptions } from './sync.js';
export { SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION } from './snapshot.js';
export type { RegistrySnapshotStorage } from './snapshot.js';
