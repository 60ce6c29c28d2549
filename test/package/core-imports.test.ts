import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, packageEntries } from './build-fixture.js';
import { adapterOf, sourceGraph } from './source-imports.js';

/** Every module specifier in a bundled file: static/dynamic imports, re-exports and `require` calls. */
function specifiers(code: string): string[] {
  const patterns = [
    /(?:^|[\s;}])(?:import|export)\s*(?:[\w*${}\s,]*?\s*from\s*)?["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  const found = new Set<string>();
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

function isNodeBuiltin(specifier: string): boolean {
  if (specifier.startsWith('node:')) return true;
  return builtinModules.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

function forbidden(specifier: string): string | undefined {
  if (isNodeBuiltin(specifier)) return 'a Node.js built-in';
  if (specifier.startsWith('@modelcontextprotocol/')) return 'the MCP SDK';
  return undefined;
}

/** Every file reachable from `entry` through relative imports, with the specifiers each one imports. */
function reachable(entry: string): Map<string, string[]> {
  const files = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    const found = specifiers(readFileSync(file, 'utf8'));
    files.set(file, found);
    for (const specifier of found) {
      if (specifier.startsWith('./') || specifier.startsWith('../')) queue.push(join(dirname(file), specifier));
    }
  }
  return files;
}

describe('the import scanner', () => {
  it('finds node built-ins and SDK imports however they are written', () => {
    const code = [
      'import fs from "node:fs";',
      'import { join } from "path";',
      'export { x } from "./chunk-A.js";',
      'const c = require("crypto");',
      'const s = await import("@modelcontextprotocol/sdk/types.js");',
      'import "fs/promises";',
      'import Ajv from "ajv";',
    ].join('\n');
    const found = specifiers(code);
    expect(found.sort()).toEqual(
      ['node:fs', 'path', './chunk-A.js', 'crypto', '@modelcontextprotocol/sdk/types.js', 'fs/promises', 'ajv'].sort(),
    );
    expect(found.filter((s) => forbidden(s) !== undefined).sort()).toEqual(
      ['node:fs', 'path', 'crypto', '@modelcontextprotocol/sdk/types.js', 'fs/promises'].sort(),
    );
  });

  it('follows relative imports into chunks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scan-'));
    try {
      writeFileSync(join(dir, 'index.js'), 'export { a } from "./chunk-A.js";\n');
      writeFileSync(join(dir, 'chunk-A.js'), 'import { b } from "./nested/chunk-B.js"; export const a = b;\n');
      mkdirSync(join(dir, 'nested'));
      writeFileSync(join(dir, 'nested', 'chunk-B.js'), 'import { readFileSync } from "node:fs"; export const b = 1;\n');
      const files = reachable(join(dir, 'index.js'));
      expect([...files.keys()].map((f) => relative(dir, f)).sort()).toEqual(
        ['chunk-A.js', 'index.js', join('nested', 'chunk-B.js')].sort(),
      );
      expect(files.get(join(dir, 'nested', 'chunk-B.js'))).toEqual(['node:fs']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the built core entry', () => {
  let dist: string | undefined;
  beforeAll(async () => {
    dist = await buildPackage();
  });

  const core = packageEntries().find((entry) => entry.key === '.');

  it('is declared in the exports map', () => {
    expect(core).toBeDefined();
  });

  it.each(['esm', 'cjs'] as const)('imports no node: module and not @modelcontextprotocol/* (%s)', (format) => {
    const files = reachable(join(dist!, core![format]));
    const problems: string[] = [];
    for (const [file, found] of files) {
      for (const specifier of found) {
        const reason = forbidden(specifier);
        if (reason !== undefined) problems.push(`${relative(dist!, file)} imports '${specifier}' (${reason})`);
      }
    }
    expect(files.size).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});

describe('the built postgres entry', () => {
  let dist: string | undefined;
  beforeAll(async () => {
    dist = await buildPackage();
  });

  const postgres = packageEntries().find((entry) => entry.key === './postgres');

  it.each(['esm', 'cjs'] as const)(
    "imports neither pg (the pool is the caller's) nor any node: module (%s)",
    (format) => {
      const files = reachable(join(dist!, postgres![format]));
      const problems: string[] = [];
      for (const [file, found] of files) {
        for (const specifier of found) {
          const reason = specifier === 'pg' || specifier.startsWith('pg/') ? 'the pg driver' : forbidden(specifier);
          if (reason !== undefined) problems.push(`${relative(dist!, file)} imports '${specifier}' (${reason})`);
        }
      }
      expect(files.size).toBeGreaterThan(1);
      expect(problems).toEqual([]);
    },
  );
});

describe('the core source files', () => {
  // The built entry above shows what ships; the sources also show type-only imports (erased from the build) and
  // which file is at fault.
  const graph = sourceGraph();
  const core = [...graph].filter(([file]) => adapterOf(file) === undefined);

  it('exist (the scan found them)', () => {
    expect(core.map(([file]) => file)).toContain('src/index.ts');
    expect(core.length).toBeGreaterThan(50);
  });

  it('import no node: module and not @modelcontextprotocol/*, type-only imports included', () => {
    const problems: string[] = [];
    for (const [file, imports] of core) {
      for (const { specifier } of imports) {
        const reason = forbidden(specifier);
        if (reason !== undefined) problems.push(`${file} imports '${specifier}' (${reason})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('import no adapter folder (adapters depend on the core, never the other way round)', () => {
    const problems: string[] = [];
    for (const [file, imports] of core) {
      for (const { specifier, target } of imports) {
        const adapter = target === undefined ? undefined : adapterOf(target);
        if (adapter !== undefined) problems.push(`${file} imports '${specifier}' (${adapter})`);
      }
    }
    expect(problems).toEqual([]);
  });
});
