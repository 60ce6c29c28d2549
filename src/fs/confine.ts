/** Confinement: an untrusted relative path becomes a real file inside a root (checked after realpath), or a refusal. */
import { realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';

/** Why a path was refused: it names something outside the root (`denied`) or nothing (`missing`). */
export type ConfinedPath =
  | { ok: true; path: string; realRoot: string; stats: Stats }
  | { ok: false; reason: 'denied'; detail: string }
  | { ok: false; reason: 'missing' };

const DENIED_SEGMENT = /^\.\.?$/;

/** The shape problem of a relative path (NUL, backslash, absolute, `.`/`..`, empty or hidden segment), or undefined. */
export function relativePathProblem(path: string): string | undefined {
  if (path.includes('\0')) return 'NUL bytes are not allowed';
  if (path.includes('\\')) return 'backslashes are not allowed';
  if (path === '') return 'the path is empty';
  if (path.startsWith('/') || isAbsolute(path) || /^[A-Za-z]:/.test(path)) return 'absolute paths are not allowed';
  for (const segment of path.split('/')) {
    if (DENIED_SEGMENT.test(segment)) return `'${segment}' segments are not allowed`;
    if (segment === '') return 'empty path segments are not allowed';
    if (segment.startsWith('.')) return 'hidden files are not served';
  }
  return undefined;
}

/** Whether `path` is `root` or inside it (both real paths). */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Resolves `relative` inside `root`: shape check, realpath, containment of the real path, regular file. */
export async function resolveConfined(root: string, relative: string): Promise<ConfinedPath> {
  const problem = relativePathProblem(relative);
  if (problem !== undefined) return { ok: false, reason: 'denied', detail: problem };
  let realRoot: string;
  let real: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, reason: 'missing' };
  }
  try {
    real = await realpath(join(realRoot, relative));
  } catch {
    return { ok: false, reason: 'missing' };
  }
  if (!isInside(realRoot, real)) return { ok: false, reason: 'denied', detail: 'it leads outside the root' };
  let stats: Stats;
  try {
    stats = await stat(real);
  } catch {
    return { ok: false, reason: 'missing' };
  }
  if (!stats.isFile()) return { ok: false, reason: 'missing' };
  return { ok: true, path: real, realRoot, stats };
}
