#!/usr/bin/env node
/**
 * Finishes the declarations tsup bundled into dist/ (part of `npm run build`): names the shared chunks as the JS ones
 * are named (tsup names a chunk after its first module, `types.d.ts` -> `types.d-<hash>.d.ts`: renamed
 * `types-<hash>.d.ts`), then writes the CommonJS declarations (dist/*.d.cts) from the ESM ones (dist/*.d.ts). The two
 * sets are the same text apart from the extension of relative imports (`./chunk.js` -> `./chunk.cjs`), so one set
 * serves both formats; attw checks the result in `npm run check:package`.
 */
import { readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const RELATIVE_JS = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\.js\2/g;
const CHUNK_NAME = /^(.+)\.d-([\w-]+)\.d\.ts$/;

for (const name of readdirSync(DIST)) {
  const chunk = CHUNK_NAME.exec(name);
  if (chunk !== null) renameSync(join(DIST, name), join(DIST, `${chunk[1]}-${chunk[2]}.d.ts`));
}
let written = 0;
for (const name of readdirSync(DIST)) {
  if (!name.endsWith('.d.ts')) continue;
  const text = readFileSync(join(DIST, name), 'utf8').replace(
    RELATIVE_JS,
    (_match, keyword, quote, path) => `${keyword}${quote}${path.replace(/\.d-([\w-]+)$/, '-$1')}.js${quote}`,
  );
  writeFileSync(join(DIST, name), text);
  writeFileSync(join(DIST, name.replace(/\.d\.ts$/, '.d.cts')), text.replace(RELATIVE_JS, '$1$2$3.cjs$2'));
  written += 1;
}
if (written === 0) {
  console.error(`declarations-cts: no .d.ts files in ${DIST}; run tsup first`);
  process.exit(1);
}
