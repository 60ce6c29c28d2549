/**
 * `pull <dir>`: writes the prompts a label serves as files, one per prompt, so that pushing the directory back
 * changes nothing. Files are written atomically and only when their content differs; a file that is not the prompt's
 * own is never replaced without --force.
 */
import { lstat, mkdir, readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import type { PromptDefinition, TemplatePromptDefinition } from '../definition/types.js';
import { isPromptError } from '../errors.js';
import { isRecord } from '../json.js';
import { formatDiagnostic } from '../fs/diagnostics.js';
import { fileContext } from '../fs/load.js';
import { parsePromptText, promptFileFormat } from '../fs/prompt-file.js';
import type { PromptFileFormat } from '../fs/prompt-file.js';
import { pathsRelativeTo, serializePromptFile, writePromptFile } from '../fs/prompt-file-write.js';
import { UsageError, parseCommand, positionals } from './args.js';
import { openDirectory } from './commands.js';
import { databaseUrl, openDatabase } from './database.js';
import { sameContent, storedFields } from './drift.js';
import type { Output } from './output.js';
import { DATABASE_OPTIONS, databaseOptions, labelOption, readLabel } from './push.js';

interface PulledFile {
  name: string;
  /** The file, under the directory as given. */
  file: string;
  version: number;
}

interface PullReport {
  dir: string;
  database: string;
  table: string;
  label: string;
  /** Files written: `created` for a prompt the directory did not have. */
  written: (PulledFile & { created: boolean })[];
  /** Files whose content already matched (not rewritten). */
  unchanged: PulledFile[];
  /** Prompts not written, and why. */
  refused: (PulledFile & { reason: string })[];
  /** Prompts the directory defines that the label does not serve (left alone). */
  dirOnly: { name: string; file: string }[];
  /** Prompts whose labelled version cannot be served (not written). */
  invalid: { name: string; reason: string }[];
}

/** `--format`: json (default) or yaml, the format of new files. */
function formatOption(value: unknown): PromptFileFormat {
  if (value === undefined || value === 'json' || value === 'yaml') return value ?? 'json';
  throw new UsageError(`pull: --format must be json or yaml, got '${String(value)}'`);
}

/** Whether anything (a file, a directory, a link) is at `path`. */
async function occupied(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** `pull <dir>`: the label's prompts as files in `dir`. */
export async function pull(
  args: readonly string[],
  out: Output,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values, positionals: given } = parseCommand('pull', args, {
    ...DATABASE_OPTIONS,
    format: { type: 'string' },
    force: { type: 'boolean' },
  });
  const [dir] = positionals('pull', given, ['dir']) as [string];
  const label = labelOption('pull', values['label']);
  const format = formatOption(values['format']);
  const url = databaseUrl('pull', values['database'] as string | undefined, env);
  const force = values['force'] === true;
  const json = values['json'] === true;

  const db = await openDatabase('pull', url, databaseOptions('pull', values));
  let read: Awaited<ReturnType<typeof readLabel>>;
  try {
    read = await readLabel(db.store, label);
  } catch (error) {
    out.stderr(`mcp-prompt-kit pull: ${db.shown}: ${db.describe(error)}`);
    await db.close();
    return 3;
  }
  await db.close();
  if (read.tableMissing) {
    out.stderr(`mcp-prompt-kit pull: ${db.shown} has no prompt table ${db.table} (push creates it)`);
    return 1;
  }

  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new UsageError(`pull: cannot create ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const opened = await openDirectory('pull', dir, undefined);
  for (const d of opened.diagnostics) if (d.severity === 'error') out.stderr(formatDiagnostic(d));
  const root = posix.normalize(dir.split('\\').join('/'));
  const relOf = (file: string): string => posix.relative(root, file);
  const loaded = new Map<string, PromptDefinition>(opened.registry.definitions().map((d) => [d.name, d]));
  const brokenOf = new Map<string, string>();
  for (const f of opened.leftOut) if (f.name !== undefined && !brokenOf.has(f.name)) brokenOf.set(f.name, f.file);
  const context = fileContext(dir, {}, 'pull');

  const report: PullReport = {
    dir,
    database: db.shown,
    table: db.table,
    label,
    written: [],
    unchanged: [],
    refused: [],
    dirOnly: [],
    invalid: [...read.invalid].map(([name, reason]) => ({ name, reason })),
  };
  const served = new Set<string>();
  // File names taken, by their lower case: on macOS and Windows (or a clone there) `Greet.json` and `greet.json` are one
  // file, so a name taken in another case is not free (one taken as it is stays the --force question it was).
  const taken = new Map([...opened.sources.values()].map((file) => [relOf(file).toLowerCase(), relOf(file)]));
  const takenInOtherCase = (rel: string): boolean => {
    const found = taken.get(rel.toLowerCase());
    return found !== undefined && found !== rel;
  };
  for (const entry of read.prompts) {
    served.add(entry.name);
    const own = opened.sources.get(entry.name);
    const current = loaded.get(entry.name);
    let rel: string;
    if (own !== undefined && current !== undefined) {
      rel = relOf(own);
      if (sameContent(current as TemplatePromptDefinition, entry.definition)) {
        report.unchanged.push({ name: entry.name, file: own, version: entry.version });
        continue;
      }
    } else {
      const broken = brokenOf.get(entry.name);
      rel = broken === undefined ? `${entry.name}.${format}` : relOf(broken);
      for (let i = 2; broken === undefined && takenInOtherCase(rel); i++) rel = `${entry.name}-${i}.${format}`;
      taken.set(rel.toLowerCase(), rel);
      const file = posix.join(root, rel);
      if (!force && (await occupied(posix.join(dir, rel)))) {
        const reason =
          broken === undefined
            ? `${file} exists and is not this prompt's file: use --force to replace it`
            : `${file} names this prompt but does not load: use --force to replace it`;
        report.refused.push({ name: entry.name, file, version: entry.version, reason });
        continue;
      }
    }
    const file = posix.join(root, rel);
    const fileFormat = promptFileFormat(rel) ?? format;
    // A prompt's own file keeps its example cases: they are the file's, not the stored prompt's.
    const cases = own === undefined ? undefined : await casesOf(rel, posix.join(dir, rel), context);
    const text = serializePromptFile(
      fileFormat,
      pathsRelativeTo(storedFields(entry.definition) as unknown as TemplatePromptDefinition, rel),
      cases,
    );
    try {
      await writePromptFile(context, rel, text, entry.name, (back) =>
        sameContent(back as TemplatePromptDefinition, entry.definition)
          ? undefined
          : `as ${fileFormat.toUpperCase()} it would not read back exactly`,
      );
      report.written.push({ name: entry.name, file, version: entry.version, created: own === undefined });
    } catch (error) {
      report.refused.push({ name: entry.name, file, version: entry.version, reason: writeFailure(error) });
    }
  }
  for (const [name, file] of opened.sources) if (!served.has(name)) report.dirOnly.push({ name, file });
  report.dirOnly.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  printReport(report, out, json);
  return report.refused.length > 0 ? 1 : 0;
}

/** The `cases` value a prompt file holds as written (undefined when it has none or cannot be read). */
async function casesOf(rel: string, path: string, context: ReturnType<typeof fileContext>): Promise<unknown> {
  try {
    return (await parsePromptText(rel, await readFile(path, 'utf8'), context)).rawCases;
  } catch {
    return undefined;
  }
}

/** Why a file was not written: the loader's problems, or the file system's error code. */
function writeFailure(error: unknown): string {
  if (isPromptError(error) && isRecord(error.data) && Array.isArray(error.data['problems'])) {
    const problems = error.data['problems'] as { message: string }[];
    return `not written: ${problems.map((p) => p.message).join('; ')}`;
  }
  const code = (error as NodeJS.ErrnoException).code;
  return `not written (${code ?? (error instanceof Error ? error.message : String(error))})`;
}

function printReport(report: PullReport, out: Output, json: boolean): void {
  if (json) {
    out.json(report);
    return;
  }
  out.stdout(`pull ${report.database} (${report.table}), label ${report.label} -> ${report.dir}`);
  for (const w of report.written) out.stdout(`  ${w.created ? '+' : '~'} ${w.name}: version ${w.version} -> ${w.file}`);
  for (const r of report.refused) out.stdout(`  ! ${r.name}: ${r.reason}`);
  for (const i of report.invalid)
    out.stdout(`  ! ${i.name}: the label points at an invalid version (${i.reason}): not written`);
  for (const d of report.dirOnly) out.stdout(`  - ${d.name}: in ${d.file}, not under ${report.label}: left alone`);
  out.stdout(
    `${report.written.length} written, ${report.unchanged.length} unchanged, ${report.refused.length} refused, ` +
      `${report.dirOnly.length} only in the directory`,
  );
}
