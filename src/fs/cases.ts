/**
 * Example cases of prompt files: a prompt file's own `cases`, and `<base>.cases.yaml` / `.cases.yml` / `.cases.json`
 * beside it, read with the prompt file's limits and checked against the arguments its prompt declares.
 */
import { dirname, join, posix } from 'node:path';
import { DEFAULT_MAX_CASES, declaredArgumentNames, parsePromptCases } from '../cases/parse.js';
import type { PromptCase } from '../cases/types.js';
import type { PromptDefinition } from '../definition/types.js';
import { isRecord } from '../json.js';
import type { PromptFileDiagnostic, SourcePosition } from './diagnostics.js';
import { parseJsonSource } from './json-source.js';
import { openForReading, readStable } from './open-file.js';
import { parseYamlSource } from './yaml-source.js';

/** The prompt file limits a cases file is read with (the prompt file's own). */
type CasesFileLimits = { readonly maxFileBytes: number; readonly maxYamlNodes: number };

/** A cases file's name: `<base>.cases.yaml`, `.cases.yml` or `.cases.json` (not a prompt file). */
const CASES_FILE = /\.cases\.(?:ya?ml|json)$/i;

/** The endings of a cases file, in the order they are read. */
const CASES_ENDINGS = ['.cases.json', '.cases.yaml', '.cases.yml'] as const;

/**
 * Whether a file name is a cases file beside a prompt (`review.cases.yaml`), which is never read as a prompt file.
 *
 * @example
 * ```ts
 * isCasesFileName('review.cases.yaml'); // true
 * ```
 */
export function isCasesFileName(name: string): boolean {
  return CASES_FILE.test(name);
}

type Locate = (pointer: string) => SourcePosition | undefined;

/** @internal The inline cases of a prompt file, as written (the `cases` key is taken out of the definition). */
export interface InlineCases {
  value: unknown;
  locate: Locate;
}

/** @internal The cases found for one prompt file, and the problems with them. */
export interface ReadCases {
  cases: PromptCase[];
  diagnostics: PromptFileDiagnostic[];
}

function problemDiagnostics(
  file: string,
  problems: readonly { path: string; message: string }[],
  locate: Locate | undefined,
): PromptFileDiagnostic[] {
  return problems.map((p) => {
    const d: PromptFileDiagnostic = { file, message: p.message, severity: 'error', pointer: p.path };
    let place: SourcePosition | undefined;
    for (let at = p.path; locate !== undefined; at = at.slice(0, at.lastIndexOf('/'))) {
      place = locate(at);
      if (place !== undefined || at === '') break;
    }
    if (place !== undefined) {
      d.line = place.line;
      d.column = place.column;
    }
    return d;
  });
}

/** One cases file beside a prompt file, when there is one: its list (and where it starts) or its problem. */
async function readCasesFile(
  path: string,
  file: string,
  limits: CasesFileLimits,
): Promise<{ value: unknown; path: string; locate: Locate } | PromptFileDiagnostic | undefined> {
  let handle: Awaited<ReturnType<typeof openForReading>>;
  try {
    handle = await openForReading(path, true);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { file, message: `cannot read the cases file (${code ?? 'error'})`, severity: 'error' };
  }
  let text: string;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { file, message: 'a cases file must be a regular file', severity: 'error' };
    const read = await readStable(handle, limits.maxFileBytes, stats);
    if (!read.ok) {
      const message =
        read.reason === 'too-large'
          ? `file is ${read.size} bytes, over the ${limits.maxFileBytes}-byte limit for a prompt file`
          : 'the file kept changing while it was read (a write in progress): not read this time';
      return { file, message, severity: 'error' };
    }
    text = read.bytes.toString('utf8');
  } finally {
    await handle.close().catch(() => undefined);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const source = /\.json$/i.test(path) ? parseJsonSource(text) : parseYamlSource(text, 0, limits.maxYamlNodes);
  if (!('value' in source))
    return { file, message: source.message, line: source.line, column: source.column, severity: 'error' };
  // A bare list of cases, or a mapping with `cases` (and `$schema` for editors).
  if (isRecord(source.value)) {
    const extra = Object.keys(source.value).filter((k) => k !== 'cases' && k !== '$schema');
    if (extra.length > 0 || !Object.hasOwn(source.value, 'cases')) {
      const at = extra.length > 0 ? source.locate(`/${extra[0]}`) : undefined;
      return {
        file,
        message:
          extra.length > 0
            ? `unknown property '${extra[0]}' in a cases file (it holds 'cases', or is a list of cases)`
            : "a cases file is a list of cases, or a mapping with 'cases'",
        ...(at === undefined ? {} : { line: at.line, column: at.column }),
        severity: 'error',
      };
    }
    return { value: source.value['cases'], path: '/cases', locate: source.locate };
  }
  return { value: source.value, path: '', locate: source.locate };
}

/** The names of the cases files that may stand beside a prompt file (only names in `seen`, when given). */
function casesNamesBeside(promptFile: string, seen: ReadonlySet<string> | undefined): string[] {
  const base = posix.basename(promptFile.split('\\').join('/')).replace(/\.[^.]*$/, '');
  // A scan that saw no such name anywhere spares the open that would fail.
  return CASES_ENDINGS.map((ending) => `${base}${ending}`).filter((name) => seen === undefined || seen.has(name));
}

/** @internal The paths of the cases files that may stand beside a prompt file (only names in `seen`, when given). */
export function casesFilesBeside(promptPath: string, seen?: ReadonlySet<string>): string[] {
  return casesNamesBeside(promptPath, seen).map((name) => join(dirname(promptPath), name));
}

/**
 * @internal The cases of one prompt file: its inline `cases` and its cases files, checked against the arguments
 * `definition` declares (not checked when the definition did not load). At most `DEFAULT_MAX_CASES` in all.
 */
export async function readCases(
  promptPath: string,
  promptFile: string,
  inline: InlineCases | undefined,
  definition: PromptDefinition | undefined,
  limits: CasesFileLimits,
  seen?: ReadonlySet<string>,
): Promise<ReadCases> {
  const diagnostics: PromptFileDiagnostic[] = [];
  const cases: PromptCase[] = [];
  const declared = definition === undefined ? undefined : declaredArgumentNames(definition);
  const taken = new Map<string, string>();
  const sources: { file: string; value: unknown; path: string; locate: Locate }[] = [];
  if (inline !== undefined)
    sources.push({ file: promptFile, value: inline.value, path: '/cases', locate: inline.locate });
  for (const name of casesNamesBeside(promptFile, seen)) {
    const file = posix.join(posix.dirname(promptFile), name);
    const read = await readCasesFile(join(dirname(promptPath), name), file, limits);
    if (read === undefined) continue;
    if ('message' in read) diagnostics.push(read);
    else sources.push({ file, ...read });
  }
  for (const s of sources) {
    const parsed = parsePromptCases(s.value, {
      path: s.path,
      ...(declared === undefined ? {} : { declaredArguments: declared }),
      maxCases: DEFAULT_MAX_CASES - cases.length,
      takenNames: taken,
      file: s.file,
      locate: s.locate,
    });
    cases.push(...parsed.cases);
    diagnostics.push(...problemDiagnostics(s.file, parsed.problems, s.locate));
  }
  return { cases, diagnostics };
}
