/**
 * Builds the package for the tests that need it (packaging, the README and docs/ run against the packed package): the
 * project's own tsup config, bundled into a private directory (declarations off; attw checks those on the packed
 * tarball in `npm run check:package`).
 *
 * Why not read `dist/`: it may be missing or stale, and another process (a build) may be rewriting it. A private
 * build from the current sources is never stale and races with nothing. It is a copy of `dist/` when `dist/` is the
 * build of the current sources (scripts/dist-stamp.mjs; `npm test` builds before it runs vitest), else a build of
 * its own. It lives under `node_modules/.cache/` so the bundle's bare
 * imports (`ajv`, `mustache`) resolve to the project's dependencies, exactly as they would for an installed package.
 *
 * One build per state of the sources: the directory is named by a hash of everything the build reads (src/, the
 * tsup and TypeScript configs, the manifest and the lockfile), made by whichever test file asks first (the others,
 * in other workers, wait for it on a lock directory) and only read afterwards, never removed by a test.
 */
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { build } from 'tsup';
import type { Options } from 'tsup';
import { distBuiltFrom } from '../../scripts/dist-stamp.mjs';
import { sourcesHash } from '../../scripts/sources-hash.mjs';
import tsupConfig from '../../tsup.config.js';

export const ROOT = resolve(import.meta.dirname, '../..');

/** A JS entry of the package's `exports` map (`.`, later `./mcp`, ...) and its built files. */
export interface PackageEntry {
  /** The export key, e.g. `.` or `./mcp`. */
  key: string;
  /** Path of the ESM file, relative to `dist/` (e.g. `index.js`). */
  esm: string;
  /** Path of the CJS file, relative to `dist/` (e.g. `index.cjs`). */
  cjs: string;
}

type Target = string | { [condition: string]: Target } | null;

function conditionTarget(target: Target | undefined, condition: 'import' | 'require'): string | undefined {
  if (typeof target === 'string' || target === null || target === undefined) return target ?? undefined;
  const branch = target[condition] ?? target.default;
  if (typeof branch === 'string') return branch;
  if (branch === null || branch === undefined) return undefined;
  return conditionTarget(branch.default, condition) ?? conditionTarget(branch, condition);
}

/** The JS entries of the package's `exports` map (JSON files and `./package.json` are skipped). */
export function packageEntries(): PackageEntry[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, Target> };
  const entries: PackageEntry[] = [];
  for (const [key, target] of Object.entries(pkg.exports)) {
    const esm = conditionTarget(target, 'import');
    const cjs = conditionTarget(target, 'require');
    if (esm === undefined || cjs === undefined || !/\.m?js$/.test(esm) || !/\.c?js$/.test(cjs)) continue;
    entries.push({ key, esm: distRelative(esm), cjs: distRelative(cjs) });
  }
  return entries;
}

function distRelative(target: string): string {
  const rel = relative(join(ROOT, 'dist'), join(ROOT, target));
  if (rel.startsWith('..')) throw new Error(`exports target ${target} is outside dist/`);
  return rel;
}

const CACHE = join(ROOT, 'node_modules', '.cache', 'mcp-prompt-kit-package-tests');
const WAIT_FOR_BUILD_MS = 10 * 60_000;
const STALE_BUILD_MS = 60 * 60_000;

async function resolvedConfigs(): Promise<Options[]> {
  const config = typeof tsupConfig === 'function' ? await tsupConfig({}) : tsupConfig;
  return Array.isArray(config) ? config : [config];
}

async function buildInto(outRoot: string, key: string): Promise<void> {
  // dist/ of the same sources: copied, and kept when no build started while it was copied.
  if (distBuiltFrom() === key) {
    cpSync(join(ROOT, 'dist'), outRoot, { recursive: true });
    if (distBuiltFrom() === key) return;
    rmSync(outRoot, { recursive: true, force: true });
  }
  for (const config of await resolvedConfigs()) {
    const outDir = join(outRoot, relative('dist', config.outDir ?? 'dist'));
    await build({ ...config, config: false, outDir, dts: false, clean: false, silent: true, sourcemap: false });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid written in a lock directory (0 when there is none yet), or undefined when the lock is gone. */
function lockHolder(lock: string): { pid: number; ageMs: number } | undefined {
  try {
    const ageMs = Date.now() - statSync(lock).mtimeMs;
    const pid = existsSync(join(lock, 'pid')) ? Number(readFileSync(join(lock, 'pid'), 'utf8')) : 0;
    return { pid, ageMs };
  } catch {
    return undefined;
  }
}

/** Takes the build lock; false while a live process holds it (a dead holder's lock is taken over). */
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = lockHolder(lock);
    if (holder === undefined) return false; // released just now: the caller looks again
    if (holder.pid > 0 && isAlive(holder.pid)) return false;
    // No pid yet: the holder is between mkdir and writing it, unless the lock has been there for a while.
    if (holder.pid === 0 && holder.ageMs < 10_000) return false;
    rmSync(lock, { recursive: true, force: true });
    return false;
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  return true;
}

/** Removes builds of other source states nothing has made for an hour (a concurrent run may still read newer ones). */
function pruneOldBuilds(keep: string): void {
  for (const entry of readdirSync(CACHE)) {
    const path = join(CACHE, entry);
    if (entry !== keep && !entry.endsWith('.lock') && Date.now() - statSync(path).mtimeMs > STALE_BUILD_MS) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

async function sharedBuild(): Promise<string> {
  const key = sourcesHash();
  const done = join(CACHE, key);
  const lock = `${done}.lock`;
  mkdirSync(CACHE, { recursive: true });
  const deadline = Date.now() + WAIT_FOR_BUILD_MS;
  while (!existsSync(done)) {
    if (tryLock(lock)) {
      try {
        if (!existsSync(done)) {
          const partial = join(CACHE, `${key}.partial-${randomBytes(4).toString('hex')}`);
          try {
            await buildInto(partial, key);
            renameSync(partial, done);
          } finally {
            rmSync(partial, { recursive: true, force: true });
          }
          pruneOldBuilds(key);
        }
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      break;
    }
    if (Date.now() > deadline)
      throw new Error(`another process held ${lock} for over ${WAIT_FOR_BUILD_MS / 60_000} minutes`);
    await sleep(200); // polls the lock another worker holds while it builds
  }
  return done;
}

let building: Promise<string> | undefined;

/**
 * The package built from the current sources (the `dist/` equivalent), shared by every test file of a run: built
 * once per state of the sources. Read it; never write to or remove it.
 */
export function buildPackage(): Promise<string> {
  building ??= sharedBuild();
  return building;
}
