/**
 * What the adapter tells the `context` option about one request, read from either SDK's handler extra.
 *
 * @module
 */
import type { PromptMethod } from '../protocol.js';
import type { SdkVersion } from './server-shape.js';

/** One request as the adapter received it from the SDK, normalised across SDK v1 and v2. */
export interface McpRequestInfo {
  /** Which SDK major served the request. */
  sdk: SdkVersion;
  /** The method being served. */
  method: PromptMethod;
  /** The transport's session id, when it has sessions (streamable HTTP). */
  sessionId?: string;
  /** Validated auth info the transport attached to the request (v1 `extra.authInfo`, v2 `ctx.http.authInfo`). */
  authInfo?: unknown;
  /** Aborted when the client cancels the request. */
  signal?: AbortSignal;
  /** The SDK's own handler extra (v1 `RequestHandlerExtra`, v2 `ServerContext`), for anything not normalised here. */
  raw: unknown;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

function signalOf(value: unknown): AbortSignal | undefined {
  return typeof AbortSignal !== 'undefined' && value instanceof AbortSignal ? value : undefined;
}

function withOptional(info: McpRequestInfo, sessionId: unknown, authInfo: unknown, signal: unknown): McpRequestInfo {
  if (typeof sessionId === 'string') info.sessionId = sessionId;
  if (authInfo !== undefined && authInfo !== null) info.authInfo = authInfo;
  const s = signalOf(signal);
  if (s !== undefined) info.signal = s;
  return info;
}

/**
 * Reads SDK v1's `RequestHandlerExtra` (`signal`, `sessionId`, `authInfo`).
 *
 * @example
 * ```ts
 * requestInfoFromV1('prompts/get', extra).signal?.aborted;
 * ```
 */
export function requestInfoFromV1(method: PromptMethod, extra: unknown): McpRequestInfo {
  const e = record(extra);
  return withOptional({ sdk: 'v1', method, raw: extra }, e?.['sessionId'], e?.['authInfo'], e?.['signal']);
}

/**
 * Reads SDK v2's `ServerContext` (`mcpReq.signal`, `sessionId`, `http.authInfo`).
 *
 * @example
 * ```ts
 * requestInfoFromV2('prompts/get', ctx).sessionId;
 * ```
 */
export function requestInfoFromV2(method: PromptMethod, ctx: unknown): McpRequestInfo {
  const c = record(ctx);
  const mcpReq = record(c?.['mcpReq']);
  const http = record(c?.['http']);
  return withOptional({ sdk: 'v2', method, raw: ctx }, c?.['sessionId'], http?.['authInfo'], mcpReq?.['signal']);
}
