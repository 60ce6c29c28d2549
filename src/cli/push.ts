/**
 * `push <dir>`: publishes a prompt directory to a label of the PostgreSQL store in one transaction, writing a new
 * version only for what changed, and prints the drift between the two.
 */
import type { TemplatePromptDefinition } from '../definition/types.js';
import { formatDiagnostic } from '../fs/diagnostics.js';
import type { StoredPrompt } from '../stores/contract.js';
import { storableDefinition } from '../stores/definition.js';
import type { PostgresPromptStore } from '../stores/postgres/store.js';
import { LATEST, checkLabel } from '../stores/postgres/schema.js';
import { UsageError, integerOption, parseCommand, positionals } from './args.js';
import { openDirectory } from './commands.js';
import { databaseUrl, isMissingTable, openDatabase } from './database.js';
import type { OpenedDatabase } from './database.js';
import { planPush, sameContent } from './drift.js';
import type { PlannedPrompt, PushPlan, StoreOnlyPrompt, StoreState } from './drift.js';
import type { Output } from './output.js';

/** Options shared by `push` and `pull`. */
export const DATABASE_OPTIONS = {
  database: { type: 'string' },
  label: { type: 'string' },
  table: { type: 'string' },
  schema: { type: 'string' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
} as const;

/** The database options of a command, checked. */
export function databaseOptions(
  command: string,
  values: Record<string, unknown>,
): { table: string | undefined; schema: string | undefined; timeoutMs: number | undefined } {
  return {
    table: values['table'] as string | undefined,
    schema: values['schema'] as string | undefined,
    timeoutMs: integerOption(command, 'timeout', values['timeout'] as string | undefined, 1, 3_600_000),
  };
}

/** The label option, checked (default production). */
export function labelOption(command: string, value: unknown): string {
  try {
    return checkLabel(value ?? 'production', '--label');
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
}

/** What the label serves now (an absent table serves nothing). */
export async function readLabel(
  store: PostgresPromptStore,
  label: string,
): Promise<{ prompts: StoredPrompt[]; invalid: Map<string, string>; tableMissing: boolean }> {
  const invalid = new Map<string, string>();
  try {
    const prompts = await store.list({ label, onInvalid: (name, reason) => invalid.set(name, reason) });
    return { prompts, invalid, tableMissing: false };
  } catch (error) {
    if (isMissingTable(error)) return { prompts: [], invalid, tableMissing: true };
    throw error;
  }
}

/** The result of one push. */
interface PushReport {
  dir: string;
  database: string;
  table: string;
  label: string;
  dryRun: boolean;
  /** Whether the writes were committed (false for a dry run or a failure). */
  applied: boolean;
  /** The tables did not exist (a dry run) or were created by this push. */
  createdTables: boolean;
  added: ReportedPrompt[];
  changed: ReportedPrompt[];
  unchanged: { name: string; version: number }[];
  storeOnly: (StoreOnlyPrompt & { pruned: boolean })[];
  /** New versions written (or, in a dry run, that would be). */
  versionsWritten: number;
  error?: string;
}

interface ReportedPrompt {
  name: string;
  from: number | null;
  /** The version the label points at after the push (null in a dry run that writes a new one). */
  to: number | null;
  newVersion: boolean;
  fields: string[];
}

/** `push <dir>`: the directory's prompts as the label's, new versions only for what changed. */
export async function push(
  args: readonly string[],
  out: Output,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values, positionals: given } = parseCommand('push', args, {
    ...DATABASE_OPTIONS,
    'dry-run': { type: 'boolean' },
    prune: { type: 'boolean' },
    actor: { type: 'string' },
  });
  const [dir] = positionals('push', given, ['dir']) as [string];
  const label = labelOption('push', values['label']);
  if (label === LATEST)
    throw new UsageError(
      `push: --label latest always points to the newest version: push to a label (production, staging, ...)`,
    );
  const url = databaseUrl('push', values['database'] as string | undefined, env);
  const dryRun = values['dry-run'] === true;
  const prune = values['prune'] === true;
  const actor = values['actor'] as string | undefined;
  const json = values['json'] === true;

  const opened = await openDirectory('push', dir, undefined);
  const errors = opened.diagnostics.filter((d) => d.severity === 'error');
  for (const d of opened.diagnostics) out.stderr(formatDiagnostic(d));
  if (errors.length > 0) {
    out.stderr(`mcp-prompt-kit push: ${errors.length} error(s) in ${dir}: nothing written`);
    return 1;
  }
  const definitions = opened.registry.definitions().map((d) => storableDefinition(d));

  const db = await openDatabase('push', url, databaseOptions('push', values));
  const report: PushReport = {
    dir,
    database: db.shown,
    table: db.table,
    label,
    dryRun,
    applied: false,
    createdTables: false,
    added: [],
    changed: [],
    unchanged: [],
    storeOnly: [],
    versionsWritten: 0,
  };
  let plan: PushPlan | undefined;
  try {
    if (!dryRun) report.createdTables = (await db.store.migrate()).createdTable;
    const read = await readLabel(db.store, label);
    if (dryRun) report.createdTables = read.tableMissing;
    const latest = read.tableMissing ? [] : await db.store.list({ label: LATEST });
    const state: StoreState = { labelled: read.prompts, invalid: read.invalid, latest };
    plan = planPush(definitions, state);
    fillPlanned(report, plan, prune);
    if (!dryRun && hasWrites(plan, prune)) {
      await apply(db.store, label, plan, prune, actor, report);
    }
    report.applied = !dryRun;
  } catch (error) {
    report.error = `${db.shown}: ${db.describe(error)}`;
    if (plan !== undefined && !dryRun) await verify(db, label, plan, prune, report);
    if (plan !== undefined || json) printReport(report, out, json);
    await db.close();
    out.stderr(`mcp-prompt-kit push: ${report.error}`);
    return 3;
  }
  await db.close();
  printReport(report, out, json);
  return 0;
}

function hasWrites(plan: PushPlan, prune: boolean): boolean {
  return plan.prompts.some((p) => p.status !== 'unchanged') || (prune && plan.storeOnly.length > 0);
}

/** The report of a plan before it is applied. */
function fillPlanned(report: PushReport, plan: PushPlan, prune: boolean): void {
  for (const p of plan.prompts) {
    if (p.status === 'unchanged') {
      report.unchanged.push({ name: p.name, version: p.version });
      continue;
    }
    const newVersion = p.action.kind === 'put';
    const entry: ReportedPrompt = {
      name: p.name,
      from: p.from,
      to: p.action.kind === 'label' ? p.action.version : null,
      newVersion,
      fields: p.fields,
    };
    if (newVersion) report.versionsWritten++;
    (p.status === 'added' ? report.added : report.changed).push(entry);
  }
  for (const s of plan.storeOnly) report.storeOnly.push({ ...s, pruned: prune });
}

/** Applies the plan in one transaction; fills in the versions written. */
async function apply(
  store: PostgresPromptStore,
  label: string,
  plan: PushPlan,
  prune: boolean,
  actor: string | undefined,
  report: PushReport,
): Promise<void> {
  const versions = new Map<string, number>();
  await store.transaction(
    async (tx) => {
      for (const p of plan.prompts) {
        if (p.status === 'unchanged') continue;
        const version =
          p.action.kind === 'label' ? p.action.version : (await tx.put(p.definition, { labels: [] })).version;
        versions.set(p.name, version);
        await tx.setLabel(p.name, label, version);
      }
      if (prune) for (const s of plan.storeOnly) await tx.deleteLabel(s.name, label);
    },
    actor === undefined ? {} : { actor },
  );
  for (const entry of [...report.added, ...report.changed]) entry.to = versions.get(entry.name) ?? entry.to;
}

/**
 * After a failure: reads the label again (on a new connection) to say what is in place. The writes are one
 * transaction, so either all are or none is; a commit whose answer was lost is the case this tells apart.
 */
async function verify(
  db: OpenedDatabase,
  label: string,
  plan: PushPlan,
  prune: boolean,
  report: PushReport,
): Promise<void> {
  let serving: Map<string, TemplatePromptDefinition>;
  try {
    const read = await readLabel(db.store, label);
    serving = new Map(read.prompts.map((p) => [p.name, p.definition]));
  } catch (error) {
    report.error = `${report.error ?? ''}; could not read the label again to check what was applied (${db.describe(error)}): run push again, it converges`;
    return;
  }
  const pending = plan.prompts.filter(
    (p): p is Exclude<PlannedPrompt, { status: 'unchanged' }> => p.status !== 'unchanged',
  );
  const inPlace = pending.filter((p) => {
    const now = serving.get(p.name);
    return now !== undefined && sameContent(now, p.definition);
  }).length;
  const pruned = prune ? plan.storeOnly.filter((s) => !serving.has(s.name)).length : 0;
  const total = pending.length + (prune ? plan.storeOnly.length : 0);
  const done = inPlace + pruned;
  report.applied = total > 0 && done === total;
  report.error = `${report.error ?? ''}; ${
    done === 0
      ? 'nothing was applied (the transaction rolled back)'
      : done === total
        ? 'every change is in place (the commit went through)'
        : `${done} of ${total} change(s) are in place (another writer changed the label meanwhile)`
  }: run push again, it converges`;
}

function printReport(report: PushReport, out: Output, json: boolean): void {
  if (json) {
    out.json(report);
    return;
  }
  const would = report.dryRun ? 'would ' : '';
  out.stdout(
    `push ${report.dir} -> ${report.database} (${report.table}), label ${report.label}${report.dryRun ? ' (dry run: nothing written)' : ''}`,
  );
  if (report.createdTables)
    out.stdout(
      report.dryRun ? '  the prompt tables do not exist yet: push creates them' : '  created the prompt tables',
    );
  const target = (p: ReportedPrompt): string =>
    p.newVersion
      ? p.to === null
        ? `${would}write a new version`
        : `new version ${p.to}`
      : `${would}move the label to existing version ${p.to}`;
  for (const p of report.added) out.stdout(`  + ${p.name}: in the directory, not under ${report.label}: ${target(p)}`);
  for (const p of report.changed)
    out.stdout(`  ~ ${p.name}: version ${p.from ?? 'invalid'}: ${p.fields.join('; ')}: ${target(p)}`);
  for (const s of report.storeOnly) {
    const what = s.invalid === undefined ? `version ${s.version}` : `an invalid version (${s.invalid})`;
    const done = s.pruned ? `${would}remove the label (versions kept)` : 'kept (--prune removes it from the label)';
    out.stdout(`  - ${s.name}: under ${report.label} (${what}), not in the directory: ${done}`);
  }
  out.stdout(
    `${report.added.length} added, ${report.changed.length} changed, ${report.unchanged.length} unchanged, ` +
      `${report.storeOnly.length} only in the store${report.storeOnly.some((s) => s.pruned) ? ` (${would}prune)` : ''}; ` +
      `${report.versionsWritten} new version(s) ${report.dryRun ? 'to write' : report.applied ? 'written' : 'not written'}`,
  );
}
