/**
 * What a function IS, as authored: a name, argument declarations (the same as a prompt's) and a `run` callback whose
 * return value becomes `{"result": …}`, `{"result0": …, …}` or `{}`.
 *
 * @module
 */
import type { PromptArgs, PromptArgumentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../types.js';

/**
 * How `run`'s return value becomes the success body: `'one'` (default) -> `{"result": value}` (an array is ONE
 * result, `undefined` becomes `null`); `'many'` -> `run` returns an array, one key per item
 * (`{"result0": …, "result1": …}`); `'none'` -> `{}` whatever `run` returns.
 */
export type FunctionResults = 'one' | 'many' | 'none';

/** Context given to a function's `run`. */
export interface FunctionContext {
  /** The function's name. */
  functionName: string;
  /** Aborted when the request is cancelled (the client went away, a `tools/call` was cancelled) or the time is up. */
  signal?: AbortSignal;
  /** Whatever the caller passed as request context (for example, the authenticated user). */
  extra?: Readonly<Record<string, unknown>>;
}

/** A function definition; `A` is the tuple of argument declarations, so `run` receives typed arguments. */
export interface FunctionDefinition<
  A extends readonly PromptArgumentDefinition[] = readonly PromptArgumentDefinition[],
> {
  /** Unique name: letters, digits, `_`, `-`, `.`; at most 128 characters (the prompt name rules). */
  name: string;
  title?: string;
  description?: string;
  /** Argument declarations, exactly as for prompts. */
  arguments?: A;
  /** A full JSON Schema (`type: 'object'`) for the arguments object; wins over `arguments`. */
  inputSchema?: JsonSchema;
  /**
   * The JSON Schema of what `run` returns: of the one value (`results: 'one'`), or of the array (`'many'`; its
   * `prefixItems` or `items` describe `result0`, `result1`, …). Published (wrapped into the body schema), not enforced.
   */
  outputSchema?: JsonSchema;
  /** How the return value becomes the body (default `'one'`); see {@link FunctionResults}. */
  results?: FunctionResults;
  /** The work; sync or async. Declared as a method so definitions with specific argument types stay assignable. */
  run(args: PromptArgs<A>, context: FunctionContext): unknown;
}

/** The success body of a call: `{"result": v}`, `{"result0": v0, …}` or `{}`. */
export type SuccessBody = { [key: string]: unknown };

/** One function as listed: what a `tools/list` entry or an OpenAPI operation is built from. */
export interface FunctionListing {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The JSON Schema of the arguments object (`type: 'object'`). */
  readonly inputSchema: JsonSchema;
  /** The JSON Schema of the success body (`{result}`, `{result0, …}` or `{}`), built from `outputSchema`. */
  readonly outputSchema: JsonSchema;
  /** Whether the author declared an `outputSchema` (the body schema then says more than "some JSON value"). */
  readonly declaredOutput: boolean;
  readonly results: FunctionResults;
}

/** Options of {@link FunctionRegistry.call}. */
export interface CallFunctionOptions {
  /** Aborts the call: `run` sees it as `context.signal`. */
  signal?: AbortSignal;
  /** Request context handed to `run` as `context.extra`. */
  extra?: Readonly<Record<string, unknown>>;
}
