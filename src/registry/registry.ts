/**
 * PromptRegistry: an in-memory snapshot of compiled prompts with list/get/complete and change events.
 *
 * @module
 */
import { ArgumentValidatorCache } from '../arguments/cache.js';
import type { ArgumentValidationOptions } from '../arguments/types.js';
import { parseWithLists } from '../definition/parse.js';
import { createDefinitionError } from '../definition/problems.js';
import type { DefinitionErrorOptions } from '../definition/problems.js';
import { ParsedLists } from '../definition/reuse.js';
import type { PromptDefinition, SystemRolePolicy } from '../definition/types.js';
import { PromptError } from '../errors.js';
import type { SafeLogger } from '../logger.js';
import { toSafeLogger } from '../logger.js';
import type { RenderEnvironment } from '../render/messages.js';
import { TemplateCache } from '../render/template.js';
import type { ResourceResolver } from '../resources.js';
import type { GetPromptResult, ListPromptsResult, Prompt } from '../types.js';
import { ChangeEvents } from './change-events.js';
import type { RegistryChangeEvent } from './change-events.js';
import { compilePrompt, validateArguments } from './compile.js';
import type { CompileEnvironment, CompiledPrompt } from './compile.js';
import { boundCompletionValues, checkCompletionInput } from './completion.js';
import type { CompletionValues } from './completion.js';
import { CursorCodec } from './cursor.js';
import { EnumCompletions, schemaEnum } from './enum-completion.js';
import { NameTable } from './name-table.js';
import { TIMEOUT_MS, integerOption } from '../options.js';
import { COUNT, DEFAULT_COMPLETION_TIMEOUT_MS, OWNER, copyPartials, renderLimits } from './options.js';
import type { ListOptions, PromptRegistryOptions, RegisterOptions, RequestContext } from './options.js';
import { cancelled, isAborted, reportRenderError, unknownPrompt } from './request-errors.js';
import { runCompleter } from './run-completer.js';
import { SortedNames } from './sorted-names.js';

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
  readonly #cursors = new CursorCodec();
  readonly #compileEnv: CompileEnvironment;
  readonly #renderEnv: RenderEnvironment;
  readonly #log: SafeLogger;
  readonly #pageSize: number | undefined;
  readonly #systemRole: SystemRolePolicy;
  readonly #completionTimeoutMs: number;
  readonly #versions = new Map<string, string | number>();
  /** The store label each prompt was registered under (by syncRegistry), by name. */
  readonly #labels = new Map<string, string>();
  /** Prompts withheld because their source is broken: name -> reason (logged, never sent). */
  readonly #withheld = new Map<string, string>();
  readonly #logServed: boolean;
  readonly #events: ChangeEvents;
  readonly #enums = new EnumCompletions();

  constructor(options: PromptRegistryOptions = {}) {
    this.#log = toSafeLogger(options.logger);
    this.#logServed = typeof options.logger?.debug === 'function';
    this.#events = new ChangeEvents(this.#log);
    this.#pageSize =
      options.pageSize === undefined ? undefined : integerOption(OWNER, 'pageSize', options.pageSize, COUNT);
    this.#systemRole = options.systemRole ?? 'reject';
    this.#completionTimeoutMs = integerOption(OWNER, 'completionTimeoutMs', options.completionTimeoutMs, {
      ...TIMEOUT_MS,
      default: DEFAULT_COMPLETION_TIMEOUT_MS,
    });
    const partials = options.partials === undefined ? undefined : copyPartials(options.partials);
    const limits = renderLimits(options.limits);
    const validation: ArgumentValidationOptions = {};
    if (options.maxArgumentLength !== undefined)
      validation.maxLength = integerOption(OWNER, 'maxArgumentLength', options.maxArgumentLength, COUNT);
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
        [
          {
            path: '/name',
            message: `a prompt named '${duplicate.name}' is already registered (use set() to replace it)`,
          },
        ],
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
      this.#labels.delete(name);
      const old = this.#prompts.get(name);
      if (old === undefined) continue;
      this.#prompts.delete(name);
      old.release();
      removed.push(name);
    }
    if (removed.length === 0) return false;
    this.#sorted.remove(removed);
    this.#allListings = undefined;
    this.#events.emit({ type: 'remove', names: removed });
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
   * The version (and store label) a prompt was registered with, as `add`/`set` were given them (`syncRegistry` gives
   * the store's); undefined for a prompt registered without a version, or not registered.
   *
   * @example
   * ```ts
   * registry.set({ name: 'greet', messages: [{ role: 'user', content: 'Hello' }] }, { version: 3, label: 'production' });
   * registry.servedVersion('greet'); // { version: 3, label: 'production' }
   * ```
   */
  servedVersion(name: string): { version: string | number; label?: string } | undefined {
    const version = this.#versions.get(name);
    if (version === undefined || !this.#prompts.has(name)) return undefined;
    const label = this.#labels.get(name);
    return label === undefined ? { version } : { version, label };
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
   * The registered definition of one prompt (as parsed when it was added), or undefined.
   *
   * @example
   * ```ts
   * registry.definition('review_code')?.arguments?.[0]?.name; // 'code'
   * ```
   */
  definition(name: string): PromptDefinition | undefined {
    return this.#prompts.get(name)?.definition;
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
    return this.#events.add(listener);
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
    if (options.pageSize !== undefined) integerOption('PromptRegistry.list', 'pageSize', options.pageSize, COUNT);
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
      return Promise.reject(reportRenderError(this.#log, name, error));
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
    this.#log.debug(
      version === undefined
        ? { event: 'prompt_served', prompt: name }
        : { event: 'prompt_served', prompt: name, version },
      'prompt served',
    );
  }

  /** The error for a name that is not served: withheld (-32603, logged) or unknown (-32602). */
  #missing(name: string): PromptError {
    const reason = this.#withheld.get(name);
    if (reason === undefined) return unknownPrompt(name);
    return reportRenderError(
      this.#log,
      name,
      new PromptError('INTERNAL_ERROR', `prompt '${name}' is withheld: ${reason}`),
    );
  }

  #renderFailure(name: string, signal: AbortSignal | undefined, error: unknown): PromptError {
    if (isAborted(signal)) {
      // The caller gave up: whatever failed because of that is not a server fault worth an error log.
      this.#log.debug({ event: 'prompt_cancelled', prompt: name }, 'prompt request cancelled');
      return cancelled(name, signal!);
    }
    return reportRenderError(this.#log, name, error);
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
  async complete(
    name: string,
    argumentName: string,
    value: string,
    context: RequestContext = {},
  ): Promise<CompletionValues> {
    const prompt = this.#prompts.get(name);
    if (prompt === undefined) throw this.#missing(name);
    checkCompletionInput(value, context.arguments);
    const arg = prompt.argument(argumentName);
    if (arg?.complete !== undefined) {
      const all = await runCompleter(
        name,
        argumentName,
        arg.complete,
        value,
        context,
        this.#completionTimeoutMs,
        this.#log,
      );
      return boundCompletionValues(all, all.length);
    }
    const declared = arg?.enum ?? schemaEnum(prompt.definition, argumentName);
    if (declared === undefined) return { values: [], total: 0, hasMore: false };
    return this.#enums.complete(declared, value);
  }

  #compileBatch(
    definitions: PromptDefinition | readonly PromptDefinition[],
    options: RegisterOptions,
  ): CompiledPrompt[] {
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
      if (options.label === undefined) this.#labels.delete(c.name);
      else this.#labels.set(c.name, options.label);
      const old = this.#prompts.get(c.name);
      this.#prompts.set(c.name, c);
      if (old === undefined) added.push(c.name);
      else old.release();
    }
    this.#sorted.insert(added);
    this.#allListings = undefined;
    this.#events.emit({ type, names: compiled.map((c) => c.name) });
  }

  #names(): string[] {
    return this.#sorted.all();
  }

  #allListingsArray(): Prompt[] {
    if (this.#allListings === undefined) this.#allListings = this.#names().map((n) => this.#prompts.get(n)!.listing);
    return this.#allListings;
  }
}

function definitionErrorOptions(source: string | undefined, name: string): DefinitionErrorOptions {
  return source === undefined ? { name } : { source, name };
}

function isDefinitionArray(
  value: PromptDefinition | readonly PromptDefinition[],
): value is readonly PromptDefinition[] {
  return Array.isArray(value);
}
