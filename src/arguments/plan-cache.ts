/**
 * The plans shared by identical declarations: one {@link ArgumentPlan} per distinct (declarations, options),
 * reference-counted by the validators that use it.
 *
 * @module
 */
import type { PromptArgumentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { orderedKeyJson } from './canonical-json.js';
import { buildPlan, isPlainFastDeclaration } from './plan.js';
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

/** One plan per distinct (declarations, options), keyed by their JSON (key order kept), reference-counted. */
export class PlanCache {
  readonly #entries = new Map<string, PlanEntry>();
  /** {@link isPlainFastDeclaration} of frozen (parsed, often shared) declaration lists. */
  readonly #plainFast = new WeakMap<readonly PromptArgumentDefinition[], boolean>();

  /** Whether the declarations are plain fast-path ones, remembered per frozen list. */
  plainFast(promptArguments: readonly PromptArgumentDefinition[] | undefined): boolean {
    if (promptArguments === undefined || !Object.isFrozen(promptArguments))
      return isPlainFastDeclaration(promptArguments);
    let known = this.#plainFast.get(promptArguments);
    if (known === undefined) this.#plainFast.set(promptArguments, (known = isPlainFastDeclaration(promptArguments)));
    return known;
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
