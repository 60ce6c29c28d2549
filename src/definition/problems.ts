/**
 * Definition problems: JSON pointers, readable summaries and the `INVALID_PROMPT_DEFINITION` error.
 *
 * @module
 */
import { PromptError } from '../errors.js';
import type { DefinitionProblem, InvalidDefinitionData } from './types.js';

/** At most this many problems are written into an error's message. */
export const MAX_LISTED_PROBLEMS = 50;

/** At most this many problems are located and carried in `data.problems`; one last entry counts the rest. */
export const MAX_CARRIED_PROBLEMS = 100;

/** Finds the 1-based line/column of a JSON pointer in the source text. */
export type LocatePointer = (pointer: string) => { line: number; column: number } | undefined;

/** Options of {@link createDefinitionError}. */
export interface DefinitionErrorOptions {
  /** Where the definition came from (a file path, a URL, a database key); heads the message. */
  source?: string;
  /** The prompt's name, shown when there is no source. */
  name?: string;
  /** Fills in `line`/`column` of problems that lack them (the nearest locatable ancestor pointer is used). */
  locate?: LocatePointer;
}

function parentPointer(pointer: string): string | undefined {
  if (pointer === '') return undefined;
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

function locateProblem(problem: DefinitionProblem, locate: LocatePointer | undefined): DefinitionProblem {
  if (locate === undefined || problem.line !== undefined) return { ...problem };
  for (let p: string | undefined = problem.path; p !== undefined; p = parentPointer(p)) {
    const at = locate(p);
    if (at !== undefined) return { ...problem, line: at.line, column: at.column };
  }
  return { ...problem };
}

function formatProblem(problem: DefinitionProblem): string {
  const where = problem.path === '' ? '(root)' : problem.path;
  const at = problem.line === undefined ? '' : ` (line ${problem.line}, column ${problem.column ?? 1})`;
  return `  ${where}: ${problem.message}${at}`;
}

/**
 * The readable multi-line summary of definition problems: a heading (the source, or the prompt's name), then one
 * line per problem (at most {@link MAX_LISTED_PROBLEMS}, then "and N more").
 */
export function formatDefinitionProblems(
  problems: readonly DefinitionProblem[],
  options: Pick<DefinitionErrorOptions, 'source' | 'name'> = {},
): string {
  const head =
    options.source !== undefined
      ? `${options.source}: invalid prompt definition`
      : options.name !== undefined
        ? `invalid prompt definition '${options.name}'`
        : 'invalid prompt definition';
  const lines = problems.slice(0, MAX_LISTED_PROBLEMS).map(formatProblem);
  const rest = problems.length - MAX_LISTED_PROBLEMS;
  if (rest > 0) lines.push(`  and ${rest} more problem${rest === 1 ? '' : 's'}`);
  return [head, ...lines].join('\n');
}

/**
 * Builds the `INVALID_PROMPT_DEFINITION` {@link PromptError} for a list of problems: a readable message and
 * `data: {source?, problems}` (the first {@link MAX_CARRIED_PROBLEMS} problems, with line/column when `locate` finds
 * them, and one entry counting the rest). Use it for any load-time
 * definition problem (template syntax, file syntax) so every such error has the same shape.
 */
export function createDefinitionError(
  problems: readonly DefinitionProblem[],
  options: DefinitionErrorOptions = {},
): PromptError {
  const located = problems.slice(0, MAX_CARRIED_PROBLEMS).map((p) => locateProblem(p, options.locate));
  const rest = problems.length - located.length;
  if (rest > 0) located.push({ path: '', message: `${rest} more problem${rest === 1 ? '' : 's'} not shown` });
  const data: InvalidDefinitionData =
    options.source === undefined ? { problems: located } : { source: options.source, problems: located };
  return new PromptError('INVALID_PROMPT_DEFINITION', formatDefinitionProblems(located, options), { data });
}
