/**
 * Coverage from child processes: what a child running src/ through tsx records (test/support/child-coverage.mjs), and
 * how it is merged into a coverage map made by another compiler (vitest's own map in a run: here TypeScript's), so
 * that code only a child runs counts as covered, once, without adding places to the map.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import convert from 'ast-v8-to-istanbul';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAstAsync } from 'vitest/node';
import { addCounts, mergeChildCoverage } from './child-coverage-merge.js';
import type { FileCoverageData, MergeTarget } from './child-coverage-merge.js';
import { CHILD_COVERAGE_VARIABLE, STARTS_CHILD_PROCESSES, TS_NODE_ARGS } from './processes.js';
import { cacheFile, cacheName } from './ts-cache.mjs';
import { tsMirror } from './ts-mirror.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RECORDER = new URL('./child-coverage.mjs', import.meta.url).href;

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function recordingDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'child-coverage-test-'));
  dirs.push(dir);
  return dir;
}

/** Runs `node ...args` from the repository with the recorder writing to `dir`; resolves with how it ended. */
function runChild(
  dir: string,
  args: string[],
  until?: (child: ReturnType<typeof spawn>) => void,
): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, [CHILD_COVERAGE_VARIABLE]: dir, NODE_OPTIONS: `--import=${RECORDER}` };
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      until?.(child);
    });
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout }));
  });
}

/**
 * A coverage map holding `file` with every count 0, compiled by TypeScript (not by tsx's esbuild) as vitest's is by
 * vite.
 */
async function zeroMap(file: string): Promise<MergeTarget & { data: Map<string, FileCoverageData> }> {
  const path = join(ROOT, file);
  const out = ts.transpileModule(await readFile(path, 'utf8'), {
    fileName: path,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, sourceMap: true },
  });
  const code = out.outputText.replace(/\/\/# sourceMappingURL=.*$/m, '');
  const map = JSON.parse(out.sourceMapText!) as {
    version: number;
    sources: string[];
    mappings: string;
    names: string[];
  };
  map.sources = [pathToFileURL(path).href];
  const converted = await convert({
    code,
    sourceMap: map,
    ast: parseAstAsync(code),
    coverage: { url: pathToFileURL(path).href, functions: [] },
  });
  const data = new Map(Object.values(converted).map((f) => [(f as FileCoverageData).path, f as FileCoverageData]));
  return {
    data,
    files: () => [...data.keys()],
    fileCoverageFor: (f) => ({ data: data.get(f)! }),
    addFileCoverage: (d) => void data.set(d.path, d),
  };
}

/** Line -> hits, as istanbul counts lines: the most hits of the statements starting on it. */
function lineHits(data: FileCoverageData): Map<number, number> {
  const lines = new Map<number, number>();
  for (const [id, loc] of Object.entries(data.statementMap))
    lines.set(loc.start.line, Math.max(lines.get(loc.start.line) ?? 0, data.s[id] ?? 0));
  return lines;
}

const sizes = (d: FileCoverageData) => [
  Object.keys(d.statementMap).length,
  Object.keys(d.fnMap).length,
  Object.keys(d.branchMap).length,
];

describe.runIf(STARTS_CHILD_PROCESSES)('coverage of child processes', { timeout: 90_000 }, () => {
  it('counts what only a child ran as covered, adds the counts of every child, and keeps the map’s places', async () => {
    const dir = await recordingDir();
    const first = await runChild(dir, ['--import', 'tsx', 'src/cli/main.ts', '--version']);
    expect(first.code).toBe(0);
    const second = await runChild(dir, ['--import', 'tsx', 'src/cli/main.ts', '--version']);
    expect(second.stdout).toBe(first.stdout);
    const file = join(ROOT, 'src/cli/version.ts');
    const target = await zeroMap('src/cli/version.ts');
    const before = sizes(target.data.get(file)!);
    const report = await mergeChildCoverage(dir, target, (f) => f === file);
    expect(report).toMatchObject({ processes: 2, unmatched: 0 });
    expect(report.files).toStrictEqual(new Set([file]));
    const merged = target.data.get(file)!;
    expect(sizes(merged)).toStrictEqual(before);
    const hits = lineHits(merged);
    // Run once per process at start-up: the try, never the catch.
    expect(hits.get(6)).toBe(2);
    expect(hits.get(7)).toBe(2);
    expect(hits.get(9)).toBe(0);
    expect(hits.get(14)).toBe(2);
    // The ternary's arms: the string version taken twice, the fallback never.
    expect(
      Object.entries(merged.branchMap)
        .filter(([, b]) => b.type === 'cond-expr')
        .map(([id]) => merged.b[id]),
    ).toStrictEqual([[2, 0]]);
    expect(Object.values(merged.f)).toStrictEqual([2]);
  });

  it('takes the JavaScript a child ran through ts-register.mjs from its loader’s cache, counted as tsx’s is', async () => {
    const file = join(ROOT, 'src/cli/version.ts');
    const merged: FileCoverageData[] = [];
    for (const loader of [TS_NODE_ARGS, ['--import', 'tsx']]) {
      const dir = await recordingDir();
      expect((await runChild(dir, [...loader, 'src/cli/main.ts', '--version'])).code).toBe(0);
      const target = await zeroMap('src/cli/version.ts');
      expect(await mergeChildCoverage(dir, target, (f) => f === file)).toMatchObject({ processes: 1, unmatched: 0 });
      merged.push(target.data.get(file)!);
      if (loader !== TS_NODE_ARGS) continue;
      // Stored under the cache's name, with the cache's text: V8 was not asked for it.
      const sources = await readdir(join(dir, 'sources'));
      expect(sources.length).toBeGreaterThan(0);
      expect(sources.every((name) => /^ts-[0-9a-f]{64}\.js$/.test(name))).toBe(true);
      const text = await readFile(file, 'utf8');
      const stored = await readFile(join(dir, 'sources', `ts-${cacheName(file, text)}.js`), 'utf8');
      expect(stored).toBe(await readFile(cacheFile(file, text), 'utf8'));
    }
    const [hooks, tsx] = merged as [FileCoverageData, FileCoverageData];
    expect(lineHits(hooks)).toStrictEqual(lineHits(tsx));
    expect(hooks.b).toStrictEqual(tsx.b);
    expect(hooks.f).toStrictEqual(tsx.f);
    expect(lineHits(hooks).get(14)).toBe(1);
  });

  it('counts a child running the mirror of src/ as one running the .ts through ts-register.mjs, stored under the cache’s name', async () => {
    const file = join(ROOT, 'src/cli/version.ts');
    const mirror = tsMirror();
    // The mirror's file is the loader's text of the .ts: the same places, the same offsets.
    const text = await readFile(file, 'utf8');
    expect(await readFile(join(mirror, 'src/cli/version.js'), 'utf8')).toBe(
      await readFile(cacheFile(file, text), 'utf8'),
    );
    const merged: FileCoverageData[] = [];
    for (const args of [[...TS_NODE_ARGS, 'src/cli/main.ts'], [join(mirror, 'src/cli/main.js')]]) {
      const dir = await recordingDir();
      expect((await runChild(dir, [...args, '--version'])).code).toBe(0);
      const target = await zeroMap('src/cli/version.ts');
      expect(await mergeChildCoverage(dir, target, (f) => f === file)).toMatchObject({ processes: 1, unmatched: 0 });
      merged.push(target.data.get(file)!);
      const sources = await readdir(join(dir, 'sources'));
      expect(sources).toContain(`ts-${cacheName(file, text)}.js`);
      expect(sources.every((name) => /^ts-[0-9a-f]{64}\.js$/.test(name))).toBe(true);
    }
    const [hooks, mirrored] = merged as [FileCoverageData, FileCoverageData];
    expect(lineHits(mirrored)).toStrictEqual(lineHits(hooks));
    expect(mirrored.b).toStrictEqual(hooks.b);
    expect(mirrored.f).toStrictEqual(hooks.f);
    expect(lineHits(mirrored).get(14)).toBe(1);
  });

  it('pairs the branches of a file tsx and TypeScript compile differently, with none left over', async () => {
    const dir = await recordingDir();
    expect((await runChild(dir, ['--import', 'tsx', 'src/cli/main.ts', 'check', '--bad-option'])).code).toBe(2);
    const file = join(ROOT, 'src/cli/args.ts');
    const target = await zeroMap('src/cli/args.ts');
    const before = sizes(target.data.get(file)!);
    const report = await mergeChildCoverage(dir, target, (f) => f === file);
    expect(report.unmatched).toBe(0);
    expect(report.matched).toBeGreaterThan(before.reduce((a, b) => a + b) / 2);
    expect(sizes(target.data.get(file)!)).toStrictEqual(before);
    const covered = Object.values(target.data.get(file)!.b)
      .flat()
      .filter((n) => n > 0).length;
    expect(covered).toBeGreaterThan(0);
  });

  it('records nothing in a child that does not run TypeScript through tsx', async () => {
    const dir = await recordingDir();
    expect(
      (await runChild(dir, ['--input-type=module', '-e', "await import('node:fs'); console.log('ran')"])).stdout,
    ).toBe('ran\n');
    expect(await readdir(dir)).toStrictEqual([]);
  });

  it('records a child ended by a signal it has no handler for, which still ends by that signal', async () => {
    const dir = await recordingDir();
    const program =
      "const { isRecord } = await import('./src/json.ts'); console.log(isRecord({})); setInterval(() => {}, 1000);";
    const ended = await runChild(dir, ['--import', 'tsx', '--input-type=module', '-e', program], (child) =>
      child.kill('SIGTERM'),
    );
    expect(ended).toMatchObject({ code: null, signal: 'SIGTERM', stdout: 'true\n' });
    const recorded = (await readdir(dir)).filter((name) => name.endsWith('.json'));
    expect(recorded).toHaveLength(1);
    const { scripts } = JSON.parse(await readFile(join(dir, recorded[0]!), 'utf8')) as { scripts: { url: string }[] };
    expect(scripts.map((s) => s.url)).toContain(pathToFileURL(join(ROOT, 'src/json.ts')).href);
  });
});

describe('adding a child’s counts to a map', () => {
  const at = (line: number, column: number, endColumn: number) => ({
    start: { line, column },
    end: { line, column: endColumn },
  });
  const file = (statements: ReturnType<typeof at>[], counts: number[]): FileCoverageData => ({
    path: '/x.ts',
    statementMap: Object.fromEntries(statements.map((s, i) => [String(i), s])),
    s: Object.fromEntries(counts.map((c, i) => [String(i), c])),
    fnMap: {},
    f: {},
    branchMap: {},
    b: {},
  });

  it('adds to the entry at the same place, pairs one that starts elsewhere on its line, and leaves out one with no counterpart', () => {
    const target = file([at(1, 0, 10), at(2, 4, 20), at(3, 0, 5)], [1, 0, 0]);
    // Line 2's statement starts at column 2 in the child's map (another compiler's mapping); line 9 is not in the
    // target.
    const child = file([at(1, 0, 10), at(2, 2, 18), at(9, 0, 1)], [3, 5, 7]);
    expect(addCounts(target, child)).toStrictEqual({ matched: 2, unmatched: 1 });
    expect(target.s).toStrictEqual({ '0': 4, '1': 5, '2': 0 });
    expect(Object.keys(target.statementMap)).toHaveLength(3);
  });

  it('never adds two of the child’s entries to one of the map’s', () => {
    const target = file([at(1, 0, 10)], [0]);
    const child = file([at(1, 0, 10), at(1, 0, 4)], [1, 1]);
    expect(addCounts(target, child)).toStrictEqual({ matched: 1, unmatched: 1 });
    expect(target.s).toStrictEqual({ '0': 1 });
  });
});
