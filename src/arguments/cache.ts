/**
 * {@link ArgumentValidatorCache}: what a registry owns to turn argument declarations into validators.
 *
 * @module
 */
import type { PromptArgumentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { SchemaStore } from './schema-store.js';
import type { StoreStats } from './schema-store.js';
import type { ArgumentValidationOptions, ArgumentValidatorCacheOptions, CompiledArgumentValidator } from './types.js';
import { PlanCache } from './plan-cache.js';
import { ArgumentValidator } from './validator.js';

/**
 * Owns its private ajv instances (JSON Schema draft 2020-12, MCP's default dialect, plus ajv-formats; never a
 * caller's) and the validators compiled with them.
 *
 * - `compile()` is cheap: it does no ajv work and builds nothing. `validator.check()` (call it at registration)
 *   builds the plan and checks the declarations without compiling: meta-schema, formats, patterns, local `$ref`s,
 *   reserved names, and each default against its own property schema; a broken declaration throws PromptError
 *   `INVALID_PROMPT_DEFINITION` there. The validator's first `validate()` compiles (and checks first, if `check()`
 *   was never called).
 * - Validators whose effective schemas are identical (same canonical JSON) share one check result and one compiled
 *   ajv function, reference-counted; `release()` drops a reference and the last one removes the schema from the
 *   cache. ajv itself keeps whatever it ever compiled, so the compiling instance is replaced by a fresh one once
 *   the schemas it holds unused exceed max(1000, 2 × live schemas): memory stays bounded however many distinct
 *   schemas come and go (at most two compiling instances, each holding at most L + max(1000, 2L) + 1 compiled
 *   schemas, L the most live schemas during its use; validators already compiled keep working).
 * - Declarations with only name/required/title/description, `type: 'string'`, a string `enum`, `maxLength` and a
 *   fitting string `default` (the common MCP case) never touch ajv at all, neither to check nor to validate.
 * - Arguments that declare no `type` and no `enum` are plain MCP arguments: strings (a number or boolean given as
 *   typed JSON becomes its string form; an array or object is a `type` error).
 *
 * @example
 * ```ts
 * const cache = new ArgumentValidatorCache();
 * const validator = cache.compile([{ name: 'language', required: true, enum: ['typescript', 'python'] }], undefined);
 * validator.check(); // at registration: throws INVALID_PROMPT_DEFINITION for a broken declaration
 * const result = validator.validate({ language: 'rust' });
 * // result.ok === false; result.error.data.details[0].message === 'must be one of: typescript, python'
 * validator.release(); // when the prompt is removed or replaced
 * ```
 */
export class ArgumentValidatorCache {
  private readonly store = new SchemaStore();
  private readonly plans = new PlanCache();
  private readonly defaults: ArgumentValidationOptions;

  constructor(options: ArgumentValidatorCacheOptions = {}) {
    this.defaults = { ...options.defaults };
  }

  /**
   * A validator for `promptArguments` (or `inputSchema`, which wins entirely when given). Lazy: see the class docs.
   * The declarations must not be mutated afterwards.
   */
  compile(
    promptArguments: readonly PromptArgumentDefinition[] | undefined,
    inputSchema: JsonSchema | undefined,
    options?: ArgumentValidationOptions,
  ): CompiledArgumentValidator {
    const merged = options === undefined ? this.defaults : { ...this.defaults, ...stripUndefined(options) };
    return new ArgumentValidator(this.store, this.plans, promptArguments, inputSchema, merged);
  }

  /**
   * Number of distinct schemas alive: checked (by `check()`) or compiled (by a first `validate()`). Validators on
   * the ajv-free fast path hold none.
   */
  get size(): number {
    return this.store.size;
  }

  /** @internal The ajv instances' counters (memory tests). */
  storeStats(): StoreStats {
    return this.store.debugStats();
  }
}

function stripUndefined(options: ArgumentValidationOptions): ArgumentValidationOptions {
  const out: ArgumentValidationOptions = {};
  if (options.maxLength !== undefined) out.maxLength = options.maxLength;
  if (options.extraArguments !== undefined) out.extraArguments = options.extraArguments;
  if (options.maxDepth !== undefined) out.maxDepth = options.maxDepth;
  if (options.maxItems !== undefined) out.maxItems = options.maxItems;
  if (options.maxBytes !== undefined) out.maxBytes = options.maxBytes;
  return out;
}
