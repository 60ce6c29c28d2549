/**
 * Shares argument plans between validators whose declarations are identical (a generated catalogue declares the
 * same arguments thousands of times): one plan per distinct (declarations, options), reference-counted.
 *
 * @module
 * @internal
 */
import type { PromptArgumentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { orderedKeyJson } from './canonical.js';
import { buildPlan } from './plan.js';
import type { ArgumentPlan } from './plan.js';
import type { ArgumentValidationOptions } from './types.js';

interface PlanEntry {
  readonly plan: ArgumentPlan;
  /** The map's own key string, handed out instead of each caller's equal copy (a copy per prompt adds up). */
  readonly key: string;
  refs: number;
}

/** A plan taken from a {@link PlanCache}; give the key back to `release` when done. */
export interface AcquiredPlan {
  readonly plan: ArgumentPlan;
  readonly key: string;
}

/**
 * @internal Plans keyed by the JSON of the declarations and options (key order kept: it orders the names).
 * Plans are immutable, and the declarations they read are frozen copies from the definition parser; functions
 * (`complete`) do not affect a plan, so the key leaves them out; values JSON cannot hold (NaN, undefined members,
 * a Date) get forms of their own (see `orderedKeyJson`), so they never share a plan with a JSON value.
 *
 * @example
 * ```ts
 * const plans = new PlanCache();
 * const { plan, key } = plans.acquire([{ name: 'code', required: true }], undefined, {});
 * plans.release(key);
 * ```
 */
export class PlanCache {
  readonly #entries = new Map<string, PlanEntry>();

  get size(): number {
    return this.#entries.size;
  }

  acquire(
    promptArguments: readonly PromptArgumentDefinition[] | undefined,
    inputSchema: JsonSchema | undefined,
    options: ArgumentValidationOptions,
  ): AcquiredPlan {
    let declarations: string;
    try {
      declarations =
        inputSchema === undefined || inputSchema === null
          ? `A${orderedKeyJson(promptArguments ?? [])}`
          : `S${orderedKeyJson(inputSchema)}`;
    } catch {
      // Not plain JSON (a cycle): build an unshared plan, which reports the problem as a definition error.
      return { plan: buildPlan(promptArguments, inputSchema, options), key: '' };
    }
    // Typed: a maxLength of '5' (refused) must not find the plan of 5.
    const key = `${orderedKeyJson([options.maxLength, options.extraArguments])}|${declarations}`;
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      entry.refs++;
      return entry;
    }
    const created: PlanEntry = { plan: buildPlan(promptArguments, inputSchema, options), key, refs: 1 };
    this.#entries.set(key, created);
    return created;
  }

  release(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    if (--entry.refs <= 0) this.#entries.delete(key);
  }
}
