/**
 * The bounds of `completion/complete`, for prompt and resource references alike: client input in, values out.
 *
 * @module
 * @internal
 */
import { PromptError } from '../errors.js';
import { wellFormed } from '../encoding.js';
import { utf8ByteLength } from '../render/limits.js';

/** Values one completion may carry (MCP spec). */
export const MAX_COMPLETION_VALUES = 100;
/** UTF-8 bytes of all completion values together in one answer. */
export const MAX_COMPLETION_BYTES = 64 * 1024;
/** Characters of `argument.value`, and of each name and value in `context.arguments`. */
export const MAX_COMPLETION_INPUT = 10_000;
/** Entries of `context.arguments`. */
export const MAX_COMPLETION_CONTEXT = 100;

/** The result of {@link PromptRegistry.complete}. */
export interface CompletionValues {
  values: string[];
  total: number;
  hasMore: boolean;
}

/** @internal Bounds a completion request's client input: INVALID_PARAMS (-32602) naming the limit. */
export function checkCompletionInput(value: string, given: Readonly<Record<string, unknown>> | undefined): void {
  if (value.length > MAX_COMPLETION_INPUT) {
    throw new PromptError('INVALID_PARAMS', `argument.value exceeds ${MAX_COMPLETION_INPUT} characters`);
  }
  if (given === undefined) return;
  let count = 0;
  for (const key in given) {
    if (++count > MAX_COMPLETION_CONTEXT) {
      throw new PromptError('INVALID_PARAMS', `context.arguments has more than ${MAX_COMPLETION_CONTEXT} entries`);
    }
    const v = given[key];
    if (key.length > MAX_COMPLETION_INPUT || (typeof v === 'string' && v.length > MAX_COMPLETION_INPUT)) {
      throw new PromptError('INVALID_PARAMS', `context.arguments entries exceed ${MAX_COMPLETION_INPUT} characters`);
    }
  }
}

/**
 * @internal The first values within 100 items and 64 KiB, lone surrogates replaced; `hasMore` says when any were left
 * out.
 */
export function boundCompletionValues(all: readonly string[], total: number): CompletionValues {
  const values: string[] = [];
  let bytes = 0;
  for (const v of all) {
    if (values.length === MAX_COMPLETION_VALUES) break;
    bytes += utf8ByteLength(v);
    if (bytes > MAX_COMPLETION_BYTES) break;
    values.push(wellFormed(v));
  }
  return { values, total: Math.max(total, values.length), hasMore: total > values.length };
}
