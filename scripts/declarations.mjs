#!/usr/bin/env node
/**
 * The package's declarations, emitted by TypeScript once per state of the sources (scripts/sources-hash.mjs) into
 * `.tmp/declarations/<hash>/`:
 *
 * - `node scripts/declarations.mjs --typecheck` (`npm run typecheck`): tsc over the whole project (src, tests,
 *   examples), emitting the declarations on the way: emitting costs next to nothing once tsc has checked the files.
 * - `node scripts/declarations.mjs` (first step of `npm run build`): stages the current sources' declarations in
 *   `.tmp/declarations/current/` (tsup.config.ts bundles them from there): the ones the type check emitted, else
 *   emitted now from src/ alone (tsconfig.declarations.json). Bundling emitted declarations takes tsup 2 s, where
 *   making them itself (a second TypeScript program over src/) took it 30.
 *
 * A set is kept only when tsc succeeded and the sources did not change while it ran, so a set always matches its hash.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStarted } from './dist-stamp.mjs';
import { sourcesHash } from './sources-hash.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DECLARATIONS = join(ROOT, '.tmp', 'declarations');
const CURRENT = join(DECLARATIONS, 'current');
const STALE_MS = 60 * 60_000;
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Runs tsc on `project`, declarations into `.tmp/declarations/<hash>/`; returns tsc's exit status. */
function emit(project, hash) {
  const done = join(DECLARATIONS, hash);
  const partial = `${done}.partial-${process.pid}`;
  mkdirSync(DECLARATIONS, { recursive: true });
  rmSync(partial, { recursive: true, force: true });
  try {
    const args = [TSC, '-p', project, '--noEmit', 'false', '--emitDeclarationOnly', '--outDir', partial];
    const { status } = spawnSync(process.execPath, [...args, '--rootDir', ROOT], { cwd: ROOT, stdio: 'inherit' });
    if (status === 0 && !existsSync(done) && sourcesHash() === hash) renameSync(partial, done);
    return status ?? 1;
  } finally {
    rmSync(partial, { recursive: true, force: true });
    prune(hash);
  }
}

/** Removes the sets of other source states nothing has made for an hour (a concurrent run may still read newer ones). */
function prune(keep) {
  for (const entry of readdirSync(DECLARATIONS)) {
    const path = join(DECLARATIONS, entry);
    if (entry !== keep && entry !== 'current' && Date.now() - statSync(path).mtimeMs > STALE_MS)
      rmSync(path, { recursive: true, force: true });
  }
}

if (process.argv.includes('--typecheck')) {
  process.exitCode = emit('tsconfig.json', sourcesHash());
} else {
  const hash = sourcesHash();
  buildStarted(hash);
  const done = join(DECLARATIONS, hash);
  if (!existsSync(done)) {
    const status = emit('tsconfig.declarations.json', hash);
    if (status !== 0) process.exit(status);
    if (!existsSync(done)) {
      console.error('declarations: the sources changed while tsc ran; run the build again');
      process.exit(1);
    }
  }
  rmSync(CURRENT, { recursive: true, force: true });
  cpSync(join(done, 'src'), CURRENT, { recursive: true });
}
