import { describe, expect, it } from 'vitest';
import { MAX_PACKED_BYTES, tarballProblems } from '../../scripts/package-budget.mjs';
import type { PackedFile } from '../../scripts/package-budget.mjs';

const PUBLISHED: PackedFile[] = [
  { path: 'package.json', size: 4_000 },
  { path: 'README.md', size: 15_000 },
  { path: 'LICENSE', size: 1_000 },
  { path: 'dist/index.js', size: 1_000 },
  { path: 'dist/index.cjs', size: 5_000 },
  { path: 'dist/index.d.ts', size: 38_000 },
  { path: 'dist/index.d.cts', size: 38_000 },
  { path: 'dist/chunk-ABC123.js', size: 170_000 },
  { path: 'dist/cli.js', size: 22_000 },
  { path: 'schema/prompt-definition.schema.json', size: 15_000 },
];

const unpacked = (files: PackedFile[]): number => files.reduce((sum, f) => sum + f.size, 0);

describe('the tarball budget of check:package', () => {
  it('accepts the built JS, declarations, schema, README and licence within the budget', () => {
    expect(tarballProblems({ size: 120_000, unpackedSize: unpacked(PUBLISHED), files: PUBLISHED })).toEqual([]);
  });

  it('refuses a tarball over the packed budget, naming its size, the budget and the largest files', () => {
    const files = [...PUBLISHED, { path: 'dist/cli.js', size: 386_765 }];
    const problems = tarballProblems({ size: 1_315_870, unpackedSize: 5_368_324, files });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^the tarball is 1315\.9 kB packed \(1315870 bytes; 5368\.3 kB unpacked\), over the budget of 480\.0 kB packed/,
    );
    expect(problems[0]!.split('\n')[1]).toBe('  dist/cli.js 386.8 kB');
  });

  it('holds the packed size to 480 kB as npm prints it', () => {
    expect(MAX_PACKED_BYTES).toBe(480_000);
    const files = PUBLISHED;
    expect(tarballProblems({ size: 480_000, unpackedSize: unpacked(files), files })).toEqual([]);
    expect(tarballProblems({ size: 480_001, unpackedSize: unpacked(files), files })).toHaveLength(1);
  });

  it('refuses source maps, tests, fixtures and sources in the tarball, naming each', () => {
    const files = [
      ...PUBLISHED,
      { path: 'dist/cli.js.map', size: 1_072_937 },
      { path: 'dist/index.cjs.map', size: 70 },
      { path: 'dist/fixtures/prompts/a.json', size: 10 },
      { path: 'src/index.ts', size: 10 },
      { path: 'test/readme.test.ts', size: 10 },
    ];
    const problems = tarballProblems({ size: 100_000, unpackedSize: unpacked(files), files });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.split('\n').slice(1)).toEqual([
      '  dist/cli.js.map (1072.9 kB)',
      '  dist/index.cjs.map (0.1 kB)',
      '  dist/fixtures/prompts/a.json (0.0 kB)',
      '  src/index.ts (0.0 kB)',
      '  test/readme.test.ts (0.0 kB)',
    ]);
    expect(problems[0]).toMatch(/^the tarball holds 5 file\(s\) no import, bin or registry page needs/);
  });
});
