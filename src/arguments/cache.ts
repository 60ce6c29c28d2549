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

/** Turns argument declarations into validators sharing one private ajv store (lazy; see README, Argument validation). */
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
