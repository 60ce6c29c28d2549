import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import tsupConfig from '../../tsup.config.js';
import { ADAPTER_FOLDERS, ROOT, adapterOf, importCycles, importsOf, sourceGraph } from './source-imports.js';

/*
 * The layout of src/ as docs/architecture.md describes it: small files, no import cycle, a root of the bottom layer
 * plus the protocol handlers and response helpers, one import style, one entry per adapter folder.
 */

const MAX_LINES = 500;

/** The src root: the bottom layer every room may use, and the transport-agnostic layer on top of the rooms. */
const ROOT_FILES = [
  // bottom layer
  'deadline.ts',
  'encoding.ts',
  'errors.ts',
  'json.ts',
  'logger.ts',
  'options.ts',
  'resources.ts',
  'types.ts',
  // on top of the rooms: the root entry, the protocol handlers, the response helpers, parsing a JSON body
  'index.ts',
  'json-body.ts',
  'protocol.ts',
  'response.ts',
];

/** The package entries built from src/ (tsup.config.ts), the command excepted: entry name -> source file. */
function libraryEntries(): Map<string, string> {
  const configs = Array.isArray(tsupConfig) ? tsupConfig : [tsupConfig];
  const entries = new Map<string, string>();
  for (const config of configs) {
    const entry = (config as { entry?: unknown }).entry;
    if (entry === undefined || Array.isArray(entry) || typeof entry !== 'object' || entry === null) continue;
    for (const [name, file] of Object.entries(entry as Record<string, string>))
      if (name !== 'cli') entries.set(name, file);
  }
  return entries;
}

const graph = sourceGraph();
const files = [...graph.keys()];
const lineCount = (file: string): number => readFileSync(join(ROOT, file), 'utf8').split('\n').length;

describe('the source layout', () => {
  it('holds no file over 500 lines', () => {
    expect(files.filter((f) => lineCount(f) > MAX_LINES)).toEqual([]);
  });

  it('has no import cycle among src files, type-only imports included', () => {
    expect(importCycles(graph).map((c) => c.join(' <-> '))).toEqual([]);
  });

  it('keeps in the src root only the bottom layer, the root entry, the protocol handlers and the response helpers', () => {
    const root = files.filter((f) => !f.slice('src/'.length).includes('/')).map((f) => f.slice('src/'.length));
    expect(root.sort()).toEqual([...ROOT_FILES].sort());
  });

  it("imports a folder's index.ts only from a package entry (everything else imports the declaring file)", () => {
    const entries = new Set(libraryEntries().values());
    const problems: string[] = [];
    for (const [file, imports] of graph) {
      if (entries.has(file)) continue;
      for (const { specifier, target } of imports) {
        if (target?.endsWith('/index.ts')) problems.push(`${file} imports '${specifier}'`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives the core the root entry and each adapter folder its own entry, its index.ts', () => {
    const entries = libraryEntries();
    expect(entries.get('index')).toBe('src/index.ts');
    const adapterEntries = [...entries].filter(([name]) => name !== 'index').map(([, file]) => file);
    for (const file of adapterEntries) expect(file).toBe(`${adapterOf(file) ?? '(a core folder)/'}index.ts`);
    expect(adapterEntries.map((file) => adapterOf(file)).sort()).toEqual(
      ADAPTER_FOLDERS.filter((f) => f !== 'src/cli/').sort(),
    );
  });

  it('lets no adapter import another, except the command (which serves them all)', () => {
    const problems: string[] = [];
    for (const [file, imports] of graph) {
      const own = adapterOf(file);
      if (own === undefined || own === 'src/cli/') continue;
      for (const { specifier, target } of imports) {
        const other = target === undefined ? undefined : adapterOf(target);
        if (other !== undefined && other !== own) problems.push(`${file} imports '${specifier}' (${other})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('reaches the exact-number check from outside argument validation only through parsing a JSON body', () => {
    const importers = files.filter((f) => graph.get(f)!.some((i) => i.target === 'src/arguments/numbers.ts'));
    expect(importers.filter((f) => !f.startsWith('src/arguments/'))).toEqual(['src/json-body.ts']);
  });
});

describe('the import reader', () => {
  it('finds imports, re-exports, type-only forms, dynamic imports and import types', () => {
    const code = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C } from './c.js';",
      "import { type D, e } from './d.js';",
      "export { f } from './f.js';",
      "export type { G } from './g.js';",
      "import './side-effect.js';",
      "const h = await import('./h.js');",
      "type I = import('./i.js').I;",
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    const found = importsOf('src/x/y.ts', code).map((i) => [i.specifier, i.typeOnly, i.target]);
    expect(found).toEqual([
      ['./a.js', false, 'src/x/a.js'],
      ['./b.js', true, 'src/x/b.js'],
      ['./c.js', true, 'src/x/c.js'],
      ['./d.js', false, 'src/x/d.js'],
      ['./f.js', false, 'src/x/f.js'],
      ['./g.js', true, 'src/x/g.js'],
      ['./side-effect.js', false, 'src/x/side-effect.js'],
      ['./h.js', false, 'src/x/h.js'],
      ['./i.js', true, 'src/x/i.js'],
      ['node:fs', false, undefined],
    ]);
  });

  it('resolves a .js specifier to the .ts file it names', () => {
    expect(importsOf('src/registry/registry.ts', "import { x } from '../json.js';")[0]?.target).toBe('src/json.ts');
  });

  it('finds a cycle made only of type imports', () => {
    const cycles = importCycles(
      new Map([
        ['src/a.ts', [{ specifier: './b.js', target: 'src/b.ts', typeOnly: true }]],
        ['src/b.ts', [{ specifier: './c.js', target: 'src/c.ts', typeOnly: false }]],
        ['src/c.ts', [{ specifier: './a.js', target: 'src/a.ts', typeOnly: true }]],
        ['src/d.ts', [{ specifier: './a.js', target: 'src/a.ts', typeOnly: false }]],
      ]),
    );
    expect(cycles).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts']]);
  });
});
