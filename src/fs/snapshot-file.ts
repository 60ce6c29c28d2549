/**
 * `createFileSnapshot`: a registry snapshot kept in one file, replaced atomically (a temporary file beside it,
 * fsync, rename, fsync of the directory), so that a reader or a restart after a crash finds the old snapshot or the
 * new one, never a mix.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { integerOption } from '../options.js';
import type { RegistrySnapshotStorage } from '../stores/snapshot.js';

/** Options of {@link createFileSnapshot}. */
export interface FileSnapshotOptions {
  /** Largest snapshot file read, in bytes (default 64 MiB): a larger one is reported as unusable and ignored. */
  maxBytes?: number;
}

/** The largest snapshot file read when the options leave it out. */
export const DEFAULT_MAX_SNAPSHOT_BYTES = 64 * 1_048_576;

const TEMP_SUFFIX = '.tmp';

/** Whether a failure is "no such file" (no snapshot yet). */
function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * A {@link RegistrySnapshotStorage} in the file `path` (its directory must exist): `save` writes a temporary file
 * next to it (`.<name>.<random>.tmp`), flushes it to disk, renames it over `path` and flushes the directory, so the
 * file is always a whole snapshot; temporary files a crash left behind are removed by the next save.
 *
 * @example
 * ```ts
 * import { createMemoryPromptStore, syncRegistry } from 'mcp-prompt-kit';
 * import { createFileSnapshot } from 'mcp-prompt-kit/fs';
 *
 * const snapshot = createFileSnapshot('/var/lib/prompts/snapshot.json');
 * const sync = await syncRegistry(createMemoryPromptStore(), registry, { snapshot });
 * ```
 */
export function createFileSnapshot(path: string, options: FileSnapshotOptions = {}): RegistrySnapshotStorage {
  if (typeof path !== 'string' || path === '') throw new TypeError('createFileSnapshot: path must be a file path');
  const maxBytes = integerOption('createFileSnapshot', 'maxBytes', options.maxBytes, {
    min: 1,
    default: DEFAULT_MAX_SNAPSHOT_BYTES,
    unit: 'bytes',
  });
  const target = resolve(path);
  const dir = dirname(target);
  const prefix = `.${basename(target)}.`;
  let swept = false;

  /** Removes temporary files an interrupted save left (once per process: later ones clean up after themselves). */
  const sweep = async (): Promise<void> => {
    if (swept) return;
    swept = true;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (name.startsWith(prefix) && name.endsWith(TEMP_SUFFIX)) await rm(join(dir, name), { force: true });
    }
  };

  return {
    describe: target,
    async load() {
      let handle;
      try {
        handle = await open(target, 'r');
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        if (size > maxBytes) throw new RangeError(`${target} is ${size} bytes, more than maxBytes (${maxBytes})`);
        return await handle.readFile({ encoding: 'utf8' });
      } finally {
        await handle.close();
      }
    },
    async save(text) {
      await sweep();
      const temp = join(dir, `${prefix}${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
      try {
        const handle = await open(temp, 'wx', 0o600);
        try {
          await handle.writeFile(text, 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      // The rename itself survives a power loss once the directory is flushed (where the platform allows it).
      const directory = await open(dir, 'r').catch(() => undefined);
      if (directory !== undefined) {
        await directory.sync().catch(() => undefined);
        await directory.close();
      }
    },
  };
}
