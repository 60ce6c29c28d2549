/**
 * Opening and reading files safely: the descriptor, not the name, is what gets checked (a path swapped for a symlink
 * between the check and the open cannot leak a file from outside the root), and a file written while it is read is
 * read again until two stats around the read agree.
 */
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, readlink, realpath, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { isInside, resolveConfined } from './confine.js';
import { fingerprint } from './scan.js';

/** How many times a file that changes while it is read is read again. */
const MAX_READS = 3;

/** A file's contents, read whole between two stats that agree. */
export type StableRead =
  | { ok: true; bytes: Buffer; stats: Stats }
  | { ok: false; reason: 'too-large'; size: number }
  | { ok: false; reason: 'unsettled' };

/** Opens a file for reading without blocking on a FIFO and, unless `followLink`, without following a final symlink. */
export async function openForReading(path: string, followLink = false): Promise<FileHandle> {
  const flags = constants.O_RDONLY | (followLink ? 0 : (constants.O_NOFOLLOW ?? 0)) | (constants.O_NONBLOCK ?? 0);
  return open(path, flags);
}

/** The real path of what `handle` has open, when the platform says (Linux `/proc/self/fd`); else undefined. */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Whether the file open in `handle` is inside `realRoot`: by its real path from `/proc/self/fd` where there is one,
 * else by comparing its device and inode with what `path` resolves to now (which must itself be inside the root).
 */
export async function openedInside(handle: FileHandle, stats: Stats, realRoot: string, path: string): Promise<boolean> {
  const opened = await openedPath(handle);
  if (opened?.startsWith('/')) return isInside(realRoot, opened);
  try {
    const real = await realpath(path);
    if (!isInside(realRoot, real)) return false;
    const now = await stat(real);
    return now.dev === stats.dev && now.ino === stats.ino;
  } catch {
    return false;
  }
}

/**
 * Reads the whole file open in `handle` (at most `maxBytes`), stat before and after: when they differ (a writer is
 * at work) it reads again, up to three times, then gives up as `unsettled` rather than return a torn version.
 */
export async function readStable(handle: FileHandle, maxBytes: number, first?: Stats): Promise<StableRead> {
  let before = first ?? (await handle.stat());
  for (let attempt = 0; attempt < MAX_READS; attempt++) {
    if (before.size > maxBytes) return { ok: false, reason: 'too-large', size: before.size };
    const bytes = await readAll(handle, maxBytes + 1);
    if (bytes.length > maxBytes) return { ok: false, reason: 'too-large', size: bytes.length };
    const after = await handle.stat();
    if (fingerprint(after) === fingerprint(before) && bytes.length === after.size)
      return { ok: true, bytes, stats: after };
    before = after;
  }
  return { ok: false, reason: 'unsettled' };
}

/** Reads from offset 0 until the end or `limit` bytes. */
async function readAll(handle: FileHandle, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  let position = 0;
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(65_536, limit - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
    total += bytesRead;
    position += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/** A confined file, open: its handle (the caller closes it), real path and stats (of the descriptor). */
export type OpenedConfined =
  | { ok: true; path: string; handle: FileHandle; stats: Stats }
  | { ok: false; reason: 'denied'; detail: string }
  | { ok: false; reason: 'missing' };

/**
 * Like {@link resolveConfined}, then opens the file and checks what was opened (the descriptor, not the name): a
 * directory swapped for a symlink after the check cannot make it read a file outside the root.
 */
export async function openConfined(root: string, relative: string): Promise<OpenedConfined> {
  const found = await resolveConfined(root, relative);
  if (!found.ok) return found;
  let handle: FileHandle;
  try {
    handle = await openForReading(found.path);
  } catch (error) {
    // ELOOP: the last component became a symlink after the check.
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      return { ok: false, reason: 'denied', detail: 'it leads outside the root' };
    return { ok: false, reason: 'missing' };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      return { ok: false, reason: 'missing' };
    }
    if (!(await openedInside(handle, stats, found.realRoot, found.path))) {
      await handle.close();
      return { ok: false, reason: 'denied', detail: 'it leads outside the root' };
    }
    return { ok: true, path: found.path, handle, stats };
  } catch {
    await handle.close().catch(() => undefined);
    return { ok: false, reason: 'missing' };
  }
}
