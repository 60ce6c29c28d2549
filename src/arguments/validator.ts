/**
 * The validator of one prompt: lazy (a plan on `check()` or first use, ajv on first use), then one pass over the
 * given arguments (lengths, coercion into a copy that inherits nothing), defaults, required names and the schema check.
 *
 * @module
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { PromptArgumentDefinition } from '../definition/types.js';
import { PromptError, echoed } from '../errors.js';
import type { JsonSchema } from '../types.js';
import { bareRecord, escapePointerSegment, toJsonPointer } from '../json.js';
import { isWellFormedText } from '../encoding.js';
import { boundedCopy, depthMessage, exceedsLimit, ILL_FORMED, longKeyMessage, valueBudget } from './bounds.js';
import type { ValueBudget } from './bounds.js';
import type { PlanCache } from './plan-cache.js';
import { coerceValue } from './coercion.js';
import { InexactNumber } from './numbers.js';
import {
  MAX_DETAILS,
  definitionError,
  errorArgument,
  missingFailure,
  oneOfMessage,
  schemaFailure,
  toDetail,
  toDetails,
  tooLongFailure,
} from './failures.js';
import { buildPlan, defaultLimitOf } from './plan.js';
import {
  DEFAULT_MAX_ARGUMENTS,
  limitOption,
  limitsOf,
  nameTooLong,
  tooManyArguments,
  tooMuchPatternWork,
} from './request-limits.js';
import type { RequestLimits } from './request-limits.js';
import { PatternWorkExceeded } from './pattern-budget.js';
import type { ArgumentPlan, ArgumentSlot } from './plan.js';
import type { DefaultWork } from './schema-defaults.js';
import { nestingProblem } from './schema-limits.js';
import type { SchemaStore, StoreEntry } from './schema-store.js';
import type {
  ArgumentValidationOptions,
  ArgumentValidationResult,
  CompiledArgumentValidator,
  SchemaValidationDetail,
} from './types.js';

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze(Object.create(null) as Record<string, unknown>);

function notAllowed(argument: string, allowed: ReadonlySet<string>): SchemaValidationDetail {
  return { argument, keyword: 'enum', message: oneOfMessage(allowed) };
}

/**
 * The detail of a number a double would change; one deeper than `maxDepth` is the maxDepth rule's, a key over
 * `keyLimit` on its path the maxLength rule's instead (as for any other value).
 */
function inexact(argument: string, number: InexactNumber, keyLimit: number, maxDepth: number): SchemaValidationDetail {
  const path = number.path;
  if (path.length > maxDepth) {
    return { argument, keyword: 'maxDepth', message: depthMessage(maxDepth) };
  }
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    if (typeof segment === 'string' && exceedsLimit(segment, keyLimit)) {
      return { argument, keyword: 'maxLength', message: longKeyMessage(toJsonPointer(path.slice(0, i)), keyLimit) };
    }
  }
  const pointer = toJsonPointer(path);
  return {
    argument,
    keyword: 'exactNumber',
    message: pointer === '' ? number.message : `${echoed(pointer)}: ${number.message}`,
  };
}

/** Where the default of argument `name` is in the prompt definition. */
function defaultPath(plan: ArgumentPlan, name: string): string {
  return plan.locate(`/properties/${escapePointerSegment(name)}/default`);
}

function copyDefault(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/** A {@link CompiledArgumentValidator} bound to a {@link SchemaStore}. */
export class ArgumentValidator implements CompiledArgumentValidator {
  private plan: ArgumentPlan | undefined;
  private planKey: string | undefined;
  /** The plan once validation can run (plan built and, off the fast path, the ajv function at hand). */
  private ready: ArgumentPlan | undefined;
  /** The ajv function of a released validator (one holding an entry reads it from the entry: it may be recompiled). */
  private fn: ValidateFunction | undefined;
  private entry: StoreEntry | undefined;
  private checked = false;
  private failure: unknown;
  private released = false;
  private limits: RequestLimits | undefined;

  constructor(
    private readonly store: SchemaStore,
    private readonly plans: PlanCache,
    private readonly promptArguments: readonly PromptArgumentDefinition[] | undefined,
    private readonly inputSchema: JsonSchema | undefined,
    private readonly options: ArgumentValidationOptions,
  ) {}

  get argumentNames(): readonly string[] {
    return this.getPlan().names;
  }

  get requiredArguments(): readonly string[] {
    return this.getPlan().required;
  }

  get schema(): JsonSchema {
    return this.getPlan().schema;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.planKey !== undefined) this.plans.release(this.planKey);
    const entry = this.entry;
    if (entry === undefined) return;
    this.entry = undefined;
    // Keep validating with the function at hand; without one, the next validate() prepares a detached one.
    this.fn = entry.validate;
    if (this.fn === undefined && this.ready !== undefined && !this.ready.ajvFree) this.ready = undefined;
    this.store.release(entry);
  }

  private getPlan(): ArgumentPlan {
    if (this.plan !== undefined) return this.plan;
    if (this.failure !== undefined) throw this.failure;
    try {
      const deep =
        this.inputSchema !== undefined
          ? nestingProblem(this.inputSchema, '/inputSchema')
          : nestingProblem(this.promptArguments, '/arguments');
      if (deep !== undefined) throw definitionError([{ path: deep.pointer, message: deep.message }]);
      if (this.released) {
        this.plan = buildPlan(this.promptArguments, this.inputSchema, this.options);
      } else {
        const { plan, key } = this.plans.acquire(this.promptArguments, this.inputSchema, this.options);
        this.plan = plan;
        this.planKey = key;
      }
      this.checkDeclaredCount(this.plan.names.length);
    } catch (error) {
      this.failure = error;
      throw error;
    }
    return this.plan;
  }

  /** Throws the definition error of more declared arguments than a request may carry. */
  private checkDeclaredCount(declared: number): void {
    const max = limitOption(this.options.maxArguments, DEFAULT_MAX_ARGUMENTS, 'maxArguments');
    if (declared <= max) return;
    const path = this.inputSchema === undefined ? `/arguments/${max}` : '/inputSchema/properties';
    throw definitionError([{ path, message: `declares more than ${max} arguments (limit maxArguments)` }]);
  }

  check(): void {
    if (this.checked) return;
    // The options are part of the definition too: a bad limit fails here, not on the first request.
    defaultLimitOf(this.options);
    limitsOf(this.options);
    if (this.inputSchema === undefined && this.plans.plainFast(this.promptArguments)) {
      // Nothing a plan could find: stay lazy (the plan is built, and shared, on first validate()).
      this.checkDeclaredCount(this.promptArguments?.length ?? 0);
      this.checked = true;
      return;
    }
    const plan = this.getPlan();
    if (this.failure !== undefined) throw this.failure;
    try {
      this.checkDefaultValues(plan);
      // A fast-path plan needs nothing more: its declarations are plain strings, without patterns.
      if (!plan.ajvFree) {
        const locate = (pointer: string): string => plan.locate(pointer);
        const work = this.released
          ? this.store.checkDetached(plan.ajvSchema, locate)
          : (this.entry ??= this.store.acquire(plan.ajvSchema, locate)).defaultWork;
        this.checkDefaultWork(plan, work);
      }
    } catch (error) {
      this.failure = error;
      throw error;
    }
    this.checked = true;
  }

  /** Builds the plan and, unless the fast path suffices, gets the compiled ajv function (checking first). */
  private prepare(): ArgumentPlan {
    const plan = this.getPlan();
    if (this.failure !== undefined) throw this.failure;
    const locate = (pointer: string): string => plan.locate(pointer);
    try {
      if (!this.checked) this.checkDefaultValues(plan);
      if (!plan.ajvFree) {
        let work: readonly DefaultWork[];
        if (this.released) {
          const detached = this.store.detached(plan.ajvSchema, locate);
          this.fn = detached.validate;
          work = detached.defaultWork;
        } else {
          const entry = (this.entry ??= this.store.acquire(plan.ajvSchema, locate));
          this.store.compiled(entry, locate);
          work = entry.defaultWork;
        }
        if (!this.checked) this.checkDefaultWork(plan, work);
      }
    } catch (error) {
      this.failure = error;
      throw error;
    }
    this.checked = true;
    return (this.ready = plan);
  }

  /**
   * Throws the definition error of a default a request could not carry: over the value limits, or not well-formed text.
   */
  private checkDefaultValues(plan: ArgumentPlan): void {
    const defaults = plan.defaults;
    if (defaults.length === 0) return;
    const limits = this.limits ?? this.valueLimits(plan);
    let budget: ValueBudget | undefined;
    for (const slot of defaults) {
      const value = slot.defaultValue;
      let message: string | undefined;
      if (typeof value === 'string') {
        if (!isWellFormedText(value)) message = ILL_FORMED.message;
      } else if (typeof value === 'object' && value !== null) {
        const bounded = boundedCopy(
          value,
          limits,
          (budget ??= valueBudget('all array/object defaults of the prompt together')),
        );
        if (!('value' in bounded)) {
          const problem = bounded.problem;
          if (problem.kind === 'too-long')
            message = `holds a string longer than ${problem.limit} characters (limit maxLength)`;
          else message = problem.message.startsWith('/') ? `at ${problem.message}` : problem.message;
        }
      }
      if (message !== undefined)
        throw definitionError([{ path: defaultPath(plan, slot.name), message: `default value ${message}` }]);
    }
  }

  /**
   * Throws the definition error of defaults whose pattern checks take more than a request may (all of them left out).
   */
  private checkDefaultWork(plan: ArgumentPlan, work: readonly DefaultWork[]): void {
    const max = (this.limits ?? this.valueLimits(plan)).maxPatternWork;
    let total = 0;
    for (const w of work) {
      total += w.work;
      if (total <= max) continue;
      const message = `default value needs more than ${max} steps of pattern matching (limit maxPatternWork; all defaults of the prompt together)`;
      throw definitionError([{ path: plan.locate(w.pointer), message }]);
    }
  }

  /** The entry's function after the store dropped the ajv instance that compiled it. */
  private recompiled(entry: StoreEntry, plan: ArgumentPlan): ValidateFunction {
    return this.store.compiled(entry, (pointer) => plan.locate(pointer));
  }

  private valueLimits(plan: ArgumentPlan): RequestLimits {
    return (this.limits = { ...limitsOf(this.options), maxLength: plan.extraLimit });
  }

  validate(provided: unknown): ArgumentValidationResult {
    const plan = this.ready ?? this.prepare();
    const limits = this.limits ?? this.valueLimits(plan);
    let input: Record<string, unknown>;
    if (provided === undefined || provided === null) {
      input = EMPTY;
    } else if (typeof provided !== 'object' || Array.isArray(provided)) {
      throw new PromptError('INVALID_PARAMS', 'arguments must be an object');
    } else {
      input = provided as Record<string, unknown>;
    }

    const slots = plan.slots;
    const fast = plan.ajvFree;
    const out = bareRecord();
    let count = 0;
    let tooLong: string | undefined;
    let tooLongLimit = 0;
    let details: SchemaValidationDetail[] | undefined;
    let total = 0;
    // One budget for every typed value of this request (made on the first one).
    let budget: ValueBudget | undefined;

    // Own enumerable keys only (an inherited key is no argument), each value read once, as a spread reads them.
    const given = Object.keys(input);
    if (given.length > limits.maxArguments)
      return tooManyArguments(limits.maxArguments, given.length, plan.required.length);
    for (let k = 0; k < given.length; k++) {
      const key = given[k] as string;
      const raw: unknown = input[key];
      if (raw === null || raw === undefined) continue;
      count++;
      if (tooLong !== undefined) {
        // Already failing: only presence matters now (for the missing-arguments check, reported first).
        out[key] = raw;
        continue;
      }
      const slot: ArgumentSlot | undefined = slots.get(key);
      if (slot === undefined && exceedsLimit(key, plan.extraLimit)) {
        // Never copied, so nothing after this (ajv included) sees the name.
        (details ??= []).push(nameTooLong(key, plan.extraLimit));
        continue;
      }
      const limit = slot === undefined ? plan.extraLimit : slot.limit;
      if (typeof raw === 'string') {
        if (exceedsLimit(raw, limit)) {
          tooLong = key;
          tooLongLimit = limit;
          out[key] = raw;
          continue;
        }
        if (!isWellFormedText(raw)) {
          (details ??= []).push({ argument: key, keyword: 'wellFormed', message: ILL_FORMED.message });
          out[key] = raw;
          continue;
        }
      } else if (raw instanceof InexactNumber) {
        // A number of a JSON body that JSON.parse changed (the HTTP adapters mark them).
        (details ??= []).push(inexact(key, raw, plan.extraLimit, limits.maxDepth));
        out[key] = raw;
        continue;
      }
      if (slot === undefined) {
        if (fast && plan.rejectExtras) {
          (details ??= []).push({
            argument: key,
            keyword: 'additionalProperties',
            message: 'is not a declared argument',
          });
        }
        if (typeof raw !== 'object') {
          out[key] = raw;
          continue;
        }
        const bounded = boundedCopy(raw, limits, (budget ??= valueBudget()));
        if ('value' in bounded) out[key] = bounded.value;
        else if (bounded.problem.kind === 'too-long') [tooLong, tooLongLimit] = [key, bounded.problem.limit];
        else
          (details ??= []).push({ argument: key, keyword: bounded.problem.keyword, message: bounded.problem.message });
        continue;
      }
      let value: unknown;
      if (typeof raw === 'string') {
        // The MCP wire's only case: text, usually for a string argument (no coercion call at all).
        value = slot.parseText ? coerceValue(raw, slot.types, slot.choices) : raw;
      } else {
        value = slot.types === 0 ? raw : coerceValue(raw, slot.types, slot.choices);
        if (typeof value === 'string' && exceedsLimit(value, limit)) {
          tooLong = key;
          tooLongLimit = limit;
        }
      }
      if (typeof value === 'object' && value !== null) {
        if (value instanceof InexactNumber) {
          (details ??= []).push(inexact(key, value, plan.extraLimit, limits.maxDepth));
          out[key] = raw;
          continue;
        }
        const bounded = boundedCopy(value, limits, (budget ??= valueBudget()));
        if (!('value' in bounded)) {
          if (bounded.problem.kind === 'too-long') [tooLong, tooLongLimit] = [key, bounded.problem.limit];
          else
            (details ??= []).push({
              argument: key,
              keyword: bounded.problem.keyword,
              message: bounded.problem.message,
            });
          continue;
        }
        value = bounded.value;
      }
      if (fast) {
        if (typeof value === 'string') {
          const allowed = slot.allowed;
          if (allowed !== undefined && !allowed.has(value)) (details ??= []).push(notAllowed(key, allowed));
        } else if (slot.mustBeString) {
          (details ??= []).push({ argument: key, keyword: 'type', message: 'must be string' });
        } else if (slot.allowed !== undefined) {
          (details ??= []).push(notAllowed(key, slot.allowed));
        }
      }
      out[key] = value;
    }

    const defaults = plan.defaults;
    for (let i = 0; i < defaults.length; i++) {
      const slot = defaults[i] as ArgumentSlot;
      if (out[slot.name] === undefined) out[slot.name] = copyDefault(slot.defaultValue);
    }

    const required = plan.required;
    let missing: string[] | undefined;
    let refused: Set<string> | undefined;
    for (let i = 0; i < required.length; i++) {
      const name = required[i] as string;
      if (out[name] !== undefined) continue;
      // Sent but refused by a limit above (too deep, too long, too many items): that reason, not "missing".
      refused ??= new Set(details?.map((d) => d.argument));
      if (name !== tooLong && !refused.has(name)) (missing ??= []).push(name);
    }
    if (missing !== undefined) return { ok: false, error: missingFailure(missing, count, required.length) };
    if (tooLong !== undefined) {
      return { ok: false, error: tooLongFailure(tooLong, tooLongLimit, count, required.length) };
    }
    if (!fast) {
      const entry = this.entry;
      const fn = entry === undefined ? (this.fn as ValidateFunction) : (entry.validate ?? this.recompiled(entry, plan));
      let valid: boolean;
      try {
        valid = this.store.patterns.run(limits.maxPatternWork, () => fn(out));
      } catch (error) {
        fn.errors = null;
        if (error instanceof PatternWorkExceeded)
          return tooMuchPatternWork(limits.maxPatternWork, count, required.length);
        throw error;
      }
      if (!valid) {
        const errors = fn.errors ?? [];
        // ajv's errors hold the input and schema values: let them go with this request.
        fn.errors = null;
        if (details === undefined) {
          details = toDetails(errors);
          total = errors.length;
        } else {
          // Arguments already refused above keep that reason (ajv only sees what was left of them); only the
          // details sent are worded, the rest counted.
          const refused = new Set(details.map((d) => d.argument));
          let unsent = 0;
          for (const error of errors) {
            const argument = errorArgument(error);
            if (refused.has(argument)) continue;
            if (details.length < MAX_DETAILS) details.push(toDetail(error, argument));
            else unsent++;
          }
          total = details.length + unsent;
        }
      }
    }
    if (details !== undefined && details.length > 0) {
      return { ok: false, error: schemaFailure(details, count, required.length, total) };
    }
    return { ok: true, arguments: out };
  }
}
