/**
 * The standalone {@link validatePromptArguments}: a private, bounded (LRU) cache of validators keyed by the
 * canonical form of what it is given. Servers with a registry use {@link ArgumentValidatorCache} instead.
 *
 * @module
 */
import type { PromptArgumentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { ArgumentValidatorCache } from './cache.js';
import type { StoreStats } from './cache.js';
import { canonicalJson } from './canonical.js';
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

/** @internal The ajv counters of the standalone function's cache (memory tests), undefined before first use. */
export function standaloneStoreStats(): StoreStats | undefined {
  return cache?.storeStats();
}

/**
 * Validates prompt arguments and returns the arguments to render with (coerced from wire strings, defaulted, in a
 * null-prototype object), or the -32602 error: missing required arguments first, then an over-long string, then
 * schema problems. `inputSchema`, when given, wins entirely. The rules and limits are in the README's "Argument
 * validation" section.
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
