/**
 * Loading a prompt directory: every prompt file under it, sorted, read and checked; the first of a duplicate name wins.
 */
import type { PromptDefinition, SystemRolePolicy } from '../definition/types.js';
import { PromptError } from '../errors.js';
import { integerOption } from '../options.js';
import type { PromptCaseSuite } from '../cases/types.js';
import { isCasesFileName } from './cases.js';
import type { PromptFileDiagnostic } from './diagnostics.js';
import { DEFAULT_PROMPT_FILE_LIMITS, promptFileFormat, readPromptFile } from './prompt-file.js';
import type { ParsedPromptFile, PromptFileContext, PromptFileLimits } from './prompt-file.js';
import { DEFAULT_MAX_WALKED, scanTree } from './scan.js';
import type { ScanResult, ScannedFile } from './scan.js';

/** Options of {@link loadPromptDirectory} (and of the watcher). */
export interface LoadPromptDirectoryOptions {
  /** Limits on files (default {@link DEFAULT_PROMPT_FILE_LIMITS}). */
  limits?: Partial<PromptFileLimits>;
  /** Legacy `role: "system"` messages: rejected (default) or mapped to `user`. */
  systemRole?: SystemRolePolicy;
}

/** Which file a loaded prompt came from. */
export interface PromptFileEntry {
  name: string;
  /** The file, as diagnostics name it (the directory joined with its relative path). */
  file: string;
}

/** The result of {@link loadPromptDirectory}. */
export interface LoadedPromptDirectory {
  /** The valid definitions, in file order (image/audio paths made relative to the directory). */
  definitions: PromptDefinition[];
  /** Which file each definition came from, in the same order. */
  files: PromptFileEntry[];
  /** Every problem found, in file order; files with an error are left out of `definitions`. */
  diagnostics: PromptFileDiagnostic[];
  /**
   * The example cases of the loaded prompts (a file's `cases` and `<base>.cases.yaml`/`.json` beside it), in file
   * order; never part of the definitions.
   */
  cases: PromptCaseSuite[];
}

/** @internal The options with defaults applied; `owner` (the public function) is named when a limit is refused. */
export function fileContext(dir: string, options: LoadPromptDirectoryOptions, owner: string): PromptFileContext {
  const limits = { ...DEFAULT_PROMPT_FILE_LIMITS };
  const given: Partial<PromptFileLimits> = options.limits ?? {};
  for (const key of Object.keys(limits) as (keyof PromptFileLimits)[]) {
    limits[key] = integerOption(owner, `limits.${key}`, given[key], {
      min: 0,
      default: DEFAULT_PROMPT_FILE_LIMITS[key],
    });
  }
  return { dir, limits, systemRole: options.systemRole };
}

/** @internal Walks a prompt directory; a missing directory is a PromptError naming it. */
export async function scanPromptDirectory(context: PromptFileContext): Promise<ScanResult> {
  const casesNames = new Set<string>();
  try {
    const scan = await scanTree(context.dir, {
      acceptFile: (name) => {
        if (!isCasesFileName(name)) return promptFileFormat(name) !== undefined;
        casesNames.add(name);
        return false;
      },
      maxFiles: context.limits.maxFiles,
    });
    // Reading the prompt files then looks only for the cases files the walk saw (a complete walk only).
    if (!scan.walkedOut) context.casesNames = casesNames;
    return scan;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'ENOTDIR'
          ? 'is not a directory'
          : `cannot be read (${code ?? 'error'})`;
    throw new PromptError('INVALID_PROMPT_DEFINITION', `prompt directory ${context.dir} ${why}`, { cause: error });
  }
}

/** @internal Reads files with bounded concurrency, keeping their order. */
export async function readPromptFiles(
  files: readonly ScannedFile[],
  context: PromptFileContext,
): Promise<ParsedPromptFile[]> {
  const out = new Array<ParsedPromptFile>(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++;
      out[i] = await readPromptFile(files[i]!, context);
    }
  };
  await Promise.all(Array.from({ length: Math.min(32, files.length) }, worker));
  return out;
}

/** @internal The diagnostic for files left out because there were too many. */
export function truncatedDiagnostic(context: PromptFileContext): PromptFileDiagnostic {
  return {
    file: context.dir,
    message: `more than ${context.limits.maxFiles} prompt files (or directories nested deeper than 16 levels, or more than ${DEFAULT_MAX_WALKED} entries to walk): the rest were skipped`,
    severity: 'error',
  };
}

/**
 * @internal One definition per name: the first file in sort order wins; later ones get a diagnostic naming both files.
 */
export function pickUnique(
  parsed: readonly { file: string; definition?: PromptDefinition; locate?: ParsedPromptFile['locate'] }[],
): {
  winners: Map<string, { file: string; definition: PromptDefinition }>;
  diagnostics: PromptFileDiagnostic[];
} {
  const winners = new Map<string, { file: string; definition: PromptDefinition }>();
  const diagnostics: PromptFileDiagnostic[] = [];
  for (const p of parsed) {
    if (p.definition === undefined) continue;
    const first = winners.get(p.definition.name);
    if (first === undefined) {
      winners.set(p.definition.name, { file: p.file, definition: p.definition });
      continue;
    }
    const at = p.locate?.('/name');
    diagnostics.push({
      file: p.file,
      ...(at === undefined ? {} : { line: at.line, column: at.column }),
      pointer: '/name',
      message: `duplicate prompt name '${p.definition.name}': already defined in ${first.file} (that one is used)`,
      severity: 'error',
    });
  }
  return { winners, diagnostics };
}

/** @internal The case suites of the files that won their prompt's name, in file order. */
export function servedCases(
  parsed: readonly ParsedPromptFile[],
  winners: ReadonlyMap<string, { file: string }>,
): PromptCaseSuite[] {
  const out: PromptCaseSuite[] = [];
  for (const p of parsed) {
    if (p.cases === undefined || p.definition === undefined) continue;
    if (winners.get(p.definition.name)?.file === p.file) out.push(p.cases);
  }
  return out;
}

/**
 * Loads every prompt file under `dir`: `.json` (the published definition schema), `.yaml`/`.yml` (the same fields)
 * and `.md` (YAML front matter; the body is one user message). Recursive and sorted by path; hidden files and
 * editor backups are ignored. A missing directory throws (a PromptError naming it); a bad file is skipped with
 * diagnostics (`file`, `line`, `column`, `pointer`, `message`); a name defined twice keeps the first file in sort
 * order. Templates are compiled when the definitions are registered.
 *
 * @example
 * ```ts
 * const { definitions, diagnostics } = await loadPromptDirectory('prompts');
 * for (const d of diagnostics) console.error(formatDiagnostic(d));
 * registry.add(definitions);
 * ```
 */
export async function loadPromptDirectory(
  dir: string,
  options: LoadPromptDirectoryOptions = {},
): Promise<LoadedPromptDirectory> {
  const context = fileContext(dir, options, 'loadPromptDirectory');
  const scan = await scanPromptDirectory(context);
  const parsed = await readPromptFiles(scan.files, context);
  const diagnostics: PromptFileDiagnostic[] = [];
  for (const p of parsed) diagnostics.push(...p.diagnostics);
  const { winners, diagnostics: duplicates } = pickUnique(parsed);
  diagnostics.push(...duplicates);
  if (scan.truncated) diagnostics.push(truncatedDiagnostic(context));
  diagnostics.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0)));
  const definitions: PromptDefinition[] = [];
  const files: PromptFileEntry[] = [];
  for (const [name, winner] of winners) {
    definitions.push(winner.definition);
    files.push({ name, file: winner.file });
  }
  return { definitions, files, diagnostics, cases: servedCases(parsed, winners) };
}

/** The result of {@link loadPromptCases}. */
export interface LoadedPromptCases {
  /** The cases of each loaded prompt that has any, in file order. */
  suites: PromptCaseSuite[];
  /** Every problem of the directory, those of cases included (`/cases/1/arguments/x` with its line). */
  diagnostics: PromptFileDiagnostic[];
}

/**
 * Reads the example cases of every prompt under `dir`: a prompt file's `cases`, and `<base>.cases.yaml` (`.yml`,
 * `.json`) beside it. Run them with `runPromptCases` against a registry serving the same directory.
 *
 * @example
 * ```ts
 * const { suites, diagnostics } = await loadPromptCases('prompts');
 * const report = await runPromptCases(registry, suites);
 * ```
 */
export async function loadPromptCases(
  dir: string,
  options: LoadPromptDirectoryOptions = {},
): Promise<LoadedPromptCases> {
  const loaded = await loadPromptDirectory(dir, options);
  return { suites: loaded.cases, diagnostics: loaded.diagnostics };
}
