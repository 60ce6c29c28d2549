/**
 * {@link ArgumentValidatorCache}, which a registry owns: validators over one private store of ajv schemas and one of
 * plans; and the recent validators behind the standalone `validatePromptArguments`. How ajv memory stays bounded:
 * docs/arguments.md.
 *
 * @module
 */
import type { PromptArgumentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { canonicalJson } from './canonical-json.js';
import { PlanCache } from './plan-cache.js';
import { RECYCLE_MIN, SchemaStore } from './schema-store.js';
import type { StoreStats } from './schema-store.js';
import type { ArgumentValidationOptions, ArgumentValidatorCacheOptions, CompiledArgumentValidator } from './types.js';
import { ArgumentValidator } from './validator.js';

/** Turns argument declarations into validators sharing one private ajv store (lazy; see docs/arguments.md). */
export class ArgumentValidatorCache {
  private readonly store: SchemaStore;
  private readonly plans = new PlanCache();
  private readonly defaults: ArgumentValidationOptions;

  /** `recycleMin` is internal: tests reach ajv recycling in a few hundred schemas instead of thousands. */
  constructor(options: ArgumentValidatorCacheOptions = {}, /** @internal */ recycleMin = RECYCLE_MIN) {
    this.defaults = { ...options.defaults };
    this.store = new SchemaStore(recycleMin);
  }

  /** A validator for `promptArguments` (or `inputSchema`, which wins entirely); the declarations must not change. */
  compile(
    promptArguments: readonly PromptArgumentDefinition[] | undefined,
    inputSchema: JsonSchema | undefined,
    options?: ArgumentValidationOptions,
  ): CompiledArgumentValidator {
    const merged = options === undefined ? this.defaults : { ...this.defaults, ...stripUndefined(options) };
    return new ArgumentValidator(this.store, this.plans, promptArguments, inputSchema, merged);
  }

  /** Distinct schemas alive: checked (by `check()`) or compiled (by a first `validate()`); fast-path ones hold none. */
  get size(): number {
    return this.store.size;
  }

  /** The ajv counters of this cache's store. */
  stats(): StoreStats {
    return this.store.stats();
  }
}

function stripUndefined(options: ArgumentValidationOptions): ArgumentValidationOptions {
  const out: ArgumentValidationOptions = {};
  if (options.maxLength !== undefined) out.maxLength = options.maxLength;
  if (options.extraArguments !== undefined) out.extraArguments = options.extraArguments;
  if (options.maxDepth !== undefined) out.maxDepth = options.maxDepth;
  if (options.maxItems !== undefined) out.maxItems = options.maxItems;
  if (options.maxBytes !== undefined) out.maxBytes = options.maxBytes;
  if (options.maxArguments !== undefined) out.maxArguments = options.maxArguments;
  if (options.maxPatternWork !== undefined) out.maxPatternWork = options.maxPatternWork;
  return out;
}

/** Keeps the validators of the last `size` distinct declarations (the standalone `validatePromptArguments`). */
export class RecentValidators {
  private readonly recent = new Map<string, CompiledArgumentValidator>();
  readonly cache: ArgumentValidatorCache;

  constructor(
    private readonly capacity: number,
    recycleMin = RECYCLE_MIN,
  ) {
    this.cache = new ArgumentValidatorCache({}, recycleMin);
  }

  get(
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
        options?.maxArguments ?? null,
        options?.maxPatternWork ?? null,
      ]);
    } catch {
      // Too deep (or cyclic) to key: not kept; the validator reports where.
      return this.cache.compile(promptArguments, inputSchema, options);
    }
    const recent = this.recent;
    const hit = recent.get(key);
    if (hit !== undefined) {
      recent.delete(key);
      recent.set(key, hit);
      return hit;
    }
    const validator = this.cache.compile(promptArguments, inputSchema, options);
    recent.set(key, validator);
    if (recent.size > this.capacity) {
      const oldest = recent.keys().next();
      if (oldest.done !== true) {
        recent.get(oldest.value)?.release();
        recent.delete(oldest.value);
      }
    }
    return validator;
  }
}
