/**
 * A vitest reporter for runs that measure coverage (`vitest run --coverage`, as `npm test` does): it has the run's
 * child processes record what they execute of src/ (test/support/child-coverage.mjs), merges that into vitest's
 * coverage map before vitest checks the floor (`coverage.thresholds` in vitest.config.ts: vitest calls onCoverage with
 * the map it then reports and checks), and prints coverage per source folder (lines, branches, functions).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Vitest } from 'vitest/node';
import type { Reporter } from 'vitest/reporters';
import { mergeChildCoverage } from './child-coverage-merge.js';
import type { FileCoverageData, MergeTarget } from './child-coverage-merge.js';
import { CHILD_COVERAGE_VARIABLE } from './processes.js';

interface Counts {
  total: number;
  covered: number;
}

interface FileSummary {
  lines: Counts;
  branches: Counts;
  functions: Counts;
}

/** The part of istanbul's CoverageMap this reporter reads and adds to. */
interface CoverageMapLike extends MergeTarget {
  fileCoverageFor(file: string): { data: FileCoverageData; toSummary(): FileSummary };
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

/** One row per source folder and one for all: the percentages of lines, branches and functions covered. */
function folderTable(coverage: CoverageMapLike): string {
  const folders = new Map<string, Record<(typeof KINDS)[number], Counts>>();
  for (const file of coverage.files()) {
    const summary = coverage.fileCoverageFor(file).toSummary();
    const folder = folderOf(file);
    let row = folders.get(folder);
    if (row === undefined)
      folders.set(
        folder,
        (row = {
          lines: { total: 0, covered: 0 },
          branches: { total: 0, covered: 0 },
          functions: { total: 0, covered: 0 },
        }),
      );
    for (const kind of KINDS) {
      row[kind].total += summary[kind].total;
      row[kind].covered += summary[kind].covered;
    }
  }
  const names = [...folders.keys()].sort();
  const width = Math.max(6, ...names.map((n) => n.length));
  const lines = [`${'folder'.padEnd(width)}  ${KINDS.map((k) => k.padStart(9)).join('  ')}`];
  const total = {
    lines: { total: 0, covered: 0 },
    branches: { total: 0, covered: 0 },
    functions: { total: 0, covered: 0 },
  };
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
  return `${lines.join('\n')}\n`;
}

export default class CoverageByFolder implements Reporter {
  private childCoverage: string | undefined;
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    if (!vitest.config.coverage.enabled) return;
    this.root = vitest.config.root;
    // Test workers (forked after this) inherit it and pass it on to their children
    // (test/support/child-coverage-setup.ts).
    this.childCoverage = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-child-coverage-'));
    process.env[CHILD_COVERAGE_VARIABLE] = this.childCoverage;
  }

  async onCoverage(coverage: unknown): Promise<void> {
    if (!isCoverageMap(coverage)) return;
    if (this.childCoverage !== undefined) await this.mergeChildren(coverage, this.childCoverage);
    process.stdout.write(`\nCoverage per folder\n${folderTable(coverage)}`);
  }

  /** A run that ends without coverage (interrupted) leaves no recordings behind either. */
  onTestRunEnd(): void {
    if (this.childCoverage !== undefined) rmSync(this.childCoverage, { recursive: true, force: true });
  }

  private async mergeChildren(coverage: CoverageMapLike, dir: string): Promise<void> {
    const src = join(this.root, 'src') + sep;
    try {
      const report = await mergeChildCoverage(dir, coverage, (file) => file.startsWith(src) && file.endsWith('.ts'));
      const unmatched = [...report.unmatchedByFile]
        .map(([file, count]) => `${relative(this.root, file)} ${count}`)
        .join(', ');
      process.stdout.write(
        `\nCoverage from ${report.processes} child processes: ${report.files.size} source files, ${report.matched} entries added` +
          (report.unmatched === 0
            ? '\n'
            : `, ${report.unmatched} without a counterpart in the run's map (${unmatched})\n`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
