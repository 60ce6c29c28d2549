#!/usr/bin/env node
/**
 * Which state of the sources (scripts/sources-hash.mjs) dist/ was built from, kept outside dist/ in
 * `.tmp/dist-sources.hash`: `npm run build` removes it when it starts (scripts/declarations.mjs) and writes it as its
 * last step (`node scripts/dist-stamp.mjs`) when the sources did not change while it ran. Tests reuse dist/ only when
 * it is the build of the sources they test (`npm test` builds before it runs vitest).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourcesHash } from './sources-hash.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(ROOT, '.tmp', 'dist-sources.hash');
const PENDING = `${STAMP}.pending`;

/** Called when a build starts: dist/ is unstamped until the build ends with `hash` still the sources' hash. */
export function buildStarted(hash) {
  mkdirSync(dirname(STAMP), { recursive: true });
  rmSync(STAMP, { force: true });
  writeFileSync(PENDING, hash);
}

/** The hash of the sources dist/ was built from, or undefined (no finished build, or one of changed sources). */
export function distBuiltFrom() {
  return existsSync(STAMP) ? readFileSync(STAMP, 'utf8') : undefined;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const pending = existsSync(PENDING) ? readFileSync(PENDING, 'utf8') : undefined;
  if (pending === undefined || pending !== sourcesHash()) {
    console.error('dist-stamp: the sources changed while the build ran; run `npm run build` again');
    process.exit(1);
  }
  renameSync(PENDING, STAMP);
}
