/**
 * Confinement: turning an untrusted relative path (from a resource URI or a prompt's image path) into a real file
 * inside a root, or a refusal. Checked on the real path, so symlinks that lead outside are refused too.
 *
 * @module
 */
import { realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';

/** Why a path was refused: it names something outside the root (`denied`) or nothing (`missing`). */
export type ConfinedPath =
  | { ok: true; path: string; stats: Stats }
  | { ok: false; reason: 'denied'; detail: string }
  | { ok: false; reason: 'missing' };

const DENIED_SEGMENT = /^\.\.?$/;

/**
 * Checks the shape of a relative path before touching the file system: no NUL byte, no backslash, not absolute, no
 * `.`/`..` segment, no empty segment, no hidden (dot) segment. Returns the problem, or undefined when it is fine.
 *
 * @example
 * ```ts
 * relativePathProblem('patterns/../../etc/passwd'); // "'..' segments are not allowed"
 * ```
 */
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

/**
 * Resolves `relative` inside `root`: the shape check, then realpath, then the containment check on the real path
 * (a symlink pointing outside is denied), then it must be a regular file.
 *
 * @example
 * ```ts
 * const found = await resolveConfined('/srv/docs', 'patterns/cqrs.md');
 * if (found.ok) await readFile(found.path, 'utf8');
 * ```
 */
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
  return { ok: true, path: real, stats };
}
