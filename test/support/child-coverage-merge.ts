/**
 * Adds what the run's child processes executed (recorded by test/support/child-coverage.mjs) to vitest's coverage
 * map: the V8 counts of every child are merged per script, converted to istanbul's form once per script with
 * ast-v8-to-istanbul (the converter vitest itself uses) over the JavaScript tsx ran, and their hit counts added to the
 * map's entries for the same places in the .ts source. The map's entries stay vitest's own (one statement, branch or
 * function per place, as measured in-process), so totals do not change and a line counts once however many processes
 * ran it; an entry of the child's with no counterpart at the same place is counted and reported, never added.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { Profiler } from 'node:inspector';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeScriptCovs } from '@bcoe/v8-coverage';
import convert from 'ast-v8-to-istanbul';
import { parseAstAsync } from 'vitest/node';

interface Position {
  line: number;
  column: number;
}

interface Range {
  start: Position;
  end: Position;
}

/** istanbul's per-file coverage data (FileCoverageData): the places (maps) and their hit counts. */
export interface FileCoverageData {
  path: string;
  statementMap: Record<string, Range>;
  s: Record<string, number>;
  fnMap: Record<string, { name: string; decl: Range; loc: Range; line: number }>;
  f: Record<string, number>;
  branchMap: Record<string, { type: string; loc: Range; locations: Range[]; line: number }>;
  b: Record<string, number[]>;
}

/** The part of istanbul's CoverageMap this module uses. */
export interface MergeTarget {
  files(): string[];
  fileCoverageFor(file: string): { data: FileCoverageData };
  addFileCoverage(data: FileCoverageData): void;
}

/** What a merge did: child processes read, source files they ran, and entries matched or left without a counterpart. */
export interface MergeReport {
  processes: number;
  files: Set<string>;
  matched: number;
  unmatched: number;
  /** Per file, how many of the child's entries found no counterpart in the map. */
  unmatchedByFile: Map<string, number>;
}

interface RecordedScript {
  url: string;
  functions: Profiler.FunctionCoverage[];
  /** The sha-256 of the JavaScript the child ran, stored in `<dir>/sources/<hash>.js`. */
  source: string;
}

const INLINE_MAP = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;

/**
 * Reads every child's recording in `dir`, merges the counts of each script the children ran (by url and JavaScript).
 */
export function readChildCoverage(dir: string): {
  processes: number;
  scripts: Profiler.ScriptCoverage[];
  sources: Map<string, string>;
} {
  const groups = new Map<string, Profiler.ScriptCoverage[]>();
  const sources = new Map<string, string>();
  let processes = 0;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    processes++;
    const { scripts } = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { scripts: RecordedScript[] };
    for (const script of scripts) {
      const key = `${script.url}\n${script.source}`;
      sources.set(key, script.source);
      let group = groups.get(key);
      if (group === undefined) groups.set(key, (group = []));
      group.push({ scriptId: '0', url: script.url, functions: script.functions });
    }
  }
  const scripts: Profiler.ScriptCoverage[] = [];
  for (const [key, group] of groups) {
    const merged = mergeScriptCovs(group);
    // The url carries the JavaScript's hash so that convertScript finds the text this count belongs to.
    if (merged !== undefined) scripts.push({ ...merged, url: key });
  }
  return { processes, scripts, sources };
}

/** Converts one merged script (url + hash from readChildCoverage) to istanbul's data for its .ts file. */
export async function convertScript(dir: string, script: Profiler.ScriptCoverage): Promise<FileCoverageData[]> {
  const [url = '', hash = ''] = script.url.split('\n');
  const code = readFileSync(join(dir, 'sources', `${hash}.js`), 'utf8');
  const inline = INLINE_MAP.exec(code);
  if (inline === null) throw new Error(`child coverage: the JavaScript run for ${url} has no inline source map`);
  const map = JSON.parse(Buffer.from(inline[1]!, 'base64').toString('utf8')) as {
    version: number;
    sources: string[];
    mappings: string;
    names: string[];
  };
  map.sources = map.sources.map((source) => new URL(source, url).href);
  const data = await convert({
    code,
    sourceMap: map,
    ast: parseAstAsync(code),
    coverage: { url, functions: script.functions },
    ignoreNode: isTsxAddition,
  });
  return Object.values(data).map((file) => ('data' in file ? file.data : file) as FileCoverageData);
}

/**
 * Nodes tsx adds that have no place of their own in the .ts: esbuild's keepNames helpers (`var __name = ...`,
 * `__name(f, "f")`, `static { __name(this, "C") }`) and the interop tsx wraps around a dynamic `import()`
 * (`.then(s => { const e = "default"; return s[e] && ... ? s[e] : s })`).
 */
function isTsxAddition(node: unknown): 'ignore-this-and-nested-nodes' | undefined {
  const n = node as {
    type: string;
    id?: { name?: string };
    declarations?: { id?: { name?: string } }[];
    expression?: unknown;
    body?: unknown;
  };
  const isNameCall = (e: unknown): boolean => {
    const call = e as { type?: string; callee?: { type?: string; name?: string } };
    return call.type === 'CallExpression' && call.callee?.type === 'Identifier' && HELPERS.has(call.callee.name ?? '');
  };
  if (n.type === 'VariableDeclaration' && n.declarations?.every((d) => HELPERS.has(d.id?.name ?? '')) === true)
    return 'ignore-this-and-nested-nodes';
  if (n.type === 'VariableDeclarator' && HELPERS.has(n.id?.name ?? '')) return 'ignore-this-and-nested-nodes';
  if (n.type === 'ExpressionStatement' && isNameCall(n.expression)) return 'ignore-this-and-nested-nodes';
  if (
    n.type === 'StaticBlock' &&
    Array.isArray(n.body) &&
    n.body.every((st: { expression?: unknown }) => isNameCall(st.expression))
  ) {
    return 'ignore-this-and-nested-nodes';
  }
  if (n.type === 'ArrowFunctionExpression') {
    const first = (n.body as { type?: string; body?: { declarations?: { init?: { value?: unknown } }[] }[] }).body?.[0];
    if (first?.declarations?.length === 1 && first.declarations[0]?.init?.value === 'default')
      return 'ignore-this-and-nested-nodes';
  }
  return undefined;
}

const HELPERS = new Set(['__defProp', '__name']);

const at = (p: Position): string => `${p.line}:${p.column}`;
const span = (r: Range): string => `${at(r.start)}-${at(r.end)}`;

/**
 * Pairs each of the child's entries with the target's entry for the same place, one to one: same range, else same
 * start, else (tsx and vitest map some nodes' starts differently, e.g. `else if` from `else` or from `if`) the n-th
 * entry left on a line with the n-th left on the same line of the target, when both have as many left there.
 */
function pair<T>(
  target: Record<string, T>,
  child: Record<string, T>,
  keys: ((entry: T) => string)[],
  end: (entry: T) => string,
  line: (entry: T) => string,
): Map<string, string> {
  const pairs = new Map<string, string>();
  const claimed = new Set<string>();
  for (const key of keys) {
    const free = new Map<string, string[]>();
    for (const [id, entry] of Object.entries(target)) {
      if (claimed.has(id)) continue;
      const k = key(entry);
      const ids = free.get(k);
      if (ids === undefined) free.set(k, [id]);
      else ids.push(id);
    }
    for (const [id, entry] of Object.entries(child)) {
      if (pairs.has(id)) continue;
      const into = free.get(key(entry))?.shift();
      if (into === undefined) continue;
      pairs.set(id, into);
      claimed.add(into);
    }
  }
  // Then, until nothing more pairs: the same end when it is the only one left with that end on both sides (an `else
  // if` that tsx starts at `else`); the n-th left on a line with the n-th left on that line when both have as many.
  const left = (
    entries: Record<string, T>,
    skip: (id: string) => boolean,
    key: (entry: T) => string,
  ): Map<string, string[]> => {
    const groups = new Map<string, string[]>();
    for (const [id, entry] of Object.entries(entries)) {
      if (skip(id)) continue;
      const ids = groups.get(key(entry));
      if (ids === undefined) groups.set(key(entry), [id]);
      else ids.push(id);
    }
    return groups;
  };
  for (let before = -1; before !== pairs.size; ) {
    before = pairs.size;
    for (const [key, unique] of [
      [end, true],
      [line, false],
    ] as const) {
      const free = left(target, (id) => claimed.has(id), key);
      for (const [k, ids] of left(child, (id) => pairs.has(id), key)) {
        const into = free.get(k);
        if (into?.length !== ids.length || (unique && ids.length !== 1)) continue;
        ids.forEach((id, n) => {
          pairs.set(id, into[n]!);
          claimed.add(into[n]!);
        });
      }
    }
  }
  return pairs;
}

/**
 * Adds the child's hit counts to the target's entries at the same places; returns how many matched and how many did
 * not.
 */
export function addCounts(target: FileCoverageData, child: FileCoverageData): { matched: number; unmatched: number } {
  let matched = 0;
  let unmatched = 0;
  const add = <T extends number | number[]>(
    pairs: Map<string, string>,
    from: Record<string, T>,
    into: Record<string, T>,
    plus: (a: T, b: T) => T,
  ): void => {
    for (const [id, count] of Object.entries(from)) {
      const to = pairs.get(id);
      const current = to === undefined ? undefined : into[to];
      if (to === undefined || current === undefined) unmatched++;
      else {
        matched++;
        into[to] = plus(current, count);
      }
    }
  };
  const sum = (a: number, b: number): number => a + b;
  add(
    pair(
      target.statementMap,
      child.statementMap,
      [span, (r) => at(r.start)],
      (r) => at(r.end),
      (r) => `${r.start.line}`,
    ),
    child.s,
    target.s,
    sum,
  );
  const fnPairs = pair(
    target.fnMap,
    child.fnMap,
    [(f) => span(f.decl), (f) => span(f.loc), (f) => at(f.decl.start), (f) => at(f.loc.start)],
    (f) => at(f.loc.end),
    (f) => `${f.loc.start.line}`,
  );
  add(fnPairs, child.f, target.f, sum);
  // Paired only with a branch of the same kind and number of arms: the counts add arm by arm.
  const kind = (b: FileCoverageData['branchMap'][string]): string => `${b.type}/${b.locations.length}`;
  const branchPairs = pair(
    target.branchMap,
    child.branchMap,
    [(b) => `${kind(b)} ${span(b.loc)}`, (b) => `${kind(b)} ${at(b.loc.start)}`],
    (b) => `${kind(b)} ${at(b.loc.end)}`,
    (b) => `${kind(b)} ${b.loc.start.line}`,
  );
  add(branchPairs, child.b, target.b, (a, b) => a.map((n, arm) => n + (b[arm] ?? 0)));
  return { matched, unmatched };
}

/** Merges the children's coverage recorded in `dir` into `map`, for the files `include` accepts. */
export async function mergeChildCoverage(
  dir: string,
  map: MergeTarget,
  include: (file: string) => boolean,
): Promise<MergeReport> {
  const { processes, scripts } = readChildCoverage(dir);
  const report: MergeReport = { processes, files: new Set(), matched: 0, unmatched: 0, unmatchedByFile: new Map() };
  const known = new Set(map.files());
  for (const script of scripts) {
    if (!include(fileURLToPath(script.url.split('\n')[0]!))) continue;
    for (const child of await convertScript(dir, script)) {
      if (!include(child.path)) continue;
      report.files.add(child.path);
      if (!known.has(child.path)) {
        map.addFileCoverage(child);
        known.add(child.path);
        continue;
      }
      const { matched, unmatched } = addCounts(map.fileCoverageFor(child.path).data, child);
      report.matched += matched;
      report.unmatched += unmatched;
      if (unmatched > 0)
        report.unmatchedByFile.set(child.path, (report.unmatchedByFile.get(child.path) ?? 0) + unmatched);
    }
  }
  return report;
}
