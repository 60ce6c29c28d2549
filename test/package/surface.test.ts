import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, buildPackage, packageEntries } from './build-fixture.js';
import { SURFACE } from './surface.js';

/*
 * The runtime exports of every JS entry of the exports map, pinned in ./surface.ts. After adding or removing an export
 * on purpose, regenerate the list with:
 *
 *   UPDATE_SURFACE=1 npx vitest run test/package/surface.test.ts
 */

const UPDATE = process.env.UPDATE_SURFACE === '1';
const entries = packageEntries();
const require = createRequire(import.meta.url);

function renderSurface(surface: Record<string, string[]>): string {
  const body = Object.entries(surface)
    .map(([key, names]) => `  '${key}': [\n${names.map((name) => `    '${name}',\n`).join('')}  ],\n`)
    .join('');
  return (
    '/**\n' +
    ' * The pinned runtime exports of each package entry (generated from the build; an accidental export fails\n' +
    ' * test/package/surface.test.ts). Regenerate after an intended change:\n' +
    ' * `UPDATE_SURFACE=1 npx vitest run test/package/surface.test.ts`\n' +
    ' */\n' +
    `export const SURFACE: Readonly<Record<string, readonly string[]>> = {\n${body}};\n`
  );
}

describe('the public surface', () => {
  let dist: string | undefined;
  const esmKeys = new Map<string, string[]>();
  const cjsKeys = new Map<string, string[]>();

  beforeAll(async () => {
    dist = await buildPackage();
    for (const entry of entries) {
      const esm = (await import(pathToFileURL(join(dist, entry.esm)).href)) as Record<string, unknown>;
      const cjs = require(join(dist, entry.cjs)) as Record<string, unknown>;
      esmKeys.set(entry.key, Object.keys(esm).sort());
      cjsKeys.set(entry.key, Object.keys(cjs).sort());
    }
    if (UPDATE) {
      writeFileSync(join(ROOT, 'test/package/surface.ts'), renderSurface(Object.fromEntries(esmKeys)));
    }
  });

  it('pins every JS entry of the exports map and nothing else', () => {
    if (UPDATE) return;
    expect(Object.keys(SURFACE).sort()).toEqual(entries.map((e) => e.key).sort());
  });

  it.each(entries.map((e) => e.key))('is pinned for %s (ESM)', (key) => {
    if (UPDATE) return;
    expect(esmKeys.get(key)).toEqual(SURFACE[key]);
  });

  it.each(entries.map((e) => e.key))('is the same for %s in CommonJS as in ESM', (key) => {
    expect(cjsKeys.get(key)).toEqual(esmKeys.get(key));
  });

  it('has no default export (named exports only)', () => {
    for (const [key, names] of esmKeys) expect(names, key).not.toContain('default');
  });
});
