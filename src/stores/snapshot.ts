/**
 * Last-known-good snapshots of what a synced registry serves: the storage interface {@link syncRegistry} is given,
 * and the one document format (format name and version, the label, a SHA-256 checksum) it writes and checks.
 *
 * @module
 */
import { errorClassName } from '../errors.js';
import { isRecord } from '../json.js';
import type { StoredPrompt } from './contract.js';
import { storableDefinition } from './definition.js';

/**
 * Where {@link syncRegistry} keeps its last-known-good snapshot: text in, text out. `mcp-prompt-kit/fs` has the file
 * one (`createFileSnapshot(path)`: atomic replace, fsync); anything that can keep one string will do.
 *
 * @example
 * ```ts
 * let kept: string | undefined;
 * const inMemory: RegistrySnapshotStorage = {
 *   describe: 'memory',
 *   load: async () => kept,
 *   save: async (text) => void (kept = text),
 * };
 * ```
 */
export interface RegistrySnapshotStorage {
  /** Named in log entries (a file's path). */
  readonly describe: string;
  /** The text last saved, or undefined when there is none. */
  load(): Promise<string | undefined>;
  /** Replaces the snapshot; a reader sees the old text or the new one, never a mix. */
  save(text: string): Promise<void>;
}

/** The document's `format`: anything else is not a snapshot of ours. */
export const SNAPSHOT_FORMAT = 'mcp-prompt-kit/registry-snapshot';
/** The version of the document's layout this code writes and reads. */
export const SNAPSHOT_FORMAT_VERSION = 1;

/** @internal A decoded snapshot: the label it was taken for and its prompts. */
export interface DecodedSnapshot {
  label: string | null;
  savedAt: string;
  prompts: StoredPrompt[];
}

/** @internal Why a snapshot text cannot be used, or what it holds. */
export type SnapshotReading = { ok: true; snapshot: DecodedSnapshot } | { ok: false; reason: string };

/** The checksummed part of the document, as text: the label and the prompts. */
function body(label: string | null, prompts: readonly StoredPrompt[]): string {
  return JSON.stringify({ label, prompts });
}

async function sha256(text: string): Promise<string> {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (subtle === undefined) throw new Error('snapshots need the Web Crypto API (globalThis.crypto.subtle)');
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** @internal The snapshot document of `prompts` served under `label` (null: the store's default). */
export async function encodeSnapshot(
  label: string | null,
  prompts: readonly StoredPrompt[],
  savedAt: Date,
): Promise<string> {
  const text = body(label, prompts);
  const checksum = await sha256(text);
  // The checksummed text is embedded as it is, so that reading checks exactly the bytes written.
  return `{"format":${JSON.stringify(SNAPSHOT_FORMAT)},"formatVersion":${SNAPSHOT_FORMAT_VERSION},"savedAt":${JSON.stringify(savedAt.toISOString())},"sha256":"${checksum}","body":${text}}\n`;
}

/**
 * @internal Reads a snapshot document for `label`: its format, version, checksum and label are checked, and every
 * prompt is a valid definition; otherwise the reason, never an exception.
 */
export async function decodeSnapshot(text: string, label: string | null): Promise<SnapshotReading> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: `not JSON (truncated or corrupt: ${text.length} characters)` };
  }
  if (!isRecord(data) || data['format'] !== SNAPSHOT_FORMAT)
    return { ok: false, reason: `not a registry snapshot (format is not "${SNAPSHOT_FORMAT}")` };
  if (data['formatVersion'] !== SNAPSHOT_FORMAT_VERSION)
    return {
      ok: false,
      reason: `format version ${JSON.stringify(data['formatVersion'])} is not ${SNAPSHOT_FORMAT_VERSION}`,
    };
  const content = data['body'];
  const savedAt = data['savedAt'];
  if (!isRecord(content) || typeof savedAt !== 'string' || typeof data['sha256'] !== 'string')
    return { ok: false, reason: 'missing body, savedAt or sha256' };
  const { label: taken, prompts } = content;
  if ((taken !== null && typeof taken !== 'string') || !Array.isArray(prompts))
    return { ok: false, reason: 'body is not { label, prompts }' };
  let checksum: string;
  try {
    checksum = await sha256(body(taken, prompts as StoredPrompt[]));
  } catch (error) {
    return { ok: false, reason: `checksum could not be computed: ${errorClassName(error)}` };
  }
  if (checksum !== data['sha256']) return { ok: false, reason: 'checksum mismatch (corrupt or edited)' };
  if (taken !== label)
    return { ok: false, reason: `taken for label ${JSON.stringify(taken)}, not ${JSON.stringify(label)}` };
  const read: StoredPrompt[] = [];
  for (const [i, entry] of prompts.entries()) {
    if (!isRecord(entry) || typeof entry['name'] !== 'string' || !Number.isSafeInteger(entry['version']))
      return { ok: false, reason: `prompts[${i}] is not { name, version, definition }` };
    try {
      const definition = storableDefinition(entry['definition'] as StoredPrompt['definition']);
      if (definition.name !== entry['name'])
        return { ok: false, reason: `prompts[${i}]: definition is named ${JSON.stringify(definition.name)}` };
      read.push({ name: entry['name'], version: entry['version'] as number, definition });
    } catch (error) {
      return {
        ok: false,
        reason: `prompts[${i}] (${entry['name']}): ${error instanceof Error ? error.message : errorClassName(error)}`,
      };
    }
  }
  return { ok: true, snapshot: { label: taken, savedAt, prompts: read } };
}
