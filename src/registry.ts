/**
 * PromptRegistry: an in-memory snapshot of compiled prompts with list/get/complete and change events.
 *
 * @module
 */
import { ArgumentValidatorCache } from './arguments/index.js';
import type { ArgumentValidationOptions } from './arguments/index.js';
import type { CompileEnvironment, CompiledPrompt, RenderEnvironment } from './render/prompt.js';
import { compilePrompt, validateArguments } from './render/prompt.js';
import { MAX_COMPLETION_VALUES, boundCompletionValues, checkCompletionInput } from './completion.js';
import { CursorCodec } from './cursor.js';
import { NameTable } from './name-table.js';
import { SortedNames } from './sorted-names.js';
import { createDefinitionError } from './definition/index.js';
import { parseWithLists } from './definition/parse.js';
import { runWithDeadline } from './deadline.js';
import { wellFormed } from './encoding.js';
import { ParsedLists } from './definition/reuse.js';
import type { DefinitionErrorOptions } from './definition/index.js';
import type { PromptArgumentDefinition, PromptDefinition, SystemRolePolicy } from './definition/types.js';
import { PromptError, echoed, errorClassName, isPromptError, toPromptError } from './errors.js';
import { childPointer, isRecord } from './json.js';
import { schemaProperties } from './listing.js';
import type { Logger, SafeLogger } from './logger.js';
import { toSafeLogger } from './logger.js';
import { DEFAULT_RENDER_LIMITS, TemplateCache } from './render/index.js';
import type { RenderLimits, ResourceErrorMode } from './render/index.js';
import type { AssetLoader, ResourceResolver } from './resources.js';
import type { GetPromptResult, ListPromptsResult, Prompt } from './types.js';

/** Options of {@link PromptRegistry}. */
export interface PromptRegistryOptions {
  /** Resolves `{{resource:URI}}` directives and `{type: "resource"}` content. */
  resources?: ResourceResolver;
  /** Loads `{type: "image" | "audio", path}` content (mcp-prompt-kit/fs ships a file loader). */
  assets?: AssetLoader;
  /** Default page size of {@link PromptRegistry.list}; by default every prompt is in one page. */
  pageSize?: number;
  /**
   * Render limits: resources per render (default 50), rendered bytes per prompt (default 1 MiB), template steps per
   * render (default 1 Mi), resource wait (default 10 s).
   */
  limits?: Partial<RenderLimits>;
  /** Unknown resource: `"error"` (RESOURCE_NOT_FOUND, default) or `"inline"` (a visible note in the text). */
  onResourceError?: ResourceErrorMode;
  /** Partials by name, usable as `{{> name}}` in every prompt's templates. */
  partials?: Readonly<Record<string, string>>;
  /** A placeholder naming an undeclared argument: `"error"` (default) or `"warn"` (logged). */
  undeclaredPlaceholders?: 'error' | 'warn';
  /** Legacy `role: "system"` messages: rejected by default; `"user"` maps them to user. */
  systemRole?: SystemRolePolicy;
  /** Max characters of any string argument (default 10,000 code points); a declared maxLength wins. */
  maxArgumentLength?: number;
  /** Undeclared arguments from clients: accepted (default) or rejected. */
  extraArguments?: 'accept' | 'reject';
  /** How long an argument's `complete()` may take, in milliseconds (default 10,000); then -32603, logged. */
  completionTimeoutMs?: number;
  /** pino-style logger; silent by default. Argument values are never logged. */
  logger?: Logger;
}

/** Options of {@link PromptRegistry.list}. */
export interface ListOptions {
  cursor?: string;
  pageSize?: number;
}

/** A change to the registry, delivered synchronously once per add/set/remove call. */
export interface RegistryChangeEvent {
  type: 'add' | 'set' | 'remove';
  /** The names added, replaced or removed by that call. */
  names: string[];
}

/** Options of {@link PromptRegistry.add} and {@link PromptRegistry.set}. */
export interface RegisterOptions {
  /** Where the definitions came from (a file path), for error messages. */
  source?: string;
  /** The version being registered (one for the batch, or per name), logged with each get it serves. */
  version?: string | number | ((name: string) => string | number | undefined);
}

/** The result of {@link PromptRegistry.complete}. */
export interface CompletionValues {
  values: string[];
  total: number;
  hasMore: boolean;
}

/** Caller context for {@link PromptRegistry.getPrompt} and {@link PromptRegistry.complete}. */
export interface RequestContext {
  signal?: AbortSignal;
  /** Passed to programmatic render functions as `context.extra`. */
  extra?: Readonly<Record<string, unknown>>;
  /** For completion: the other arguments the client has already filled in. */
  arguments?: Readonly<Record<string, string>>;
}

/**
 * An in-memory registry of prompts. Definitions are validated and compiled once when added; requests only look up
 * and run compiled code. Readers see whole snapshots: a render in flight is unaffected by a concurrent replace.
 *
 * @example
 * ```ts
 * const registry = new PromptRegistry();
 * registry.add({
 *   name: 'review_code',
 *   arguments: [{ name: 'code', required: true }],
 *   messages: [{ role: 'user', content: 'Review this code:\n{{code}}' }],
 * });
 * const result = await registry.getPrompt('review_code', { code: 'let x = 1' });
 * ```
 */
export class PromptRegistry {
  readonly #prompts = new NameTable<CompiledPrompt>();
  /** Equal argument and message lists of definitions added before: parsed and held once. */
  readonly #parsedLists = new ParsedLists();
  readonly #sorted = new SortedNames();
  #allListings: Prompt[] | undefined;
  readonly #listeners = new Set<(event: RegistryChangeEvent) => void>();
  readonly #pending: RegistryChangeEvent[] = [];
  #emitting = false;
  readonly #cursors = new CursorCodec();
  readonly #compileEnv: CompileEnvironment;
  readonly #renderEnv: RenderEnvironment;
  readonly #log: SafeLogger;
  readonly #pageSize: number | undefined;
  readonly #systemRole: SystemRolePolicy;
  readonly #completionTimeoutMs: number;
  readonly #versions = new Map<string, string | number>();
  /** Prompts withheld because their source is broken: name -> reason (logged, never sent). */
  readonly #withheld = new Map<string, string>();
  readonly #logServed: boolean;
  /** Lower-cased enum values, per enum array, computed once. */
  readonly #enumIndex = new WeakMap<readonly unknown[], { values: string[]; lower: string[] }>();

  constructor(options: PromptRegistryOptions = {}) {
    this.#log = toSafeLogger(options.logger);
    this.#logServed = typeof options.logger?.debug === 'function';
    if (options.pageSize !== undefined) assertPositiveInteger(options.pageSize, 'pageSize');
    this.#pageSize = options.pageSize;
    this.#systemRole = options.systemRole ?? 'reject';
    if (options.completionTimeoutMs !== undefined) assertPositiveInteger(options.completionTimeoutMs, 'completionTimeoutMs');
    this.#completionTimeoutMs = options.completionTimeoutMs ?? 10_000;
    const partials = options.partials === undefined ? undefined : copyPartials(options.partials);
    const limits = renderLimits(options.limits);
    const validation: ArgumentValidationOptions = {};
    if (options.maxArgumentLength !== undefined) {
      assertPositiveInteger(options.maxArgumentLength, 'maxArgumentLength');
      validation.maxLength = options.maxArgumentLength;
    }
    if (options.extraArguments !== undefined) validation.extraArguments = options.extraArguments;
    this.#compileEnv = {
      templates: new TemplateCache(),
      validators: new ArgumentValidatorCache(),
      validation,
      partials: partials === undefined ? undefined : (name) => partials.get(name),
      undeclared: options.undeclaredPlaceholders ?? 'error',
      onWarning: (message) => this.#log.warn({ event: 'definition_warning' }, message),
      assets: options.assets,
      resources: options.resources,
      maxRenderedBytes: limits.maxRenderedBytes,
    };
    this.#renderEnv = {
      resources: options.resources,
      assets: options.assets,
      limits,
      onResourceError: options.onResourceError ?? 'error',
    };
  }

  /** The number of prompts. */
  get size(): number {
    return this.#prompts.size;
  }

  /** The resource resolver given at construction, if any. */
  get resources(): ResourceResolver | undefined {
    return this.#renderEnv.resources;
  }

  /**
   * Adds prompts. A name already registered (or repeated in the batch) is an error; nothing of a failing batch is
   * added. Emits one `add` event per call.
   *
   * @example
   * ```ts
   * registry.add([
   *   { name: 'greet', messages: [{ role: 'user', content: 'Hello' }] },
   *   { name: 'bye', messages: [{ role: 'user', content: 'Goodbye' }] },
   * ]);
   * ```
   */
  add(definitions: PromptDefinition | readonly PromptDefinition[], options: RegisterOptions = {}): void {
    const compiled = this.#compileBatch(definitions, options);
    const duplicate = compiled.find((c) => this.#prompts.has(c.name));
    if (duplicate !== undefined) {
      for (const c of compiled) c.release();
      throw createDefinitionError(
        [{ path: '/name', message: `a prompt named '${duplicate.name}' is already registered (use set() to replace it)` }],
        definitionErrorOptions(options.source, duplicate.name),
      );
    }
    this.#commit(compiled, 'add', options);
  }

  /**
   * Adds or replaces prompts (by name) atomically. Emits one `set` event per call.
   *
   * @example
   * ```ts
   * registry.set({ name: 'greet', messages: [{ role: 'user', content: 'Hello again' }] });
   * ```
   */
  set(definitions: PromptDefinition | readonly PromptDefinition[], options: RegisterOptions = {}): void {
    this.#commit(this.#compileBatch(definitions, options), 'set', options);
  }

  /**
   * Removes a prompt (or several). Returns whether anything was removed; emits one `remove` event when it was.
   *
   * @example
   * ```ts
   * registry.remove('greet');
   * ```
   */
  remove(names: string | readonly string[]): boolean {
    const list = typeof names === 'string' ? [names] : names;
    const removed: string[] = [];
    for (const name of list) {
      this.#withheld.delete(name);
      this.#versions.delete(name);
      const old = this.#prompts.get(name);
      if (old === undefined) continue;
      this.#prompts.delete(name);
      old.release();
      removed.push(name);
    }
    if (removed.length === 0) return false;
    this.#sorted.remove(removed);
    this.#allListings = undefined;
    this.#emit({ type: 'remove', names: removed });
    return true;
  }

  /**
   * Withholds a prompt whose source turned invalid (a broken stored row): it leaves the listing, and a get of its
   * name answers -32603 with a generic message while the reason is logged, instead of -32602 "Unknown prompt".
   * Registering the name again, or removing it, ends this.
   *
   * @example
   * ```ts
   * registry.withhold('review_code', 'stored row has role "system"');
   * ```
   */
  withhold(name: string, reason: string): void {
    this.remove(name);
    this.#withheld.set(name, reason);
  }

  /**
   * Whether a prompt is registered.
   *
   * @example
   * ```ts
   * if (!registry.has('greet')) registry.add({ name: 'greet', messages: [{ role: 'user', content: 'Hello' }] });
   * ```
   */
  has(name: string): boolean {
    return this.#prompts.has(name);
  }

  /**
   * The listing metadata of one prompt (as in prompts/list), or undefined.
   *
   * @example
   * ```ts
   * registry.get('review_code')?.arguments; // [{ name: 'code', required: true }]
   * ```
   */
  get(name: string): Prompt | undefined {
    return this.#prompts.get(name)?.listing;
  }

  /**
   * The registered definitions, sorted by name (for tools such as the CLI and OpenAPI generator).
   *
   * @example
   * ```ts
   * for (const def of registry.definitions()) console.log(def.name);
   * ```
   */
  definitions(): PromptDefinition[] {
    return this.#names().map((n) => this.#prompts.get(n)!.definition);
  }

  /**
   * Subscribes to changes; returns the unsubscribe function. Listeners run synchronously, once per add/set/remove
   * call whatever its array length; a throwing listener is logged and does not affect the others. A change made by
   * a listener is delivered after the current event has reached every listener, so all see the same order.
   *
   * @example
   * ```ts
   * const off = registry.onChange((e) => console.log(e.type, e.names));
   * off();
   * ```
   */
  onChange(listener: (event: RegistryChangeEvent) => void): () => void {
    const wrapped = (event: RegistryChangeEvent): void => listener(event);
    this.#listeners.add(wrapped);
    return () => {
      this.#listeners.delete(wrapped);
    };
  }

  /**
   * One page of prompts, sorted by name in code-unit order. Pass the returned `nextCursor` back to get the next page;
   * a cursor stays valid across concurrent changes (a surviving prompt is never skipped or repeated). A cursor this
   * registry did not issue is `INVALID_CURSOR`.
   *
   * @example
   * ```ts
   * let page = registry.list({ pageSize: 50 });
   * while (page.nextCursor) page = registry.list({ cursor: page.nextCursor, pageSize: 50 });
   * ```
   */
  list(options: ListOptions = {}): ListPromptsResult {
    const pageSize = options.pageSize ?? this.#pageSize;
    if (options.pageSize !== undefined) assertPositiveInteger(options.pageSize, 'pageSize');
    let after: string | undefined;
    if (options.cursor !== undefined) {
      if (typeof options.cursor !== 'string') throw new PromptError('INVALID_CURSOR', 'Invalid cursor');
      after = this.#cursors.decode(options.cursor);
    }
    if (after === undefined && (pageSize === undefined || pageSize >= this.#sorted.size)) {
      return { prompts: this.#allListingsArray().slice() };
    }
    const { names, more } = this.#sorted.page(after, pageSize ?? this.#sorted.size);
    const prompts: Prompt[] = new Array(names.length);
    for (let i = 0; i < names.length; i++) prompts[i] = this.#prompts.get(names[i]!)!.listing;
    return more ? { prompts, nextCursor: this.#cursors.encode(names[names.length - 1]!) } : { prompts };
  }

  /**
   * Validates the arguments and renders a prompt into a spec-exact `GetPromptResult`.
   * Throws {@link PromptError}: PROMPT_NOT_FOUND, PROMPT_ARGUMENT_MISSING / _INVALID / _TOO_LONG (with -32602 data),
   * RESOURCE_NOT_FOUND, LIMIT_EXCEEDED, or an internal error (logged; clients see a generic message).
   *
   * @example
   * ```ts
   * const { messages } = await registry.getPrompt('review_code', { code: 'x = 1', language: 'python' });
   * ```
   */
  getPrompt(name: string, args?: unknown, context: RequestContext = {}): Promise<GetPromptResult> {
    // Not async: a synchronous render (text templates, no resources) settles without an extra await.
    const prompt = this.#prompts.get(name);
    if (prompt === undefined) return Promise.reject(this.#missing(name));
    let values: Record<string, unknown>;
    try {
      values = validateArguments(prompt, args);
    } catch (error) {
      // A client's mistake passes through; a broken schema (a server fault) is logged like a render failure.
      return Promise.reject(this.#reportRenderError(name, error));
    }
    const signal = context.signal;
    if (isAborted(signal)) return Promise.reject(cancelled(name, signal!));
    try {
      const rendered = prompt.render(values, context, this.#renderEnv);
      if (!(rendered instanceof Promise)) {
        if (this.#logServed) this.#served(name);
        return Promise.resolve(rendered);
      }
      return rendered.then(
        (result) => {
          if (this.#logServed) this.#served(name);
          return result;
        },
        (error: unknown) => {
          throw this.#renderFailure(name, signal, error);
        },
      );
    } catch (error) {
      return Promise.reject(this.#renderFailure(name, signal, error));
    }
  }

  #served(name: string): void {
    const version = this.#versions.get(name);
    this.#log.debug(version === undefined ? { event: 'prompt_served', prompt: name } : { event: 'prompt_served', prompt: name, version }, 'prompt served');
  }

  /** The error for a name that is not served: withheld (-32603, logged) or unknown (-32602). */
  #missing(name: string): PromptError {
    const reason = this.#withheld.get(name);
    if (reason === undefined) return unknownPrompt(name);
    return this.#reportRenderError(name, new PromptError('INTERNAL_ERROR', `prompt '${name}' is withheld: ${reason}`));
  }

  #renderFailure(name: string, signal: AbortSignal | undefined, error: unknown): PromptError {
    if (isAborted(signal)) {
      // The caller gave up: whatever failed because of that is not a server fault worth an error log.
      this.#log.debug({ event: 'prompt_cancelled', prompt: name }, 'prompt request cancelled');
      return cancelled(name, signal!);
    }
    return this.#reportRenderError(name, error);
  }

  /**
   * Completion values for a prompt argument: from its `complete` function, else a case-insensitive prefix match on
   * its `enum`. At most 100 values and 64 KiB; `total` counts all matches. An `argument.value` over 10,000
   * characters, or a context over 100 entries or 10,000 characters an entry, is INVALID_PARAMS (-32602).
   *
   * @example
   * ```ts
   * await registry.complete('review_code', 'language', 'ty'); // { values: ['typescript'], total: 1, hasMore: false }
   * ```
   */
  async complete(name: string, argumentName: string, value: string, context: RequestContext = {}): Promise<CompletionValues> {
    const prompt = this.#prompts.get(name);
    if (prompt === undefined) throw this.#missing(name);
    checkCompletionInput(value, context.arguments);
    const arg = prompt.argument(argumentName);
    if (arg?.complete !== undefined) {
      const all = await this.#runCompleter(name, argumentName, arg.complete, value, context);
      return boundCompletionValues(all, all.length);
    }
    const declared = arg?.enum ?? schemaEnum(prompt, argumentName);
    if (declared === undefined) return { values: [], total: 0, hasMore: false };
    const index = this.#enumOf(declared);
    const prefix = value.toLowerCase();
    const matches: string[] = [];
    let total = 0;
    for (let i = 0; i < index.lower.length; i++) {
      if (!index.lower[i]!.startsWith(prefix)) continue;
      total++;
      if (matches.length < MAX_COMPLETION_VALUES) matches.push(index.values[i]!);
    }
    return boundCompletionValues(matches, total);
  }

  /** Runs an argument's `complete()` under the request's signal and the completion timeout; checks what it returns. */
  async #runCompleter(
    name: string,
    argumentName: string,
    complete: NonNullable<PromptArgumentDefinition['complete']>,
    value: string,
    context: RequestContext,
  ): Promise<string[]> {
    const outer = context.signal;
    let result: unknown;
    try {
      const given = Object.assign(Object.create(null) as Record<string, string>, context.arguments);
      result = await runWithDeadline((signal) => complete(value, { promptName: name, arguments: given, signal }), {
        signal: outer,
        timeoutMs: this.#completionTimeoutMs,
        timedOut: () =>
          new PromptError('INTERNAL_ERROR', `prompt '${name}' argument '${argumentName}' complete() took longer than ${this.#completionTimeoutMs} ms`),
        cancelled: () => cancelled(name, outer!),
      });
    } catch (error) {
      if (isAborted(outer)) throw cancelled(name, outer!);
      throw this.#reportRenderError(
        name,
        isPromptError(error)
          ? error
          : new PromptError('INTERNAL_ERROR', `prompt '${name}' argument '${argumentName}' complete() threw ${errorClassName(error)}`, { cause: error }),
      );
    }
    if (!Array.isArray(result)) return this.#badCompletion(name, argumentName);
    const values: string[] = new Array(result.length);
    for (let i = 0; i < result.length; i++) {
      const v: unknown = result[i]; // a hole reads as undefined: never null on the wire
      if (typeof v !== 'string') return this.#badCompletion(name, argumentName);
      values[i] = v;
    }
    return values;
  }

  #badCompletion(name: string, argumentName: string): never {
    throw this.#reportRenderError(name, new PromptError('INTERNAL_ERROR', `prompt '${name}' argument '${argumentName}' complete() must return an array of strings`));
  }

  /** Suggestable enum values (strings, numbers, booleans; never objects or null) with their lower case, once. */
  #enumOf(declared: readonly unknown[]): { values: string[]; lower: string[] } {
    let index = this.#enumIndex.get(declared);
    if (index === undefined) {
      const values = declared
        .filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
        .map(String);
      index = { values, lower: values.map((v) => v.toLowerCase()) };
      this.#enumIndex.set(declared, index);
    }
    return index;
  }

  #reportRenderError(name: string, error: unknown): PromptError {
    const err = toPromptError(error);
    if (!err.exposed) {
      this.#log.error({ event: 'prompt_failed', prompt: name, code: err.code, detail: err.message }, 'prompt request failed');
    }
    return err;
  }

  #compileBatch(definitions: PromptDefinition | readonly PromptDefinition[], options: RegisterOptions): CompiledPrompt[] {
    const list: readonly PromptDefinition[] = isDefinitionArray(definitions) ? definitions : [definitions];
    const compiled: CompiledPrompt[] = [];
    const seen = new Set<string>();
    try {
      const parseOptions: { source?: string; systemRole: SystemRolePolicy } = { systemRole: this.#systemRole };
      if (options.source !== undefined) parseOptions.source = options.source;
      for (const raw of list) {
        const def = parseWithLists(raw, parseOptions, this.#parsedLists);
        if (seen.has(def.name)) {
          throw createDefinitionError(
            [{ path: '/name', message: `prompt '${def.name}' appears twice in one batch` }],
            definitionErrorOptions(options.source, def.name),
          );
        }
        seen.add(def.name);
        compiled.push(compilePrompt(def, this.#compileEnv, options.source));
      }
    } catch (error) {
      for (const c of compiled) c.release();
      throw error;
    }
    return compiled;
  }

  #commit(compiled: CompiledPrompt[], type: 'add' | 'set', options: RegisterOptions): void {
    if (compiled.length === 0) return;
    const added: string[] = [];
    for (const c of compiled) {
      this.#withheld.delete(c.name);
      const version = typeof options.version === 'function' ? options.version(c.name) : options.version;
      if (version === undefined) this.#versions.delete(c.name);
      else this.#versions.set(c.name, version);
      const old = this.#prompts.get(c.name);
      this.#prompts.set(c.name, c);
      if (old === undefined) added.push(c.name);
      else old.release();
    }
    this.#sorted.insert(added);
    this.#allListings = undefined;
    this.#emit({ type, names: compiled.map((c) => c.name) });
  }

  #names(): string[] {
    return this.#sorted.all();
  }

  #allListingsArray(): Prompt[] {
    if (this.#allListings === undefined) this.#allListings = this.#names().map((n) => this.#prompts.get(n)!.listing);
    return this.#allListings;
  }

  /**
   * Delivers change events in the order the changes happened: a listener that changes the registry queues its
   * event behind the one being delivered, so every listener sees the same sequence.
   */
  #emit(event: RegistryChangeEvent): void {
    this.#pending.push(event);
    if (this.#emitting) return;
    this.#emitting = true;
    try {
      for (let next = this.#pending.shift(); next !== undefined; next = this.#pending.shift()) {
        for (const listener of [...this.#listeners]) {
          try {
            listener(next);
          } catch (error) {
            this.#log.error(
              { event: 'listener_failed', change: next.type, error: errorClassName(error) },
              'registry change listener threw',
            );
          }
        }
      }
    } finally {
      this.#emitting = false;
    }
  }
}

/** Read through a call so the compiler does not assume `aborted` stays what it was before an await. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function unknownPrompt(name: string): PromptError {
  return new PromptError('PROMPT_NOT_FOUND', `Unknown prompt: ${echoed(name)}`);
}

function cancelled(name: string, signal: AbortSignal): PromptError {
  return new PromptError('INTERNAL_ERROR', `prompt '${name}': request cancelled`, { cause: signal.reason });
}

function definitionErrorOptions(source: string | undefined, name: string): DefinitionErrorOptions {
  return source === undefined ? { name } : { source, name };
}

/** The `enum` of an argument declared only in the prompt's inputSchema, if any. */
function schemaEnum(prompt: CompiledPrompt, argumentName: string): readonly unknown[] | undefined {
  const props = schemaProperties(prompt.definition);
  if (!Object.hasOwn(props, argumentName)) return undefined;
  const property = props[argumentName];
  const values = isRecord(property) ? property['enum'] : undefined;
  return Array.isArray(values) ? values : undefined;
}

function isDefinitionArray(value: PromptDefinition | readonly PromptDefinition[]): value is readonly PromptDefinition[] {
  return Array.isArray(value);
}

function assertPositiveInteger(value: unknown, what: string, min = 1): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${what} must be ${min === 0 ? 'a non-negative' : 'a positive'} integer, got ${String(value)}`);
  }
}

function renderLimits(limits: Partial<RenderLimits> | undefined): RenderLimits {
  const out = { ...DEFAULT_RENDER_LIMITS };
  if (limits?.maxResources !== undefined) {
    assertPositiveInteger(limits.maxResources, 'limits.maxResources', 0);
    out.maxResources = limits.maxResources;
  }
  if (limits?.maxRenderedBytes !== undefined) {
    assertPositiveInteger(limits.maxRenderedBytes, 'limits.maxRenderedBytes');
    out.maxRenderedBytes = limits.maxRenderedBytes;
  }
  if (limits?.maxRenderSteps !== undefined) {
    assertPositiveInteger(limits.maxRenderSteps, 'limits.maxRenderSteps');
    out.maxRenderSteps = limits.maxRenderSteps;
  }
  if (limits?.resourceTimeoutMs !== undefined) {
    assertPositiveInteger(limits.resourceTimeoutMs, 'limits.resourceTimeoutMs');
    out.resourceTimeoutMs = limits.resourceTimeoutMs;
  }
  if (limits?.renderTimeoutMs !== undefined) {
    assertPositiveInteger(limits.renderTimeoutMs, 'limits.renderTimeoutMs');
    out.renderTimeoutMs = limits.renderTimeoutMs;
  }
  return out;
}

function copyPartials(partials: Readonly<Record<string, string>>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, text] of Object.entries(partials)) {
    if (typeof text !== 'string') {
      throw createDefinitionError([{ path: childPointer('/partials', name), message: `partial '${name}' must be a string` }]);
    }
    map.set(name, wellFormed(text));
  }
  return map;
}
