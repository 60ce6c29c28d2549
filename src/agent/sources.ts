/** Integrations as one shape: an SDK Client (v1 or v2), a PromptRegistry, or any object with `getPrompt`. */
import { isRecord } from '../json.js';
import { v1MethodSchema } from '../sdk/method-schemas.js';
import { PromptRegistry } from '../registry/registry.js';
import type { GetPromptResult, ListPromptsResult } from '../types.js';

/** Per-call options a source receives. */
export interface SourceCallOptions {
  signal: AbortSignal;
  /** `params._meta` to send (for example `traceparent`). */
  meta?: Readonly<Record<string, string>>;
}

/** Any prompt source: what {@link createPromptRetrievalTool} needs from an integration. */
export interface PromptSource {
  getPrompt(name: string, args: Readonly<Record<string, string>>, options: SourceCallOptions): Promise<GetPromptResult>;
  listPrompts?(cursor: string | undefined, options: { signal: AbortSignal }): Promise<ListPromptsResult>;
  /** Calls `listener` when the source's prompt list changes; returns the unsubscribe function. */
  onListChanged?(listener: () => void): () => void;
}

/** The structural view of an SDK `Client` (v1 `@modelcontextprotocol/sdk` or v2 `@modelcontextprotocol/client`). */
export interface SdkClientLike {
  getPrompt(params: never, options?: never): Promise<unknown>;
  listPrompts(params?: never, options?: never): Promise<unknown>;
  setNotificationHandler(...args: never[]): unknown;
  getServerCapabilities(): unknown;
}

/** What an integration may be. */
export type Integration = PromptSource | PromptRegistry | SdkClientLike;

function isSdkClient(value: unknown): value is SdkClientLike {
  return (
    isRecord(value) &&
    typeof value['getPrompt'] === 'function' &&
    typeof value['listPrompts'] === 'function' &&
    typeof value['setNotificationHandler'] === 'function' &&
    typeof value['getServerCapabilities'] === 'function'
  );
}

/** @internal One integration as a {@link PromptSource}; throws a TypeError naming what it accepts. */
export function toPromptSource(id: string, integration: unknown): PromptSource {
  if (integration instanceof PromptRegistry) return registrySource(integration);
  if (isSdkClient(integration)) return clientSource(integration);
  if (isRecord(integration) && typeof integration['getPrompt'] === 'function')
    return integration as unknown as PromptSource;
  throw new TypeError(
    `createPromptRetrievalTool: integration '${id}' must be an MCP SDK Client (v1 or v2), a PromptRegistry, or an object with getPrompt(name, args, {signal})`,
  );
}

function registrySource(registry: PromptRegistry): PromptSource {
  return {
    getPrompt: (name, args, { signal }) => registry.getPrompt(name, args, { signal }),
    listPrompts: (cursor) => Promise.resolve(registry.list(cursor === undefined ? {} : { cursor })),
    onListChanged: (listener) => registry.onChange(() => listener()),
  };
}

type ClientCall = (params: unknown, options: unknown) => Promise<unknown>;

function clientSource(client: SdkClientLike): PromptSource {
  const call = (method: 'getPrompt' | 'listPrompts'): ClientCall =>
    (client[method] as unknown as ClientCall).bind(client);
  const getPrompt = call('getPrompt');
  const listPrompts = call('listPrompts');
  return {
    getPrompt: async (name, args, { signal, meta }) => {
      const params: Record<string, unknown> = { name, arguments: args };
      if (meta !== undefined) params['_meta'] = meta;
      // The SDK's own timeout stays out of the way: the tool's timeout answers first.
      return (await getPrompt(params, { signal, timeout: 2 ** 31 - 1 })) as GetPromptResult;
    },
    listPrompts: async (cursor, { signal }) =>
      (await listPrompts(cursor === undefined ? {} : { cursor }, { signal })) as ListPromptsResult,
    onListChanged: (listener) => onClientListChanged(client, listener),
  };
}

/** Installs the client's `notifications/prompts/list_changed` handler (v2 by method name, v1 by a schema object). */
function onClientListChanged(client: SdkClientLike, listener: () => void): () => void {
  const method = 'notifications/prompts/list_changed';
  const set = client.setNotificationHandler.bind(client) as (key: unknown, handler: () => void) => unknown;
  let active = true;
  const handler = (): void => {
    if (active) listener();
  };
  try {
    set(method, handler); // SDK v2
  } catch {
    set(v1MethodSchema(method), handler); // SDK v1 reads the method from a Zod-shaped schema
  }
  return () => {
    active = false;
  };
}
