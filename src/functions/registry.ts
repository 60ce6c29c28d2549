/**
 * {@link FunctionRegistry}: plain functions validated like prompts and answered in the one JSON format.
 *
 * @module
 */
import { ArgumentValidatorCache } from '../arguments/cache.js';
import { argumentFailureToPromptError } from '../arguments/failures.js';
import { getArgumentSchema } from '../arguments/plan.js';
import type { ArgumentValidationOptions, CompiledArgumentValidator } from '../arguments/types.js';
import { promptNameProblem } from '../definition/names.js';
import { createDefinitionError } from '../definition/problems.js';
import { DeclaredNames, argumentNameProblem, inputSchemaNameProblems } from '../definition/names.js';
import type { DefinitionProblem, PromptArgumentDefinition } from '../definition/types.js';
import { runWithDeadline } from '../deadline.js';
import { PromptError, echoed, errorClassName, isPromptError } from '../errors.js';
import { isRecord } from '../json.js';
import { toSafeLogger } from '../logger.js';
import { TIMEOUT_MS, integerOption } from '../options.js';
import type { Logger, SafeLogger } from '../logger.js';
import { buildSuccessResponse, toWireJson, toolExecutionError } from '../response.js';
import type { JsonSchema } from '../types.js';
import type {
  CallFunctionOptions,
  FunctionContext,
  FunctionDefinition,
  FunctionListing,
  FunctionResults,
  SuccessBody,
} from './types.js';

/** Options of the {@link FunctionRegistry} constructor. */
export interface FunctionRegistryOptions {
  /** Max characters of any string argument (default 10,000), as for prompts. */
  maxArgumentLength?: number;
  /** Undeclared arguments: accepted (default) or refused with -32602, as for prompts. */
  extraArguments?: 'accept' | 'reject';
  /**
   * Hide the message of errors thrown by `run` (default false): clients get `Internal error` (-32603 / HTTP 500) and
   * the logger gets the error's class name. By default a thrown message is the client's (`FUNCTION_FAILED`).
   */
  maskErrors?: boolean;
  /** pino-style logger (silent by default). Logs failures by class name, never argument values. */
  logger?: Logger;
  /**
   * How long one `run` may take (ms, default 60,000): then `FUNCTION_FAILED` saying so. `context.signal` aborts then,
   * and when the request is cancelled (the call stops waiting at once).
   */
  timeoutMs?: number;
}

interface Entry {
  readonly definition: FunctionDefinition;
  readonly listing: FunctionListing;
  readonly validator: CompiledArgumentValidator;
}

/** @internal How long `run` may take when `timeoutMs` is left out. */
export const DEFAULT_FUNCTION_TIMEOUT_MS = 60_000;

const RESULTS: readonly FunctionResults[] = ['one', 'many', 'none'];

/**
 * A set of functions served as MCP tools (`attachFunctions` in `mcp-prompt-kit/mcp`) or HTTP endpoints. Arguments
 * are validated by the same validator as prompt arguments (JSON Schema, string coercion, the -32602 data); a call
 * answers `{"result": v}`, `{"result0": v0, …}` or `{}`, or throws a {@link PromptError}.
 *
 * @example
 * ```ts
 * const functions = new FunctionRegistry();
 * functions.add(defineFunction({
 *   name: 'Add',
 *   arguments: [{ name: 'x', type: 'number', required: true }, { name: 'y', type: 'number', required: true }],
 *   run: ({ x, y }) => x + y,
 * }));
 * await functions.call('Add', { x: 7, y: 3 }); // { result: 10 }
 * ```
 */
export class FunctionRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #validators = new ArgumentValidatorCache();
  readonly #validation: ArgumentValidationOptions = {};
  readonly #maskErrors: boolean;
  readonly #log: SafeLogger;
  readonly #timeoutMs: number;

  constructor(options: FunctionRegistryOptions = {}) {
    const { maxArgumentLength, extraArguments } = options;
    if (maxArgumentLength !== undefined) {
      this.#validation.maxLength = integerOption('FunctionRegistry', 'maxArgumentLength', maxArgumentLength, {
        min: 1,
      });
    }
    if (extraArguments !== undefined) {
      if (extraArguments !== 'accept' && extraArguments !== 'reject') {
        throw new TypeError(`FunctionRegistry: extraArguments must be 'accept' or 'reject'`);
      }
      this.#validation.extraArguments = extraArguments;
    }
    this.#maskErrors = options.maskErrors === true;
    this.#log = toSafeLogger(options.logger);
    this.#timeoutMs = integerOption('FunctionRegistry', 'timeoutMs', options.timeoutMs, {
      ...TIMEOUT_MS,
      default: DEFAULT_FUNCTION_TIMEOUT_MS,
    });
  }

  /**
   * Adds functions. A broken definition (bad name, `run` not a function, an invalid argument schema, a name already
   * taken) throws `INVALID_PROMPT_DEFINITION` naming the problem; nothing of a failing batch is added.
   *
   * @example
   * ```ts
   * const x = { name: 'x', type: 'number', required: true } as const;
   * const y = { name: 'y', type: 'number', required: true } as const;
   * const add = defineFunction({ name: 'Add', arguments: [x, y], run: ({ x, y }) => x + y });
   * const negate = defineFunction({ name: 'Negate', arguments: [x], run: ({ x }) => -x });
   * functions.add([add, negate]);
   * ```
   */
  add(definitions: FunctionDefinition | readonly FunctionDefinition[]): this {
    const list: readonly FunctionDefinition[] = Array.isArray(definitions)
      ? definitions
      : [definitions as FunctionDefinition];
    const batch = new Map<string, Entry>();
    try {
      for (const def of list) {
        const entry = this.#compile(def);
        if (this.#entries.has(entry.listing.name) || batch.has(entry.listing.name)) {
          entry.validator.release();
          throw createDefinitionError([
            { path: '/name', message: `a function named '${entry.listing.name}' is already registered` },
          ]);
        }
        batch.set(entry.listing.name, entry);
      }
    } catch (error) {
      for (const entry of batch.values()) entry.validator.release();
      throw error;
    }
    for (const [name, entry] of batch) this.#entries.set(name, entry);
    return this;
  }

  /**
   * Removes a function; returns whether it was there.
   *
   * @example
   * ```ts
   * functions.remove('Add'); // true, and a second call returns false
   * ```
   */
  remove(name: string): boolean {
    const entry = this.#entries.get(name);
    if (entry === undefined) return false;
    entry.validator.release();
    return this.#entries.delete(name);
  }

  /**
   * Whether a function of that name is registered.
   *
   * @example
   * ```ts
   * if (functions.has('Add')) await functions.call('Add', { x: 1, y: 2 });
   * ```
   */
  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** How many functions are registered. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The listing of one function, or `undefined`.
   *
   * @example
   * ```ts
   * functions.get('Add')?.inputSchema; // { type: 'object', properties: { x: { type: 'number' }, ... }, ... }
   * ```
   */
  get(name: string): FunctionListing | undefined {
    return this.#entries.get(name)?.listing;
  }

  /**
   * Every function's listing, in the order they were added.
   *
   * @example
   * ```ts
   * for (const f of functions.list()) console.log(f.name, f.description ?? '');
   * ```
   */
  list(): FunctionListing[] {
    return [...this.#entries.values()].map((entry) => entry.listing);
  }

  /**
   * Validates `args` (an object; `undefined`/`null` count as `{}`), runs the function and returns the success body.
   * Throws PromptError: `FUNCTION_NOT_FOUND` (`Function not found: <name>`, HTTP 404), the -32602 argument errors
   * (`FUNCTION_ARGUMENT_MISSING` "Missing required function arguments", `FUNCTION_ARGUMENT_INVALID`,
   * `FUNCTION_ARGUMENT_TOO_LONG`) with their data, `FUNCTION_FAILED` with the message `run` threw (or `INTERNAL_ERROR`
   * with `maskErrors`), and a PromptError thrown by `run` as it is. A body that is not JSON (a `BigInt`, a cycle) is
   * `INTERNAL_ERROR`.
   *
   * @example
   * ```ts
   * await functions.call('Add', { x: '7', y: 3 }); // { result: 10 } (strings are coerced, as for prompts)
   * ```
   */
  async call(name: string, args?: unknown, options: CallFunctionOptions = {}): Promise<SuccessBody> {
    if (typeof name !== 'string') throw new PromptError('INVALID_PARAMS', 'Function name must be a string');
    const entry = this.#entries.get(name);
    if (entry === undefined) throw functionNotFound(name);
    const checked = entry.validator.validate(args ?? {});
    if (!checked.ok) throw argumentFailureToPromptError(checked.error, 'function');
    const extra = options.extra;
    const ms = this.#timeoutMs;
    let value: unknown;
    try {
      value = await runWithDeadline(
        (signal) => {
          const context: FunctionContext =
            extra === undefined ? { functionName: name, signal } : { functionName: name, signal, extra };
          return entry.definition.run(checked.arguments as never, context);
        },
        {
          signal: options.signal,
          timeoutMs: ms,
          timedOut: () => new Error(`Function '${name}' took longer than ${ms} ms`),
          cancelled: () => new PromptError('INTERNAL_ERROR', `Function '${name}': request cancelled`),
        },
      );
    } catch (error) {
      throw this.#failure(name, error);
    }
    return this.#body(entry.listing, value);
  }

  #failure(name: string, error: unknown): PromptError {
    const failure = toolExecutionError(error, { maskErrors: this.#maskErrors });
    if (!isPromptError(error)) {
      const level = this.#maskErrors ? 'error' : 'warn';
      this.#log[level](
        { event: 'function_failed', function: name, code: failure.code, error: errorClassName(error) },
        'Function failed',
      );
    }
    return failure;
  }

  #body(listing: FunctionListing, value: unknown): SuccessBody {
    if (listing.results === 'many' && !Array.isArray(value)) {
      this.#log.error(
        { event: 'function_result_invalid', function: listing.name, detail: "results: 'many' needs an array" },
        'Function result invalid',
      );
      throw new PromptError(
        'INTERNAL_ERROR',
        `Function '${listing.name}' declares results: 'many' but did not return an array`,
      );
    }
    try {
      if (listing.results === 'none') return {};
      const body = listing.results === 'one' ? buildSuccessResponse([value]) : buildSuccessResponse(value as unknown[]);
      // One JSON round trip: what the caller gets is exactly what any transport sends (Dates as strings, no functions).
      return toWireJson(body).value as SuccessBody;
    } catch (error) {
      this.#log.error(
        { event: 'function_result_invalid', function: listing.name, error: errorClassName(error) },
        'Function result invalid',
      );
      throw new PromptError('INTERNAL_ERROR', `Function '${listing.name}' returned a value that is not JSON`, {
        cause: error,
      });
    }
  }

  #compile(def: FunctionDefinition): Entry {
    const problems = definitionProblems(def);
    if (problems.length > 0) throw createDefinitionError(problems);
    const validator = this.#validators.compile(def.arguments, def.inputSchema, this.#validation);
    try {
      validator.check();
    } catch (error) {
      validator.release();
      throw error;
    }
    return { definition: def, listing: listingOf(def, this.#validation), validator };
  }
}

/** @internal The error for an unknown function name (the name is cut at 128 characters). */
export function functionNotFound(name: string): PromptError {
  return new PromptError('FUNCTION_NOT_FOUND', `Function not found: ${echoed(name)}`);
}

function definitionProblems(def: unknown): DefinitionProblem[] {
  if (!isRecord(def)) return [{ path: '', message: 'a function definition must be an object' }];
  const problems: DefinitionProblem[] = [];
  const nameProblem = promptNameProblem(def['name']);
  if (nameProblem !== undefined)
    problems.push({ path: '/name', message: nameProblem.replace(/^prompt name/, 'function name') });
  for (const key of ['title', 'description'] as const) {
    if (def[key] !== undefined && typeof def[key] !== 'string')
      problems.push({ path: `/${key}`, message: `${key} must be a string` });
  }
  if (typeof def['run'] !== 'function') problems.push({ path: '/run', message: 'run must be a function' });
  const results = def['results'];
  if (results !== undefined && !RESULTS.includes(results as FunctionResults)) {
    problems.push({ path: '/results', message: "results must be 'one', 'many' or 'none'" });
  }
  const args = def['arguments'];
  if (args !== undefined) {
    if (!Array.isArray(args)) problems.push({ path: '/arguments', message: 'arguments must be an array' });
    else {
      const names = new DeclaredNames();
      args.forEach((arg: unknown, i) => {
        const name = isRecord(arg) ? arg['name'] : undefined;
        const problem = isRecord(arg) ? argumentNameProblem(name) : 'an argument must be an object';
        if (problem !== undefined) problems.push({ path: `/arguments/${i}/name`, message: problem });
        const twin = typeof name === 'string' ? names.add(name, `/arguments/${i}`, `/arguments/${i}/name`) : undefined;
        if (twin !== undefined) problems.push(twin);
      });
    }
  }
  const input = def['inputSchema'];
  if (input !== undefined && (!isRecord(input) || input['type'] !== 'object')) {
    problems.push({ path: '/inputSchema', message: "inputSchema must be a JSON Schema object with type: 'object'" });
  } else if (input !== undefined) {
    problems.push(...inputSchemaNameProblems(input, Array.isArray(args) ? args : undefined));
  }
  const output = def['outputSchema'];
  if (output !== undefined && !isRecord(output) && typeof output !== 'boolean') {
    problems.push({ path: '/outputSchema', message: 'outputSchema must be a JSON Schema' });
  }
  return problems;
}

function listingOf(def: FunctionDefinition, validation: ArgumentValidationOptions): FunctionListing {
  const results = def.results ?? 'one';
  let inputSchema: JsonSchema;
  if (def.inputSchema !== undefined) inputSchema = def.inputSchema;
  else {
    inputSchema = getArgumentSchema(def.arguments as readonly PromptArgumentDefinition[] | undefined);
    if (validation.extraArguments === 'reject') inputSchema['additionalProperties'] = false;
  }
  const listing: {
    -readonly [K in keyof FunctionListing]: FunctionListing[K];
  } = {
    name: def.name,
    inputSchema,
    outputSchema: bodySchema(results, def.outputSchema),
    declaredOutput: def.outputSchema !== undefined,
    results,
  };
  if (def.title !== undefined) listing.title = def.title;
  if (def.description !== undefined) listing.description = def.description;
  return Object.freeze(listing);
}

/** The JSON Schema of the success body, from the schema of what `run` returns. */
function bodySchema(results: FunctionResults, output: JsonSchema | undefined): JsonSchema {
  if (results === 'none') return { type: 'object', properties: {}, additionalProperties: false };
  if (results === 'one') return { type: 'object', properties: { result: output ?? {} }, required: ['result'] };
  const prefix = output?.['prefixItems'];
  if (Array.isArray(prefix)) {
    const properties: Record<string, unknown> = {};
    prefix.forEach((item: unknown, i) => {
      properties[`result${i}`] = item;
    });
    const schema: JsonSchema = { type: 'object', properties, required: Object.keys(properties) };
    return schema;
  }
  const items = output?.['items'];
  return {
    type: 'object',
    patternProperties: { '^result(0|[1-9][0-9]*)$': isRecord(items) || typeof items === 'boolean' ? items : {} },
    additionalProperties: false,
  };
}
