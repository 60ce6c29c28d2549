#!/usr/bin/env node
/**
 * Writes the CommonJS declarations (dist/*.d.cts) from the ESM ones tsup emitted (dist/*.d.ts), part of `npm run
 * build`. The two sets are the same text apart from the extension of relative imports (`./chunk.js` -> `./chunk.cjs`),
 * so one declaration pass (the slow part of the build) serves both formats; attw checks the result in `npm run
 * check:package`.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const RELATIVE_JS = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\.js\2/g;

let written = 0;
for (const name of readdirSync(DIST)) {
  if (!name.endsWith('.d.ts')) continue;
  const text = readFileSync(join(DIST, name), 'utf8');
  writeFileSync(join(DIST, name.replace(/\.d\.ts$/, '.d.cts')), text.replace(RELATIVE_JS, '$1$2$3.cjs$2'));
  written += 1;
}
if (written === 0) {
  console.error(`declarations-cts: no .d.ts files in ${DIST}; run tsup first`);
  process.exit(1);
}
