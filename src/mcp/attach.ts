/**
 * `attachPrompts`: serves a {@link PromptRegistry} from an official MCP SDK server (v1 or v2, low-level `Server` or
 * `McpServer`).
 *
 * @module
 */
import {
  JSON_RPC_ERROR_CODES,
  JsonRpcError,
  PromptError,
  errorClassName,
  isPromptError,
  toPromptError,
} from '../errors.js';
import { runWithDeadline } from '../deadline.js';
import { isRecord } from '../json.js';
import { toSafeLogger } from '../logger.js';
import { TIMEOUT_MS, integerOption } from '../options.js';
import type { Logger, SafeLogger } from '../logger.js';
import { createPromptHandlers } from '../protocol.js';
import type { HandlerExtra, PromptHandlers, PromptMethod } from '../protocol.js';
import type { PromptRegistry } from '../registry/registry.js';
import { PromptElicitation, declaresFormElicitation, retryOf, servesModernEra } from './elicit.js';
import type { ElicitationOptions } from './elicit.js';
import { announceDelayMs, checkDebounceMs, createListChangedNotifier } from './notifier.js';
import { changeDelayOf } from '../registry/change-delay.js';
import { checkCacheHints, ttlFor, withCacheHints } from './cache-hints.js';
import type { CacheHints } from './cache-hints.js';
import type { ListChangedNotifier } from './notifier.js';
import { registerRequestHandler } from './register.js';
import { followRegistry } from './registry-hub.js';
import type { ChangeTarget } from './registry-hub.js';
import type { SdkRequest } from './register.js';
import type { McpRequestInfo } from './request-info.js';
import { checkCompleteResult, readCompleteResourceParams } from './resource-completion.js';
import type { CompleteResource } from './resource-completion.js';
import { detectServer, isClientInitialized, speaksModernEra } from './server-shape.js';
import { operationsOf } from '../telemetry/telemetry.js';
import type { OperationInfo, Operations, Telemetry } from '../telemetry/telemetry.js';
import { metaFields, namedTarget, requestFields } from './telemetry.js';
import type { AttachableServer, DetectedServer, LowLevelServer } from './server-shape.js';

/** Options of {@link attachPrompts} (the "attachPrompts options" table of docs/mcp.md says more). */
export interface AttachPromptsOptions {
  /** Quiet period before one `prompts/list_changed` goes out (ms, default 50; at least every 10 × this). */
  debounceMs?: number;
  /**
   * Declare `prompts.listChanged` and send `list_changed` on registry changes (default true). Pass false where no
   * notification can reach the client (a stateless 2025-era fallback): then none is promised or sent.
   */
  listChanged?: boolean;
  /** Serve `completion/complete` and declare `completions` (default true). */
  completions?: boolean;
  /** Answers `ref/resource` completions from the same handler (see `completeFromResourceTemplates`). */
  completeResource?: CompleteResource;
  /** Per-request data for render functions (`context.extra`); JSON-RPC errors it throws pass as they are. */
  context?: (
    request: McpRequestInfo,
  ) => Readonly<Record<string, unknown>> | undefined | Promise<Readonly<Record<string, unknown>> | undefined>;
  /** pino-style logger for the adapter's own -32603 failures (class names, never messages). */
  logger?: Logger;
  /**
   * How long `context` and `completeResource` may take (ms, default 10,000): then -32603, logged. The request info
   * they get carries a signal that aborts when the request is cancelled or the time is up.
   */
  callbackTimeoutMs?: number;
  /**
   * Ask for missing arguments (default true): on the 2026-07-28 era, a prompts/get without required arguments from a
   * client that declared form elicitation gets a form to answer instead of -32602 (docs/mcp.md, "Asking for missing
   * arguments"). `false` turns it off; `{ secret }` shares the requestState key between servers.
   */
  elicitation?: boolean | ElicitationOptions;
  /**
   * `ttlMs` / `cacheScope` of `prompts/list` on the 2026-07-28 protocol, instead of the derived ones (the time
   * changes take to be announced; `public`, `private` for authenticated requests): docs/mcp.md, "Cache hints".
   */
  cacheHints?: CacheHints;
  /**
   * OpenTelemetry (from `createTelemetry`): a SERVER span and a duration per request, joined to the client's trace
   * from `params._meta` (docs/telemetry.md).
   */
  telemetry?: Telemetry;
}

/** @internal How long a registry callback may take when `callbackTimeoutMs` is left out. */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 10_000;

/** Removes what {@link attachPrompts} added: the request handlers, the registry subscription and pending timers. */
export type DetachPrompts = () => void;

/**
 * An error to send as it is: an Error carrying an integer JSON-RPC error code from the reserved range (-32768 to
 * -32000), as the SDKs' `McpError`/`ProtocolError` do. Other numeric codes (gRPC statuses, HTTP statuses, ...) are not
 * wire errors and stay internal.
 */
function isWireError(error: unknown): error is Error & { code: number } {
  if (!(error instanceof Error) || isPromptError(error)) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && Number.isInteger(code) && code >= -32768 && code <= -32000;
}

/** Where in the adapter's own layer a request failed; `registry` failures are the registry's to log. */
type Stage = 'request' | 'context' | 'completeResource' | 'result' | 'registry';

function checkContext(context: unknown): Readonly<Record<string, unknown>> | undefined {
  if (context === undefined || isRecord(context)) {
    return context;
  }
  throw new PromptError('INTERNAL_ERROR', 'options.context must return an object or undefined');
}

/** The state of one attachment. Request handlers hold it; the registry listener holds it only weakly. */
class Attachment implements ChangeTarget {
  detached = false;
  readonly notifier: ListChangedNotifier;

  constructor(
    readonly target: DetectedServer,
    readonly handlers: PromptHandlers,
    readonly methods: readonly PromptMethod[],
    readonly contextOf: AttachPromptsOptions['context'],
    readonly completeResource: CompleteResource | undefined,
    readonly log: SafeLogger,
    debounceMs: number,
    readonly callbackTimeoutMs: number,
    readonly elicitation: PromptElicitation | undefined,
    readonly cacheHints: CacheHints,
    /** The longest a registry change may take to be announced (its feeders' delay, then the debounce). */
    readonly announceMs: () => number,
  ) {
    const server = target.server;
    this.notifier = createListChangedNotifier(
      () => {
        try {
          // Fire and forget: a client that went away is not an error of ours.
          Promise.resolve(server.sendPromptListChanged()).catch(() => {});
        } catch {
          /* the SDK refused to send (for example the connection's protocol era has no such notification) */
        }
      },
      () => !this.detached && server.transport !== undefined && isClientInitialized(server),
      debounceMs,
    );
  }

  onRegistryChange(): void {
    this.notifier.trigger();
  }

  /** Serves one request inside its telemetry operation (span, duration, validation failures). */
  traced(ops: Operations, registry: PromptRegistry, method: PromptMethod, read: () => SdkRequest): Promise<unknown> {
    let request: SdkRequest;
    try {
      request = read();
    } catch {
      return this.handle(method, read); // answered (and logged) like any other fault
    }
    const { params, info: raw } = request;
    const target = this.target;
    const info: OperationInfo = { method };
    const name = method === 'prompts/list' ? undefined : namedTarget(method, params);
    if (name !== undefined) {
      info.promptName = name;
      if (registry.has(name)) info.target = name;
    }
    const details = (): Partial<OperationInfo> => {
      const more = requestFields(target.sdk, target.server, raw.raw);
      const served = method === 'prompts/get' && info.target !== undefined ? registry.servedVersion(name!) : undefined;
      return served === undefined ? more : { ...more, version: served.version, label: served.label };
    };
    return ops.run(
      info,
      metaFields(target.sdk, params, raw.raw),
      () => this.handle(method, () => request),
      undefined,
      details,
    );
  }

  async handle(method: PromptMethod, read: () => SdkRequest): Promise<unknown> {
    let stage: Stage = 'request';
    let signal: AbortSignal | undefined;
    try {
      const { params, info } = read();
      signal = info.signal;
      const extra: HandlerExtra = {};
      if (info.signal !== undefined) extra.signal = info.signal;
      if (this.contextOf !== undefined && method !== 'prompts/list') {
        stage = 'context';
        const contextOf = this.contextOf;
        const context = await this.withDeadline(info, 'context', (bounded) => contextOf(bounded));
        stage = 'result';
        const checked = checkContext(context);
        if (checked !== undefined) extra.context = checked;
      }
      if (method === 'completion/complete') {
        stage = 'request';
        const resource = readCompleteResourceParams(params);
        if (resource !== undefined) {
          if (this.completeResource === undefined) return { completion: { values: [], total: 0, hasMore: false } };
          stage = 'completeResource';
          const completeResource = this.completeResource;
          const result = await this.withDeadline(info, 'completeResource', (bounded) =>
            completeResource(resource, bounded),
          );
          stage = 'result';
          return checkCompleteResult(result);
        }
      }
      stage = 'registry';
      if (method === 'prompts/get' && this.elicitation !== undefined && servesModernEra(this.target)) {
        return await this.getAsking(this.elicitation, params, info.raw, extra);
      }
      const result = await this.handlers[method](params, extra);
      // 2026-07-28: a listing may be reused until its change could have been announced (2025 results stay as they are).
      if (method !== 'prompts/list' || !speaksModernEra(this.target.server)) return result;
      return withCacheHints(result as object, this.cacheHints, ttlFor(this.announceMs()), info.authInfo);
    } catch (error) {
      // Both SDKs forward a thrown error's numeric `code`, `message` and `data` to the client. A wire error thrown by
      // the caller's own code (context, completeResource) goes out as it is; anything else goes through the error
      // table (internal errors become a generic -32603).
      if (isWireError(error)) throw error;
      const wire = JsonRpcError.from(error);
      // A cancelled request is the client's choice, not a failure worth an error log.
      if (stage !== 'registry' && wire.code === JSON_RPC_ERROR_CODES.INTERNAL_ERROR && signal?.aborted !== true) {
        this.logFailure(method, stage, error);
      }
      throw wire;
    }
  }

  /**
   * prompts/get on the 2026-07-28 era: a retry gets the form's answers added to its arguments; a request missing
   * required arguments from a client that can answer a form gets the form. Every other outcome is today's.
   */
  private async getAsking(
    elicitation: PromptElicitation,
    params: unknown,
    raw: unknown,
    extra: HandlerExtra,
  ): Promise<unknown> {
    const retry = retryOf(raw);
    if (retry !== undefined) {
      return await this.handlers['prompts/get'](
        await elicitation.answered(params, retry.state, retry.responses),
        extra,
      );
    }
    try {
      return await this.handlers['prompts/get'](params, extra);
    } catch (error) {
      // Only the missing-arguments error carries `missing_arguments`: the one failure a form can mend.
      const data =
        error instanceof JsonRpcError ? (error.data as { missing_arguments?: unknown } | undefined) : undefined;
      if (!Array.isArray(data?.missing_arguments) || !declaresFormElicitation(raw)) throw error;
      const p = params as { name: string; arguments?: unknown };
      const asking = await elicitation.ask(p.name, p.arguments, data.missing_arguments as string[]);
      if (asking === undefined) throw error;
      return asking;
    }
  }

  /** Runs a callback with the request info's signal bounded by the request's cancellation and the callback timeout. */
  private withDeadline<T>(
    info: McpRequestInfo,
    option: string,
    run: (info: McpRequestInfo) => T | PromiseLike<T>,
  ): Promise<T> {
    const ms = this.callbackTimeoutMs;
    return runWithDeadline((signal) => run({ ...info, signal }), {
      signal: info.signal,
      timeoutMs: ms,
      timedOut: () => this.own(new PromptError('INTERNAL_ERROR', `options.${option} took longer than ${ms} ms`)),
      cancelled: () =>
        this.own(new PromptError('INTERNAL_ERROR', `request cancelled while waiting for options.${option}`)),
    });
  }

  /** Errors the adapter itself raised: their messages name a rule and no value, so they are logged as they are. */
  readonly #own = new WeakSet<PromptError>();

  private own(error: PromptError): PromptError {
    this.#own.add(error);
    return error;
  }

  /**
   * Logs a failure of the adapter's own layer that the client sees as a generic -32603. Only the class name of what
   * was thrown: the `context`/`completeResource` options are user code whose messages may quote argument values. The
   * message goes in `detail` only for the adapter's own result checks, whose messages name a rule and no value.
   */
  private logFailure(method: PromptMethod, stage: Exclude<Stage, 'registry'>, error: unknown): void {
    const fields: Record<string, unknown> = {
      event: 'mcp_request_failed',
      method,
      source: stage,
      code: toPromptError(error).code,
      error: errorClassName(error),
    };
    if (error instanceof PromptError && (stage === 'result' || this.#own.has(error))) fields['detail'] = error.message;
    this.log.error(fields, 'MCP request failed');
  }
}

/** The elicitation of an attachment: none for `false` and for SDK v1 servers (no 2026-07-28 era). */
function elicitationOf(
  registry: PromptRegistry,
  option: AttachPromptsOptions['elicitation'],
  target: DetectedServer,
): PromptElicitation | undefined {
  if (option === undefined || option === true)
    return target.sdk === 'v2' ? new PromptElicitation(registry, {}) : undefined;
  if (option === false) return undefined;
  if (typeof option !== 'object' || option === null) {
    throw new TypeError('attachPrompts: options.elicitation must be a boolean or { secret }');
  }
  const elicitation = new PromptElicitation(registry, option);
  return target.sdk === 'v2' ? elicitation : undefined;
}

/** The protocol handlers of a registry, built once: servers made per request share them. */
const handlersByRegistry = new WeakMap<PromptRegistry, PromptHandlers>();
function handlersOf(registry: PromptRegistry): PromptHandlers {
  let handlers = handlersByRegistry.get(registry);
  if (handlers === undefined) {
    handlers = createPromptHandlers(registry);
    handlersByRegistry.set(registry, handlers);
  }
  return handlers;
}

/** The logger of attachments given none. */
const SILENT = toSafeLogger(undefined);

/** Low-level servers with a live attachment: tells our own earlier attachPrompts() from someone else's handler. */
const attachedServers = new WeakSet<LowLevelServer>();

function conflictMessage(method: PromptMethod, target: DetectedServer): string {
  let owner: string;
  if (attachedServers.has(target.server)) {
    owner = 'attachPrompts() was already called on this server; call the detach() it returned first';
  } else if (method === 'completion/complete') {
    owner = target.viaMcpServer
      ? 'McpServer registered one for a resource template with complete callbacks (or a completable prompt argument). ' +
        'A server has ONE completion handler: pass { completeResource: completeFromResourceTemplates([template]) } so ' +
        'that attachPrompts answers both prompt and resource-template completions, or { completions: false } to keep ' +
        "McpServer's handler (which cannot complete these prompts)"
      : 'McpServer owns it if this is the `.server` of an McpServer (resource templates with complete callbacks): pass ' +
        'the McpServer itself with the completeResource option, or { completions: false } to keep the existing handler';
  } else {
    owner = target.viaMcpServer
      ? 'McpServer registers them when you call registerPrompt()/prompt() or pass capabilities.prompts to its ' +
        'constructor; serve prompts either through McpServer or through mcp-prompt-kit, not both'
      : 'McpServer owns it if this is the `.server` of an McpServer that serves prompts (registerPrompt()/prompt()); ' +
        'serve prompts either through McpServer or through mcp-prompt-kit, not both';
  }
  return `attachPrompts: the server already has a handler for ${method} (${owner}).`;
}

/**
 * Serves a registry's prompts from an official MCP SDK server (v1 or v2, `Server` or `McpServer`): `prompts/list`,
 * `prompts/get`, `completion/complete` and one `list_changed` per burst of changes. Call it before `connect()`;
 * returns `detach()`. Options and error rules: docs/mcp.md, "attachPrompts options".
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { PromptRegistry } from 'mcp-prompt-kit';
 * import { attachPrompts } from 'mcp-prompt-kit/mcp';
 *
 * const registry = new PromptRegistry();
 * registry.add({ name: 'greet', arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: 'Say hello to {{who}}' }] });
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * const detach = attachPrompts(server, registry);
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function attachPrompts(
  server: AttachableServer,
  registry: PromptRegistry,
  options: AttachPromptsOptions = {},
): DetachPrompts {
  const target = detectServer(server);
  if (typeof (registry as Partial<PromptRegistry> | null)?.onChange !== 'function') {
    throw new TypeError('attachPrompts(server, registry): registry must be a PromptRegistry');
  }
  const debounceMs = checkDebounceMs(options.debounceMs);
  const callbackTimeoutMs = integerOption('attachPrompts', 'callbackTimeoutMs', options.callbackTimeoutMs, {
    ...TIMEOUT_MS,
    default: DEFAULT_CALLBACK_TIMEOUT_MS,
  });
  if (options.completions !== undefined && typeof options.completions !== 'boolean') {
    throw new TypeError(`attachPrompts: options.completions must be a boolean, got ${typeof options.completions}`);
  }
  const completions = options.completions !== false;
  if (options.listChanged !== undefined && typeof options.listChanged !== 'boolean') {
    throw new TypeError(`attachPrompts: options.listChanged must be a boolean, got ${typeof options.listChanged}`);
  }
  const listChanged = options.listChanged !== false;
  if (options.context !== undefined && typeof options.context !== 'function') {
    throw new TypeError('attachPrompts: options.context must be a function');
  }
  const cacheHints = checkCacheHints('attachPrompts', options.cacheHints);
  if (options.logger !== undefined && (typeof options.logger !== 'object' || options.logger === null)) {
    throw new TypeError('attachPrompts: options.logger must be a pino-style logger object');
  }
  const ops = operationsOf('attachPrompts', options.telemetry);
  if (options.completeResource !== undefined) {
    if (typeof options.completeResource !== 'function') {
      throw new TypeError('attachPrompts: options.completeResource must be a function');
    }
    if (!completions) {
      throw new TypeError('attachPrompts: options.completeResource needs completions; drop { completions: false }');
    }
  }
  const elicitation = elicitationOf(registry, options.elicitation, target);
  if (target.server.transport !== undefined) {
    throw new Error(
      'attachPrompts: the server is already connected. Call attachPrompts() before server.connect(): the MCP SDK ' +
        'fixes the server capabilities (prompts, completions) when it connects.',
    );
  }

  const methods: PromptMethod[] = ['prompts/list', 'prompts/get'];
  if (completions) methods.push('completion/complete');
  let replaceMcpServerCompletion = false;
  for (const method of methods) {
    try {
      target.server.assertCanSetRequestHandler(method);
    } catch (cause) {
      // McpServer installed its completion handler for resource templates; completeResource answers those now.
      if (
        method === 'completion/complete' &&
        target.viaMcpServer &&
        options.completeResource !== undefined &&
        !attachedServers.has(target.server)
      ) {
        replaceMcpServerCompletion = true;
        continue;
      }
      throw new Error(conflictMessage(method, target), { cause });
    }
  }

  target.server.registerCapabilities(
    completions ? { prompts: { listChanged }, completions: {} } : { prompts: { listChanged } },
  );
  const attachment = new Attachment(
    target,
    handlersOf(registry),
    methods,
    options.context,
    options.completeResource,
    options.logger === undefined ? SILENT : toSafeLogger(options.logger),
    debounceMs,
    callbackTimeoutMs,
    elicitation,
    cacheHints,
    () => changeDelayOf(registry) + announceDelayMs(debounceMs),
  );
  if (replaceMcpServerCompletion) target.server.removeRequestHandler('completion/complete');
  const registered: PromptMethod[] = [];
  try {
    for (const method of methods) {
      registerRequestHandler(target.sdk, target.server, method, (m, read) =>
        ops === undefined || !ops.live() ? attachment.handle(m, read) : attachment.traced(ops, registry, m, read),
      );
      registered.push(method);
    }
  } catch (error) {
    for (const method of registered) target.server.removeRequestHandler(method);
    throw error;
  }
  attachedServers.add(target.server);

  // The registry (often long-lived) holds the attachment only weakly; the server's handlers hold it strongly. Without
  // list_changed there is nothing to listen for.
  const unfollow = listChanged ? followRegistry(registry, attachment) : () => {};

  return () => {
    if (attachment.detached) return;
    attachment.detached = true;
    unfollow();
    attachment.notifier.cancel();
    for (const method of attachment.methods) target.server.removeRequestHandler(method);
    attachedServers.delete(target.server);
  };
}
