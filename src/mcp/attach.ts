/**
 * `attachPrompts`: serves a {@link PromptRegistry} from an official MCP SDK server (v1 or v2, low-level `Server` or
 * `McpServer`).
 *
 * @module
 */
import { JsonRpcError, createPromptHandlers } from '../protocol.js';
import type { HandlerExtra, PromptHandlers, PromptMethod } from '../protocol.js';
import type { PromptRegistry } from '../registry.js';
import { checkDebounceMs, createListChangedNotifier } from './notifier.js';
import type { ListChangedNotifier } from './notifier.js';
import { registerRequestHandler } from './register.js';
import type { McpRequestInfo } from './request-info.js';
import { detectServer } from './server-shape.js';
import type { AttachableServer, DetectedServer } from './server-shape.js';

/** Options of {@link attachPrompts}. */
export interface AttachPromptsOptions {
  /**
   * Registry changes within this many milliseconds are announced with ONE `notifications/prompts/list_changed`
   * (default 50).
   */
  debounceMs?: number;
  /**
   * Serve `completion/complete` and declare the `completions` capability (default true). Set false when the server
   * already answers completions itself (for example an `McpServer` with resource-template completions).
   */
  completions?: boolean;
  /**
   * Builds the per-request context passed to programmatic `render` functions as `context.extra` (for example the
   * authenticated user from `request.authInfo`). A throw becomes -32603 with a generic message.
   */
  context?: (
    request: McpRequestInfo,
  ) => Readonly<Record<string, unknown>> | undefined | Promise<Readonly<Record<string, unknown>> | undefined>;
}

/** Removes what {@link attachPrompts} added: the request handlers, the registry subscription and pending timers. */
export type DetachPrompts = () => void;

/** The state of one attachment. Request handlers hold it; the registry listener holds it only weakly. */
class Attachment {
  detached = false;
  readonly notifier: ListChangedNotifier;

  constructor(
    readonly target: DetectedServer,
    readonly handlers: PromptHandlers,
    readonly methods: readonly PromptMethod[],
    readonly contextOf: AttachPromptsOptions['context'],
    debounceMs: number,
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
      () => !this.detached && server.transport !== undefined,
      debounceMs,
    );
  }

  async handle(method: PromptMethod, params: unknown, info: McpRequestInfo): Promise<unknown> {
    try {
      const extra: HandlerExtra = {};
      if (info.signal !== undefined) extra.signal = info.signal;
      if (this.contextOf !== undefined) {
        const context = await this.contextOf(info);
        if (context !== undefined) extra.context = context;
      }
      return await this.handlers[method](params, extra);
    } catch (error) {
      // Both SDKs forward a thrown error's numeric `code`, `message` and `data` to the client. Anything that is not
      // already a wire error goes through the error table (internal errors become a generic -32603).
      throw JsonRpcError.from(error);
    }
  }
}

/**
 * Unsubscribes a registry listener once its attachment has been garbage-collected: a server created per request
 * (stateless HTTP) that is dropped without calling detach() must not leave a listener behind on a long-lived
 * registry.
 */
const orphanedListeners = new FinalizationRegistry<() => void>((unsubscribe) => unsubscribe());

/**
 * Subscribes to registry changes holding the attachment only through `ref`. A module-level function on purpose:
 * a closure created inside attachPrompts would share its scope, and with it a strong reference to the attachment.
 */
function subscribeWeakly(registry: PromptRegistry, ref: WeakRef<Attachment>): () => void {
  let unsubscribe: () => void = () => {};
  unsubscribe = registry.onChange(() => {
    const live = ref.deref();
    if (live === undefined) unsubscribe();
    else live.notifier.trigger();
  });
  return unsubscribe;
}

function conflictMessage(method: PromptMethod, target: DetectedServer): string {
  const owner =
    method === 'completion/complete'
      ? 'McpServer registers one for completable prompt arguments and resource templates with complete callbacks; ' +
        'pass { completions: false } to keep it'
      : target.viaMcpServer
        ? 'McpServer registers them when you call registerPrompt()/prompt() or pass capabilities.prompts to its ' +
          'constructor; serve prompts either through McpServer or through mcp-prompt-kit, not both'
        : 'was attachPrompts() already called on this server?';
  return `attachPrompts: the server already has a handler for ${method} (${owner}).`;
}

/**
 * Serves a registry's prompts from an official MCP SDK server: registers `prompts/list`, `prompts/get` and
 * `completion/complete`, declares the capabilities `prompts: {listChanged: true}` and `completions: {}`, and sends
 * `notifications/prompts/list_changed` once per burst of registry changes while the server is connected.
 *
 * Works with SDK v1 (`@modelcontextprotocol/sdk`) and v2 (`@modelcontextprotocol/server`), low-level `Server` or
 * `McpServer` (tools and resources registered through McpServer keep working). Call it BEFORE `connect()`: the SDK
 * fixes capabilities when it connects, so attaching to a connected server throws.
 *
 * Setup mistakes (not a server, already connected, another prompts handler present, bad options) throw a plain
 * `TypeError`/`Error`/`RangeError` at once: they are programming errors with no JSON-RPC or HTTP meaning, so they are
 * not `PromptError`s.
 *
 * Errors reach clients intact: unknown prompt -> -32602 `Unknown prompt: <name>`; missing arguments -> -32602 with
 * `data.missing_arguments`, `provided_count`, `required_count`; internal failures -> -32603 `Internal error`.
 *
 * @returns `detach()`, synchronous: removes the three handlers, the registry subscription and any pending
 *   notification (declared capabilities stay, the SDK cannot take them back).
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
  if (options.context !== undefined && typeof options.context !== 'function') {
    throw new TypeError('attachPrompts: options.context must be a function');
  }
  if (target.server.transport !== undefined) {
    throw new Error(
      'attachPrompts: the server is already connected. Call attachPrompts() before server.connect(): the MCP SDK ' +
        'fixes the server capabilities (prompts, completions) when it connects.',
    );
  }

  const methods: PromptMethod[] = ['prompts/list', 'prompts/get'];
  if (options.completions !== false) methods.push('completion/complete');
  for (const method of methods) {
    try {
      target.server.assertCanSetRequestHandler(method);
    } catch (cause) {
      throw new Error(conflictMessage(method, target), { cause });
    }
  }

  target.server.registerCapabilities(
    options.completions !== false ? { prompts: { listChanged: true }, completions: {} } : { prompts: { listChanged: true } },
  );
  const attachment = new Attachment(target, createPromptHandlers(registry), methods, options.context, debounceMs);
  const registered: PromptMethod[] = [];
  try {
    for (const method of methods) {
      registerRequestHandler(target.sdk, target.server, method, (m, params, info) => attachment.handle(m, params, info));
      registered.push(method);
    }
  } catch (error) {
    for (const method of registered) target.server.removeRequestHandler(method);
    throw error;
  }

  // The registry (often long-lived) holds the attachment only weakly; the server's handlers hold it strongly.
  const unsubscribe = subscribeWeakly(registry, new WeakRef(attachment));
  orphanedListeners.register(attachment, unsubscribe, attachment);

  return () => {
    if (attachment.detached) return;
    attachment.detached = true;
    unsubscribe();
    orphanedListeners.unregister(attachment);
    attachment.notifier.cancel();
    for (const method of attachment.methods) target.server.removeRequestHandler(method);
  };
}
