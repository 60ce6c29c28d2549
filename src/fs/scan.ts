/**
 * Walking a directory tree: accepted files with stats, sorted, symlinks followed (ConfigMaps) without loops, bounded.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { isInside } from './confine.js';

/** One file found by {@link scanTree}. */
export interface ScannedFile {
  /** POSIX path relative to the root (`sub/review.yaml`). */
  rel: string;
  /** The path joined onto the root as given. */
  path: string;
  stats: Stats;
}

/** What {@link scanTree} found. */
export interface ScanResult {
  files: ScannedFile[];
  /** Every directory walked (the root first), as joined paths: what a watcher watches. */
  dirs: string[];
  /** Files beyond `maxFiles`, directories beyond `maxDepth`, or entries beyond `maxWalked`, that were left out. */
  truncated: boolean;
  /** The walk stopped at `maxWalked` entries: part of the tree was not looked at. */
  walkedOut: boolean;
}

/** Options of {@link scanTree}. */
export interface ScanOptions {
  /** Whether a file (by its base name) is wanted. */
  acceptFile(name: string): boolean;
  /** Most files kept (default 10,000). */
  maxFiles?: number;
  /** Deepest directory level walked (default 16). */
  maxDepth?: number;
  /** Most directory entries looked at, files and directories alike (default 100,000): the walk's own bound. */
  maxWalked?: number;
  /** A real path: directories and symlinked files whose real path is outside it are left out. */
  confineTo?: string;
}

/** The default bound of a walk, in directory entries. */
export const DEFAULT_MAX_WALKED = 100_000;

/**
 * Hidden entries (`.git`, `..data`, `.x.swp`) and editor backups (`x~`, `#x#`, `.bak`, `.orig`, `.tmp`) are never read.
 */
export function isIgnoredName(name: string): boolean {
  return (
    name.startsWith('.') ||
    name.endsWith('~') ||
    (name.startsWith('#') && name.endsWith('#')) ||
    /\.(?:swp|swo|swx|bak|orig|tmp)$/i.test(name)
  );
}

/** A fingerprint of a file's content version: identity, size and times (follows symlinks). */
export function fingerprint(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** Walks `root`; throws (ENOENT/ENOTDIR) when the root is not a directory, skips what vanishes during the walk. */
export async function scanTree(root: string, options: ScanOptions): Promise<ScanResult> {
  const maxFiles = options.maxFiles ?? 10_000;
  const maxDepth = options.maxDepth ?? 16;
  const maxWalked = options.maxWalked ?? DEFAULT_MAX_WALKED;
  const confineTo = options.confineTo;
  let walked = 0;
  let walkedOut = false;
  const rootStats = await stat(root);
  if (!rootStats.isDirectory()) throw Object.assign(new Error(`not a directory: ${root}`), { code: 'ENOTDIR' });
  const files: ScannedFile[] = [];
  const dirs: string[] = [];
  let truncated = false;

  const walk = async (dir: string, rel: string, depth: number, chain: readonly string[]): Promise<void> => {
    let real: string;
    try {
      real = await realpath(dir);
    } catch {
      return;
    }
    if (chain.includes(real)) return; // a symlink loop
    if (confineTo !== undefined && !isInside(confineTo, real)) return; // a directory symlink leading outside
    if (walkedOut) return;
    dirs.push(dir);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const inner = [...chain, real];
    let wanted = entries.filter((entry) => !isIgnoredName(entry.name));
    if (walked + wanted.length > maxWalked) {
      wanted = wanted.slice(0, Math.max(0, maxWalked - walked));
      walkedOut = true;
      truncated = true;
    }
    walked += wanted.length;
    // Stat every entry of the directory at once (symlinks are followed: a ConfigMap's files are symlinks).
    const found = await Promise.all(
      wanted.map(async (entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return { entry, path, stats: undefined, isDir: true };
        if (!entry.isFile() && !entry.isSymbolicLink()) return undefined;
        if (entry.isFile() && !options.acceptFile(entry.name)) return undefined;
        try {
          const stats = await stat(path);
          if (
            confineTo !== undefined &&
            entry.isSymbolicLink() &&
            !stats.isDirectory() &&
            !isInside(confineTo, await realpath(path))
          ) {
            return undefined; // a file symlink leading outside
          }
          return { entry, path, stats, isDir: stats.isDirectory() };
        } catch {
          return undefined; // a dangling symlink, or removed meanwhile
        }
      }),
    );
    for (const item of found) {
      if (item === undefined) continue;
      const childRel = rel === '' ? item.entry.name : `${rel}/${item.entry.name}`;
      if (item.isDir) {
        if (depth >= maxDepth) truncated = true;
        else await walk(item.path, childRel, depth + 1, inner);
      } else if (item.stats?.isFile() && options.acceptFile(item.entry.name)) {
        if (files.length >= maxFiles) {
          truncated = true;
          continue;
        }
        files.push({ rel: childRel, path: item.path, stats: item.stats });
      }
    }
  };
  await walk(root, '', 0, []);
  files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { files, dirs, truncated, walkedOut };
}
