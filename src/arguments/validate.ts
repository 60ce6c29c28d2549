/**
 * The standalone {@link validatePromptArguments}, with a private, bounded cache of validators. Servers with a
 * registry use the registry's own cache instead.
 *
 * @module
 */
import type { PromptArgumentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { RecentValidators } from './cache.js';
import type { ArgumentValidationOptions, ArgumentValidationResult } from './types.js';

/** How many distinct declarations the standalone function keeps compiled. */
export const STANDALONE_CACHE_SIZE = 256;

let recent: RecentValidators | undefined;

/**
 * Validates prompt arguments and returns the arguments to render with (coerced from wire strings, defaulted, in an
 * object that inherits nothing), or the -32602 error: missing required arguments first, then an over-long string,
 * then schema problems. `inputSchema`, when given, wins entirely. The rules and limits are in docs/arguments.md.
 *
 * @example
 * ```ts
 * const result = validatePromptArguments({ code: 'x = 1', limit: '5' }, [
 *   { name: 'code', required: true },
 *   { name: 'limit', type: 'integer', default: 10 },
 * ]);
 * if (result.ok) result.arguments.limit; // 5 (a number)
 * else throw argumentFailureToPromptError(result.error);
 * ```
 */
export function validatePromptArguments(
  provided: unknown,
  promptArguments?: readonly PromptArgumentDefinition[],
  inputSchema?: JsonSchema,
  options?: ArgumentValidationOptions,
): ArgumentValidationResult {
  recent ??= new RecentValidators(STANDALONE_CACHE_SIZE);
  return recent.get(promptArguments, inputSchema, options).validate(provided);
}
