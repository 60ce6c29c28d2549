/**
 * A vitest reporter that prints coverage per source folder (lines, branches, functions) when the run measures coverage
 * (`vitest run --coverage`, as `npm test` does); the floor itself is `coverage.thresholds` in vitest.config.ts.
 */
import { relative, sep } from 'node:path';
import type { Reporter } from 'vitest/reporters';

interface Counts {
  total: number;
  covered: number;
}

interface FileSummary {
  lines: Counts;
  branches: Counts;
  functions: Counts;
}

/** The part of istanbul's CoverageMap this reporter reads. */
interface CoverageMapLike {
  files(): string[];
  fileCoverageFor(file: string): { toSummary(): FileSummary };
}

const KINDS = ['lines', 'branches', 'functions'] as const;

function isCoverageMap(value: unknown): value is CoverageMapLike {
  return typeof value === 'object' && value !== null && typeof (value as CoverageMapLike).files === 'function';
}

/** `src/fs/load.ts` -> `src/fs`; files directly under src/ are the core's `src`. */
function folderOf(file: string): string {
  const parts = relative(process.cwd(), file).split(sep);
  return parts.slice(0, Math.max(1, parts.length - 1)).join('/');
}

function percent(c: Counts): string {
  return c.total === 0 ? '100.00' : ((100 * c.covered) / c.total).toFixed(2);
}

export default class CoverageByFolder implements Reporter {
  onCoverage(coverage: unknown): void {
    if (!isCoverageMap(coverage)) return;
    const folders = new Map<string, Record<(typeof KINDS)[number], Counts>>();
    for (const file of coverage.files()) {
      const summary = coverage.fileCoverageFor(file).toSummary();
      const folder = folderOf(file);
      let row = folders.get(folder);
      if (row === undefined) folders.set(folder, (row = { lines: { total: 0, covered: 0 }, branches: { total: 0, covered: 0 }, functions: { total: 0, covered: 0 } }));
      for (const kind of KINDS) {
        row[kind].total += summary[kind].total;
        row[kind].covered += summary[kind].covered;
      }
    }
    const names = [...folders.keys()].sort();
    const width = Math.max(6, ...names.map((n) => n.length));
    const lines = [`${'folder'.padEnd(width)}  ${KINDS.map((k) => k.padStart(9)).join('  ')}`];
    const total = { lines: { total: 0, covered: 0 }, branches: { total: 0, covered: 0 }, functions: { total: 0, covered: 0 } };
    const format = (name: string, row: Record<(typeof KINDS)[number], Counts>): string =>
      `${name.padEnd(width)}  ${KINDS.map((k) => `${percent(row[k])}%`.padStart(9)).join('  ')}`;
    for (const name of names) {
      const row = folders.get(name)!;
      lines.push(format(name, row));
      for (const kind of KINDS) {
        total[kind].total += row[kind].total;
        total[kind].covered += row[kind].covered;
      }
    }
    lines.push(format('all', total));
    process.stdout.write(`\nCoverage per folder\n${lines.join('\n')}\n`);
  }
}
