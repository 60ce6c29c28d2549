/** An integration's prompt listing read page by page into a bounded, normalized map (what the tool keeps). */
import { detachedCopy } from '../encoding.js';
import { isRecord } from '../json.js';
import { RetrievalError } from './failure.js';

/** One argument as listed. */
export interface ListedArgument {
  readonly name: string;
  readonly required: boolean;
}

/** One prompt as listed, normalized and bounded. */
export interface ListedPrompt {
  readonly name: string;
  readonly description: string | undefined;
  /** The first {@link MAX_LISTED_ARGUMENTS} usable arguments. */
  readonly arguments: readonly ListedArgument[];
  /** Arguments listed but not kept (past the count, or with an unusable name). */
  readonly moreArguments: number;
}

/** What one listing found. */
export interface Listing {
  readonly prompts: ReadonlyMap<string, ListedPrompt>;
  /** False when the listing stopped at a bound: a name not in `prompts` may still exist. */
  readonly complete: boolean;
  /** Entries without a usable name (not a string, empty, or longer than {@link MAX_PROMPT_NAME}). */
  readonly unusable: number;
}

/** Most prompts kept per integration. */
export const MAX_LISTED_PROMPTS = 1000;
/** Most pages followed per listing. */
export const MAX_LIST_PAGES = 100;
/** Most arguments kept per prompt. */
export const MAX_LISTED_ARGUMENTS = 50;
/** Longest prompt name kept (also the longest the tool sends). */
export const MAX_PROMPT_NAME = 1000;
/** Longest argument name kept. */
const MAX_ARGUMENT_NAME = 200;
/** Longest description kept (the tool description shows less). */
const MAX_KEPT_DESCRIPTION = 1000;
/** Longest cursor sent back. */
const MAX_CURSOR = 4096;

/** One page of `prompts/list`. */
export type ListPage = (cursor: string | undefined) => Promise<unknown>;

/** Reads every page (within the bounds); throws a RetrievalError for an answer that is not a prompt list. */
export async function readListing(page: ListPage): Promise<Listing> {
  const prompts = new Map<string, ListedPrompt>();
  let unusable = 0;
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_LIST_PAGES; pages++) {
    const result = await page(cursor);
    const entries = isRecord(result) ? result['prompts'] : undefined;
    if (!Array.isArray(entries))
      throw new RetrievalError(
        'the integration answered prompts/list with something that is not a prompt list',
        'INVALID_RESULT',
      );
    const n = entries.length;
    for (let i = 0; i < n; i++) {
      if (prompts.size >= MAX_LISTED_PROMPTS) return { prompts, complete: false, unusable };
      const prompt = listedPrompt(entries[i]);
      if (prompt === undefined) unusable++;
      else prompts.set(prompt.name, prompt);
    }
    const next = isRecord(result) ? result['nextCursor'] : undefined;
    if (typeof next !== 'string' || next === '') return { prompts, complete: true, unusable };
    if (next.length > MAX_CURSOR) return { prompts, complete: false, unusable };
    cursor = next;
  }
  return { prompts, complete: false, unusable };
}

function listedPrompt(entry: unknown): ListedPrompt | undefined {
  if (!isRecord(entry)) return undefined;
  const name = entry['name'];
  if (typeof name !== 'string' || name === '' || name.length > MAX_PROMPT_NAME) return undefined;
  const description = entry['description'];
  const args: ListedArgument[] = [];
  let moreArguments = 0;
  const listed = entry['arguments'];
  if (Array.isArray(listed)) {
    const n = listed.length;
    for (let i = 0; i < n; i++) {
      if (args.length >= MAX_LISTED_ARGUMENTS) {
        moreArguments += n - i;
        break;
      }
      const arg: unknown = listed[i];
      const argName = isRecord(arg) ? arg['name'] : undefined;
      if (typeof argName === 'string' && argName !== '' && argName.length <= MAX_ARGUMENT_NAME) {
        args.push({ name: argName, required: (arg as Record<string, unknown>)['required'] === true });
      } else {
        moreArguments++;
      }
    }
  }
  return {
    name,
    description:
      typeof description === 'string' && description !== ''
        ? detachedCopy(description.slice(0, MAX_KEPT_DESCRIPTION))
        : undefined,
    arguments: args,
    moreArguments,
  };
}
