/**
 * Builds the package for the packaging tests: the project's own tsup config, bundled into a fresh private directory
 * (declarations off; attw checks those on the packed tarball in `npm run check:package`).
 *
 * Why not read `dist/`: in `npm test` vitest runs BEFORE `npm run build`, so `dist/` may be missing or stale, and
 * another process (a build, another test file running in parallel) may be rewriting it. A private build from the
 * current sources is never stale and races with nothing. It lives under `node_modules/.cache/` so the bundle's bare
 * imports (`ajv`, `mustache`) resolve to the project's dependencies, exactly as they would for an installed package.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'tsup';
import type { Options } from 'tsup';
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

async function resolvedConfigs(): Promise<Options[]> {
  const config = typeof tsupConfig === 'function' ? await tsupConfig({}) : tsupConfig;
  return Array.isArray(config) ? config : [config];
}

/** Builds the package into a new directory under `node_modules/.cache/` and returns it (the `dist/` equivalent). */
export async function buildPackage(): Promise<string> {
  const cache = join(ROOT, 'node_modules', '.cache', 'mcp-prompt-kit-package-tests');
  mkdirSync(cache, { recursive: true });
  const outRoot = mkdtempSync(join(cache, 'dist-'));
  for (const config of await resolvedConfigs()) {
    const outDir = join(outRoot, relative('dist', config.outDir ?? 'dist'));
    await build({ ...config, config: false, outDir, dts: false, clean: false, silent: true, sourcemap: false });
  }
  return outRoot;
}

/** Removes a directory made by {@link buildPackage}. */
export function removeBuild(dir: string | undefined): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}
