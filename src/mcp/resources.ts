/**
 * `attachResources`: serves the documents prompts embed as MCP `resources/list` and `resources/read`, on an official
 * SDK server (v1 or v2), so that clients can read what `{{resource:...}}` directives embed.
 *
 * @module
 */
import { CursorCodec } from '../registry/cursor.js';
import { JsonRpcError, PromptError, errorClassName, isPromptError } from '../errors.js';
import { isRecord, jsonData } from '../json.js';
import { checkContents, wireContents } from '../render/directives.js';
import { MAX_VALUE_DEPTH } from '../render/limits.js';
import { toSafeLogger } from '../logger.js';
import { TIMEOUT_MS, integerOption } from '../options.js';
import type { Logger } from '../logger.js';
import type { ResourceContents } from '../resources.js';
import { upperBound } from '../registry/sorted-names.js';
import type { BlobResourceContents, ResourceLink, TextResourceContents } from '../types.js';
import { runWithDeadline } from '../deadline.js';
import { registerMethod } from './register.js';
import { tracedHandler } from './telemetry.js';
import { operationsOf } from '../telemetry/telemetry.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { requestAuthInfo, requestSignal } from './request-info.js';
import { checkCacheHints, ttlFor, withCacheHints } from './cache-hints.js';
import type { CacheHints } from './cache-hints.js';
import { detectServer, isClientInitialized, speaksModernEra } from './server-shape.js';
import type { AttachableServer, LowLevelServer } from './server-shape.js';

/** One entry of `resources/list` (an MCP `Resource`). */
export type ListedResource = Omit<ResourceLink, 'type'>;

/** What {@link attachResources} serves: `createFileResourceResolver` from `mcp-prompt-kit/fs` is one. */
export interface ResourceSource {
  /** Every resource, in any order (served sorted by URI, a page at a time). */
  listResources(): readonly ListedResource[] | Promise<readonly ListedResource[]>;
  /**
   * One page, when the source can give one without listing everything: up to `limit` resources with URIs after
   * `after` (all when undefined), sorted by URI, and whether more follow. Used instead of `listResources` when given.
   */
  listResourcesPage?(
    after: string | undefined,
    limit: number,
  ):
    | { resources: readonly ListedResource[]; more: boolean }
    | Promise<{ resources: readonly ListedResource[]; more: boolean }>;
  /** `resources/read`: throws PromptError RESOURCE_NOT_FOUND / RESOURCE_DENIED / LIMIT_EXCEEDED (-32602). */
  readResource(uri: string): { contents: ResourceContents[] } | Promise<{ contents: ResourceContents[] }>;
  /**
   * The longest time, in milliseconds, between a change of the listing or of a document and the `listChanged()` call
   * that announces it (`Infinity` or absent: changes are not announced). Bounds the `ttlMs` of the 2026-07-28
   * protocol (docs/mcp.md, "Cache hints"): absent, results are sent as immediately stale (`ttlMs: 0`).
   */
  readonly changeDelayMs?: number;
}

/** Options of {@link attachResources}. */
export interface AttachResourcesOptions {
  /** Resources per `resources/list` page (default 100, from 1 to 10,000). */
  pageSize?: number;
  /** pino-style logger: faults of the source (answered -32603) are logged with the URI, never file contents. */
  logger?: Logger;
  /** How long one `listResources` or `readResource` may take (ms, default 10,000): then -32603, logged. */
  timeoutMs?: number;
  /**
   * Declare `resources.listChanged` (default true): a promise to call `listChanged()` when the listing changes. Pass
   * false for a source that never changes, or where no notification can reach the client; `listChanged()` then sends
   * nothing.
   */
  listChanged?: boolean;
  /**
   * Serve `resources/subscribe` and `resources/unsubscribe` (2025-era clients) and declare `resources.subscribe`
   * (default false; on the 2026-07-28 era it lets `subscriptions/listen` streams ask for `resourceSubscriptions`):
   * then call `updated(uris)` whenever documents change, since a subscription promises
   * `notifications/resources/updated`. Subscribing checks that the URI reads (-32602 when not); at most 1,000 URIs
   * of 256 Ki characters in all per connection.
   */
  subscriptions?: boolean;
  /**
   * `ttlMs` / `cacheScope` of `resources/list` and `resources/read` on the 2026-07-28 protocol, instead of the
   * derived ones (the source's `changeDelayMs`, else 0; `public`, `private` for authenticated requests): docs/mcp.md,
   * "Cache hints".
   */
  cacheHints?: CacheHints;
  /** OpenTelemetry (from `createTelemetry`): a SERVER span and a duration per `resources/read` (docs/telemetry.md). */
  telemetry?: Telemetry;
}

/** What {@link attachResources} returns. */
export interface AttachedResources {
  /** Sends `notifications/resources/list_changed` (when declared, and a client is connected and initialized). */
  listChanged(): void;
  /**
   * Sends `notifications/resources/updated` for each of `uris` the client subscribed to (with `subscriptions: true`;
   * nothing otherwise). Returns how many were sent.
   */
  updated(uris: readonly string[]): number;
  /** Removes the request handlers. */
  detach(): void;
}

/** @internal Longest resource URI a client may ask for. */
export const MAX_URI_LENGTH = 8192;
/** @internal The page size and read timeout of {@link attachResources} when its options leave them out. */
export const DEFAULT_RESOURCES_OPTIONS = Object.freeze({ pageSize: 100, timeoutMs: 10_000 });

/**
 * Serves `source` as the server's `resources/list` (paginated, sorted by URI) and `resources/read`, and declares the
 * `resources` capability. Errors go through the one error table: unknown, denied or oversized documents are -32602,
 * anything else -32603 with a generic message (logged).
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 *
 * const resources = createFileResourceResolver({ roots: { architecture: './docs' } });
 * const server = new McpServer({ name: 'docs', version: '1.0.0' });
 * attachPrompts(server, new PromptRegistry({ resources }));
 * attachResources(server, resources);
 * ```
 */
export function attachResources(
  server: AttachableServer,
  source: ResourceSource,
  options: AttachResourcesOptions = {},
): AttachedResources {
  const { sdk, server: low } = detectServer(server);
  const pageSize = integerOption('attachResources', 'pageSize', options.pageSize, {
    min: 1,
    max: 10_000,
    default: DEFAULT_RESOURCES_OPTIONS.pageSize,
  });
  const timeoutMs = integerOption('attachResources', 'timeoutMs', options.timeoutMs, {
    ...TIMEOUT_MS,
    default: DEFAULT_RESOURCES_OPTIONS.timeoutMs,
  });
  if (options.listChanged !== undefined && typeof options.listChanged !== 'boolean') {
    throw new TypeError(`attachResources: options.listChanged must be a boolean, got ${typeof options.listChanged}`);
  }
  const declared = options.listChanged !== false;
  const cacheHints = checkCacheHints('attachResources', options.cacheHints);
  const log = toSafeLogger(options.logger);
  const ops = operationsOf('attachResources', options.telemetry);
  const cursors = new CursorCodec();
  /** A 2026-07-28 result carries the hints; a 2025 one is sent as it is. */
  const hinted = <T extends object>(result: T, extra: unknown): T => {
    if (!speaksModernEra(low)) return result;
    const delay = source.changeDelayMs;
    const ttlMs = ttlFor(typeof delay === 'number' ? delay : Infinity);
    return withCacheHints(result, cacheHints, ttlMs, requestAuthInfo(sdk, extra));
  };
  const timeouts = new WeakSet<PromptError>();
  /** Waits for the source until it answers, the request is cancelled or `timeoutMs` passes. */
  const bounded = <T>(method: string, extra: unknown, call: () => T | PromiseLike<T>): Promise<T> =>
    runWithDeadline(call, {
      signal: requestSignal(sdk, extra),
      timeoutMs,
      timedOut: () => {
        const error = new PromptError('INTERNAL_ERROR', `${method} took longer than ${timeoutMs} ms`);
        timeouts.add(error);
        return error;
      },
      cancelled: () => new PromptError('INTERNAL_ERROR', `${method}: request cancelled`),
    });

  const fail = (method: string, uri: string | undefined, error: unknown, extra: unknown): never => {
    if (error instanceof JsonRpcError || isPromptError(error)) {
      const wire = JsonRpcError.from(error);
      if (wire.code !== -32603) throw wire;
    }
    // A cancelled request is the client's choice, not a fault of the source.
    if (requestSignal(sdk, extra)?.aborted === true)
      throw JsonRpcError.from(new PromptError('INTERNAL_ERROR', 'Internal error'));
    const fields: Record<string, unknown> = { event: 'mcp_request_failed', method, error: errorClassName(error) };
    if (uri !== undefined) fields['uri'] = uri;
    if (error instanceof PromptError && timeouts.has(error)) fields['detail'] = error.message;
    log.error(fields, `${method} failed`);
    throw JsonRpcError.from(new PromptError('INTERNAL_ERROR', 'Internal error'));
  };

  /** A page the source cut itself (O(page) for an indexed source). */
  const pageFromSource = async (
    cursor: string | undefined,
    extra: unknown,
  ): Promise<{ resources: ListedResource[]; nextCursor?: string }> => {
    let after: string | undefined;
    if (cursor !== undefined) {
      try {
        after = cursors.decode(cursor);
      } catch (error) {
        throw JsonRpcError.from(error);
      }
    }
    let page: ListedResource[];
    let more: boolean;
    try {
      const answer: unknown = await bounded('resources/list', extra, () => source.listResourcesPage!(after, pageSize));
      if (!isRecord(answer) || typeof answer['more'] !== 'boolean')
        throw new PromptError('INTERNAL_ERROR', 'listResourcesPage() did not return {resources, more}');
      page = listedResources(answer['resources']).slice(0, pageSize);
      more = answer['more'];
    } catch (error) {
      return fail('resources/list', undefined, error, extra);
    }
    const last = page[page.length - 1];
    return more && last !== undefined ? { resources: page, nextCursor: cursors.encode(last.uri) } : { resources: page };
  };

  const subscriptions = options.subscriptions === true ? new ResourceSubscriptions(low) : undefined;
  low.registerCapabilities({
    resources: { listChanged: declared, ...(subscriptions === undefined ? {} : { subscribe: true }) },
  });
  registerMethod(sdk, low, 'resources/list', async (params, extra) => {
    const cursor = optionalString(params, 'cursor', 1024);
    if (source.listResourcesPage !== undefined) return hinted(await pageFromSource(cursor, extra), extra);
    let all: readonly ListedResource[];
    try {
      all = listedResources(await bounded('resources/list', extra, () => source.listResources()));
    } catch (error) {
      return fail('resources/list', undefined, error, extra);
    }
    const sorted = [...all].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
    let start = 0;
    if (cursor !== undefined) {
      try {
        start = upperBound(sorted, cursors.decode(cursor), (entry) => entry.uri);
      } catch (error) {
        throw JsonRpcError.from(error);
      }
    }
    const page = sorted.slice(start, start + pageSize).map((entry) => ({ ...entry }));
    const last = page[page.length - 1];
    return hinted(
      start + pageSize < sorted.length && last !== undefined
        ? { resources: page, nextCursor: cursors.encode(last.uri) }
        : { resources: page },
      extra,
    );
  });
  const readUri = (params: unknown): { resourceUri?: string } => {
    const uri = (params as { uri?: unknown } | undefined)?.uri;
    return typeof uri === 'string' && uri.length <= MAX_URI_LENGTH ? { resourceUri: uri } : {};
  };
  registerMethod(
    sdk,
    low,
    'resources/read',
    tracedHandler(ops, sdk, low, 'resources/read', readUri, async (params, extra) => {
      const uri = requiredUri(params);
      try {
        const result = readResult(uri, await bounded('resources/read', extra, () => source.readResource(uri)));
        return hinted(result, extra);
      } catch (error) {
        return fail('resources/read', uri, error, extra);
      }
    }),
  );

  if (subscriptions !== undefined) {
    registerMethod(sdk, low, 'resources/subscribe', async (params, extra) => {
      const uri = requiredUri(params);
      // Only what reads can be subscribed to: an unknown or denied URI is the same -32602 a read gets.
      try {
        readResult(uri, await bounded('resources/subscribe', extra, () => source.readResource(uri)));
      } catch (error) {
        return fail('resources/subscribe', uri, error, extra);
      }
      subscriptions.add(uri);
      return {};
    });
    registerMethod(sdk, low, 'resources/unsubscribe', async (params) => {
      subscriptions.delete(requiredUri(params));
      return {};
    });
  }

  let detached = false;
  return {
    listChanged() {
      if (declared && !detached) sendListChanged(low);
    },
    updated(uris) {
      return detached || subscriptions === undefined ? 0 : subscriptions.updated(uris);
    },
    detach() {
      if (detached) return;
      detached = true;
      low.removeRequestHandler('resources/list');
      low.removeRequestHandler('resources/read');
      if (subscriptions === undefined) return;
      low.removeRequestHandler('resources/subscribe');
      low.removeRequestHandler('resources/unsubscribe');
      subscriptions.clear();
    },
  };
}

/** The source's listing as the wire needs it: uri and name strings, well-formed text, plain data; else a fault. */
function listedResources(value: unknown): ListedResource[] {
  if (!Array.isArray(value)) throw new PromptError('INTERNAL_ERROR', 'listResources() did not return an array');
  const budget = { maxDepth: MAX_VALUE_DEPTH, size: Number.MAX_SAFE_INTEGER };
  return value.map((entry, i) => {
    const copy = isRecord(entry) ? jsonData(entry, budget) : undefined;
    if (!isRecord(copy) || typeof copy['uri'] !== 'string' || copy['uri'] === '' || typeof copy['name'] !== 'string') {
      throw new PromptError('INTERNAL_ERROR', `listResources() entry ${i} has no string uri and name`);
    }
    return copy as unknown as ListedResource;
  });
}

/** The source's read answer, checked and sent as embedded documents are (text, or base64 blob; well-formed). */
function readResult(uri: string, value: unknown): { contents: (TextResourceContents | BlobResourceContents)[] } {
  const contents = isRecord(value) ? value['contents'] : undefined;
  if (!Array.isArray(contents))
    throw new PromptError('INTERNAL_ERROR', `readResource(${uri}) did not return {contents: [...]}`);
  return { contents: contents.map((entry: unknown) => wireContents(checkContents(uri, entry, false), uri)) };
}

function sendListChanged(low: LowLevelServer): void {
  const send = (low as unknown as { sendResourceListChanged?: () => Promise<void> | void }).sendResourceListChanged;
  if (typeof send !== 'function' || low.transport === undefined || !isClientInitialized(low)) return;
  try {
    void Promise.resolve(send.call(low)).catch(() => undefined);
  } catch {
    /* a closed transport: nothing to notify */
  }
}

/** `params.uri`: a string of at most {@link MAX_URI_LENGTH} characters, else -32602. */
function requiredUri(params: unknown): string {
  const uri = optionalString(params, 'uri', MAX_URI_LENGTH);
  if (uri === undefined) throw JsonRpcError.from(new PromptError('INVALID_PARAMS', 'params.uri must be a string'));
  return uri;
}

/** The string at `params[key]`, undefined when absent; -32602 when it is not a string or is longer than `max`. */
function optionalString(params: unknown, key: string, max: number): string | undefined {
  if (params === undefined) return undefined;
  if (!isRecord(params)) throw JsonRpcError.from(new PromptError('INVALID_PARAMS', 'params must be an object'));
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw JsonRpcError.from(new PromptError('INVALID_PARAMS', `params.${key} must be a string`));
  }
  if (value.length > max) {
    throw JsonRpcError.from(new PromptError('INVALID_PARAMS', `params.${key} exceeds ${max} characters`));
  }
  return value;
}
