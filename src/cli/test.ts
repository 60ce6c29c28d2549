/** `test <dir>`: runs every example case of the prompts under a directory; no model, no network. */
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { runPromptCases } from '../cases/run.js';
import type { PromptCase, PromptCaseReport, PromptCaseResult } from '../cases/types.js';
import { escapeControlCharacters } from '../encoding.js';
import { writeCaseSnapshots } from '../fs/case-snapshots.js';
import type { SnapshotUpdate } from '../fs/case-snapshots.js';
import { formatDiagnostic } from '../fs/diagnostics.js';
import { DEFAULT_PROMPT_FILE_LIMITS } from '../fs/prompt-file.js';
import { UsageError, docsRoots, parseCommand, positionals } from './args.js';
import { openDirectory } from './commands.js';
import { junitXml } from './junit.js';
import type { Output } from './output.js';

const REPORTERS = ['default', 'junit'] as const;

function place(r: PromptCaseResult): string {
  if (r.file === undefined) return '';
  return ` (${r.file}${r.line === undefined ? '' : `:${r.line}:${r.column ?? 1}`})`;
}

/** The default report: one block per case that did not pass, then one summary line. */
function writeReport(report: PromptCaseReport, out: Output, updated: number): void {
  const line = (text: string): void => out.stdout(escapeControlCharacters(text));
  for (const r of report.results) {
    if (r.status === 'pass') continue;
    line(`${r.status === 'fail' ? 'FAIL' : 'ERROR'} ${r.prompt} › ${r.case}${place(r)}`);
    for (const f of r.failures) {
      line(`  ${f.message}`);
      const detail = f.diff ?? (f.actual === undefined ? undefined : `actual:\n${f.actual}`);
      if (detail !== undefined) for (const l of detail.split('\n')) line(`    ${l}`);
    }
  }
  if (updated > 0) line(`updated ${updated} snapshot(s)`);
  line(
    `${report.total} case(s): ${report.passed} passed, ${report.failed} failed` +
      (report.errored > 0 ? `, ${report.errored} could not run` : ''),
  );
}

/** Cases whose snapshot to (re)write: a failed `messages` check, or a case with no expectation, that rendered. */
function snapshotUpdates(report: PromptCaseReport, byPlace: ReadonlyMap<string, PromptCase>): SnapshotUpdate[] {
  const updates: SnapshotUpdate[] = [];
  for (const r of report.results) {
    if (!('messages' in r.actual) || r.file === undefined || r.pointer === undefined) continue;
    const c = byPlace.get(`${r.file}\0${r.pointer}`);
    if (c === undefined) continue;
    const e = c.expect;
    const none =
      e.messages === undefined && e.contains === undefined && e.notContains === undefined && e.error === undefined;
    if (none || r.failures.some((f) => f.check === 'messages'))
      updates.push({ file: r.file, pointer: r.pointer, messages: r.actual.messages });
  }
  return updates;
}

/** The report after snapshots were written: those cases pass unless another expectation failed. */
function afterUpdate(report: PromptCaseReport, written: ReadonlySet<string>): PromptCaseReport {
  const results = report.results.map((r): PromptCaseResult => {
    if (!written.has(`${r.file}\0${r.pointer}`)) return r;
    const failures = r.failures.filter((f) => f.check !== 'messages');
    return { ...r, failures, status: failures.length === 0 ? 'pass' : r.status };
  });
  const passed = results.filter((r) => r.status === 'pass').length;
  const failed = results.filter((r) => r.status === 'fail').length;
  return { results, total: results.length, passed, failed, errored: results.length - passed - failed };
}

async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, text);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw new UsageError(`test: cannot write --output ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** `test <dir>`: exit 0 when every case passes, 1 on a failure, 2 on a usage mistake or a directory with errors. */
export async function test(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals: given } = parseCommand('test', args, {
    update: { type: 'boolean' },
    reporter: { type: 'string' },
    output: { type: 'string' },
    filter: { type: 'string' },
    docs: { type: 'string', multiple: true },
  });
  const [dir] = positionals('test', given, ['dir']) as [string];
  const reporter = (values['reporter'] as string | undefined) ?? 'default';
  if (!(REPORTERS as readonly string[]).includes(reporter))
    throw new UsageError(`test: --reporter must be one of ${REPORTERS.join(', ')}, got '${reporter}'`);
  const output = values['output'] as string | undefined;
  if (output !== undefined && reporter !== 'junit') throw new UsageError('test: --output needs --reporter junit');
  if (output === '') throw new UsageError('test: --output needs a file name');
  const filter = values['filter'] as string | undefined;
  const opened = await openDirectory('test', dir, docsRoots('test', values['docs'] as string[] | undefined));
  const errors = opened.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    for (const d of errors) out.stderr(formatDiagnostic(d));
    out.stderr(`mcp-prompt-kit test: ${errors.length} error(s) in ${dir}: fix them (see 'check') before running cases`);
    return 2;
  }
  let report = await runPromptCases(opened.registry, opened.cases, filter === undefined ? {} : { filter });
  let updated = 0;
  let writeFailed = false;
  if (values['update'] === true) {
    const byPlace = new Map<string, PromptCase>();
    for (const s of opened.cases) for (const c of s.cases) byPlace.set(`${c.file ?? s.file}\0${c.pointer}`, c);
    const updates = snapshotUpdates(report, byPlace);
    const writes = await writeCaseSnapshots(
      updates,
      DEFAULT_PROMPT_FILE_LIMITS.maxFileBytes,
      DEFAULT_PROMPT_FILE_LIMITS.maxYamlNodes,
    );
    const done = new Set<string>();
    for (const w of writes) {
      if (w.error !== undefined) {
        writeFailed = true;
        out.stderr(`mcp-prompt-kit test: ${w.file}: ${w.error}`);
        continue;
      }
      updated += w.updated;
      for (const u of updates) if (u.file === w.file) done.add(`${u.file}\0${u.pointer}`);
    }
    report = afterUpdate(report, done);
  }
  if (reporter === 'junit') {
    const xml = junitXml(report);
    if (output === undefined) {
      out.stdout(xml);
    } else {
      await writeAtomically(output, xml);
      writeReport(report, out, updated);
    }
  } else {
    writeReport(report, out, updated);
  }
  if (filter !== undefined && report.total === 0) {
    out.stderr(`mcp-prompt-kit test: no case matches --filter '${filter}'`);
    return 1;
  }
  return report.passed === report.total && !writeFailed ? 0 : 1;
}
