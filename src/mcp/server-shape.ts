/**
 * Structural view of the official MCP SDK servers, and detection of which one we were given. Nothing here imports
 * an SDK: a server is recognised by its shape, so `mcp-prompt-kit/mcp` loads whether SDK v1, v2 or neither is
 * installed.
 *
 * @module
 */

/**
 * The low-level server of either SDK: `Server` from `@modelcontextprotocol/sdk/server/index.js` (v1) or from
 * `@modelcontextprotocol/server` (v2). Parameters are typed `never` so both SDKs' overloaded methods fit.
 */
export interface SdkServerLike {
  setRequestHandler(...args: never[]): unknown;
  removeRequestHandler(method: never): unknown;
  assertCanSetRequestHandler(method: never): unknown;
  registerCapabilities(capabilities: never): unknown;
  sendPromptListChanged(...args: never[]): unknown;
  /** Set while connected (both SDKs). */
  readonly transport?: unknown;
}

/** The high-level `McpServer` of either SDK: its low-level server is `.server`. */
export interface SdkMcpServerLike {
  readonly server: SdkServerLike;
}

/** Anything {@link attachPrompts} accepts: a low-level `Server` or an `McpServer`, from SDK v1 or v2. */
export type AttachableServer = SdkServerLike | SdkMcpServerLike;

/** Which SDK major a server comes from. */
export type SdkVersion = 'v1' | 'v2';

/** @internal The low-level server as the adapter calls it (one shape per SDK major). */
export interface LowLevelServer {
  setRequestHandler(...args: unknown[]): void;
  removeRequestHandler(method: string): void;
  assertCanSetRequestHandler(method: string): void;
  registerCapabilities(capabilities: Record<string, unknown>): void;
  sendPromptListChanged(): Promise<void> | void;
  readonly transport?: unknown;
  /** Both SDKs: the client's capabilities, set when the client's `initialize` request arrives. */
  getClientCapabilities?(): unknown;
  /** SDK v2: the protocol version of the connection (2025 era: set by `initialize`; 2026-07-28 era: at once). */
  getNegotiatedProtocolVersion?(): unknown;
}

/** @internal What {@link detectServer} found. */
export interface DetectedServer {
  sdk: SdkVersion;
  server: LowLevelServer;
  /** Whether we were given an `McpServer` (and attach to its `.server`). */
  viaMcpServer: boolean;
}

const REQUIRED_METHODS = [
  'setRequestHandler',
  'removeRequestHandler',
  'assertCanSetRequestHandler',
  'registerCapabilities',
  'sendPromptListChanged',
] as const;

function isLowLevelServer(value: unknown): value is LowLevelServer {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return REQUIRED_METHODS.every((name) => typeof record[name] === 'function');
}

/**
 * v2 registers handlers by method string (`setRequestHandler(method, handler)` or `(method, schemas, handler)`);
 * v1 by zod request schema (`setRequestHandler(schema, handler)`). v2's Server also has
 * `getNegotiatedProtocolVersion()`, which v1's lacks.
 */
function sdkOf(server: LowLevelServer): SdkVersion {
  const record = server as unknown as Record<string, unknown>;
  if (typeof record['getNegotiatedProtocolVersion'] === 'function') return 'v2';
  return server.setRequestHandler.length >= 3 ? 'v2' : 'v1';
}

/** Recognises a server of either SDK by its shape; a TypeError naming the packages to install otherwise. */
export function detectServer(value: unknown): DetectedServer {
  if (isLowLevelServer(value)) return { sdk: sdkOf(value), server: value, viaMcpServer: false };
  if (typeof value === 'object' && value !== null) {
    const inner = (value as { server?: unknown }).server;
    if (isLowLevelServer(inner)) return { sdk: sdkOf(inner), server: inner, viaMcpServer: true };
  }
  throw new TypeError(
    'attachPrompts(server, registry): server must be a Server or McpServer from the official MCP TypeScript SDK — ' +
      '`@modelcontextprotocol/server` (SDK v2: npm install @modelcontextprotocol/server) or ' +
      '`@modelcontextprotocol/sdk` (SDK v1: npm install @modelcontextprotocol/sdk).',
  );
}

/**
 * Whether the client has initialized, so notifications may go out (a server without the accessors: while connected).
 */
export function isClientInitialized(server: LowLevelServer): boolean {
  if (typeof server.getClientCapabilities !== 'function' && typeof server.getNegotiatedProtocolVersion !== 'function') {
    return true;
  }
  return server.getClientCapabilities?.() !== undefined || server.getNegotiatedProtocolVersion?.() !== undefined;
}

/** The first protocol revision of the 2026 era: discover instead of initialize, cache hints, subscriptions/listen. */
const FIRST_MODERN_REVISION = '2026-07-28';

/** Whether the server's connection speaks the 2026-07-28 revision or later (SDK v2 only; v1 has no such era). */
export function speaksModernEra(server: LowLevelServer): boolean {
  const version = server.getNegotiatedProtocolVersion?.();
  return typeof version === 'string' && version >= FIRST_MODERN_REVISION;
}
