/**
 * The standalone {@link validatePromptArguments}: a private, bounded (LRU) cache of validators keyed by the
 * canonical form of what it is given. Servers with a registry use {@link ArgumentValidatorCache} instead.
 *
 * @module
 */
import type { PromptArgumentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { ArgumentValidatorCache } from './cache.js';
import { canonicalJson } from './canonical.js';
import type { StoreStats } from './schema-store.js';
import type { ArgumentValidationOptions, ArgumentValidationResult, CompiledArgumentValidator } from './types.js';

/** How many distinct declarations the standalone function keeps compiled. */
const LRU_SIZE = 256;

let cache: ArgumentValidatorCache | undefined;
const recent = new Map<string, CompiledArgumentValidator>();

function validatorFor(
  promptArguments: readonly PromptArgumentDefinition[] | undefined,
  inputSchema: JsonSchema | undefined,
  options: ArgumentValidationOptions | undefined,
): CompiledArgumentValidator {
  let key: string;
  try {
    key = canonicalJson([
      promptArguments ?? null,
      inputSchema ?? null,
      options?.maxLength ?? null,
      options?.extraArguments ?? null,
      options?.maxDepth ?? null,
      options?.maxItems ?? null,
      options?.maxBytes ?? null,
    ]);
  } catch {
    // Too deep (or cyclic) to key: not cached; the validator reports where.
    return (cache ??= new ArgumentValidatorCache()).compile(promptArguments, inputSchema, options);
  }
  const hit = recent.get(key);
  if (hit !== undefined) {
    recent.delete(key);
    recent.set(key, hit);
    return hit;
  }
  cache ??= new ArgumentValidatorCache();
  const validator = cache.compile(promptArguments, inputSchema, options);
  recent.set(key, validator);
  if (recent.size > LRU_SIZE) {
    const oldest = recent.keys().next();
    if (oldest.done !== true) {
      recent.get(oldest.value)?.release();
      recent.delete(oldest.value);
    }
  }
  return validator;
}

/**
 * @internal For tests (not exported from the package): the ajv statistics of the standalone function's cache, or
 * undefined before its first use.
 *
 * @example
 * ```ts
 * validatePromptArguments({ n: '1' }, [{ name: 'n', type: 'integer' }]);
 * standaloneStoreStats()?.pinned; // 1
 * ```
 */
export function standaloneStoreStats(): StoreStats | undefined {
  return cache?.storeStats();
}

/**
 * Validates prompt arguments (the seed 003 contract) and returns the arguments to render with, or the -32602 error.
 *
 * - `provided` omitted or null = `{}`; anything else that is not a plain object (array, string, number) throws
 *   PromptError `INVALID_PARAMS` ("arguments must be an object").
 * - Missing required arguments first (`missing_arguments` in declaration order; `required` undefined = optional; an
 *   empty string counts as given; `null` counts as omitted), then the first string over its length limit (default
 *   10,000 code points for every string argument, extras included; a declared `maxLength` wins), then schema
 *   problems (`details: [{argument, keyword, message}]`).
 * - Strings are coerced to the declared type (numbers, integers, booleans, JSON arrays/objects; a number only when
 *   finite: `1e400` stays text); a number or boolean given for a string argument becomes its string form. Without
 *   a literal `type`, the type is inferred from `enum`/`const` values (all integers -> integer, all numbers ->
 *   number, all booleans -> boolean, all strings -> string; a mix: the literal string if allowed, else the allowed
 *   number or boolean its text spells) and, in an inputSchema, from a local `$ref` target or from `allOf` (what
 *   every typed branch allows) and `anyOf`/`oneOf` branches (the text is kept when a branch allows it as a string,
 *   else it becomes the number, boolean, or JSON array/object some branch allows).
 * - A per-argument declaration with no `type` and no `enum` is a plain MCP argument: a string (numbers and booleans
 *   become their string form; an array or object is a `type` error). inputSchema properties without a type accept
 *   what their schema accepts.
 * - Defaults are applied (also for `null` values).
 * - `inputSchema`, when given, wins entirely (its `required`, property types, defaults, maxLength, and a root
 *   `additionalProperties`/`unevaluatedProperties` over `extraArguments`); it is evaluated
 *   as JSON Schema 2020-12 (a draft-07 `$schema` is accepted and ignored).
 * - The result is a new null-prototype object; `provided` is never mutated; `__proto__`/`constructor` keys are plain
 *   data (nested values are not copied).
 * - A broken schema (also: an unknown format, a default that does not satisfy its property schema, a reserved
 *   argument name such as `__proto__`) throws PromptError `INVALID_PROMPT_DEFINITION`: a server fault that clients
 *   only ever see as -32603 "Internal error" (see the error table).
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
  return validatorFor(promptArguments, inputSchema, options).validate(provided);
}
