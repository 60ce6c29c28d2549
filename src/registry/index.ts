/**
 * The registry room's part of the public API: PromptRegistry and the types of its options, calls and events.
 *
 * @module
 */
export { PromptRegistry } from './registry.js';
export type { RegistryChangeEvent } from './change-events.js';
export type { CompletionValues } from './completion.js';
export type { ListOptions, PromptRegistryOptions, RegisterOptions, RequestContext } from './options.js';
