/**
 * What the adapter tells the `context` option about one request, read from either SDK's handler extra.
 *
 * @module
 */
import type { PromptMethod } from '../protocol.js';
import type { SdkVersion } from './server-shape.js';

/**
 * Validated auth info a transport attached to a request, as both SDKs define `AuthInfo` (typed here structurally so
 * that neither SDK is imported).
 */
export interface McpAuthInfo {
  /** The access token. */
  token: string;
  /** The client the token was issued to. */
  clientId: string;
  /** The token's scopes. */
  scopes: string[];
  /** Expiry, in seconds since the epoch. */
  expiresAt?: number;
  /** The RFC 8707 resource the token is bound to. */
  resource?: URL;
  /** Anything else the auth provider attached. */
  extra?: Record<string, unknown>;
}

/** One request as the adapter received it from the SDK, normalised across SDK v1 and v2. */
export interface McpRequestInfo {
  /** Which SDK major served the request. */
  sdk: SdkVersion;
  /** The method being served. */
  method: PromptMethod;
  /** The transport's session id, when it has sessions (streamable HTTP). */
  sessionId?: string;
  /**
   * Validated auth info the transport attached to the request (v1 `extra.authInfo`, v2 `ctx.http.authInfo`);
   * undefined when there is none, or when it lacks a string `token`/`clientId` and a `scopes` array.
   */
  authInfo?: McpAuthInfo | undefined;
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

function authInfoOf(value: unknown): McpAuthInfo | undefined {
  const a = record(value);
  if (a === undefined) return undefined;
  return typeof a['token'] === 'string' && typeof a['clientId'] === 'string' && Array.isArray(a['scopes'])
    ? (a as unknown as McpAuthInfo)
    : undefined;
}

function withOptional(info: McpRequestInfo, sessionId: unknown, authInfo: unknown, signal: unknown): McpRequestInfo {
  if (typeof sessionId === 'string') info.sessionId = sessionId;
  const auth = authInfoOf(authInfo);
  if (auth !== undefined) info.authInfo = auth;
  const s = signalOf(signal);
  if (s !== undefined) info.signal = s;
  return info;
}

/** Reads SDK v1's `RequestHandlerExtra` (`signal`, `sessionId`, `authInfo`). */
export function requestInfoFromV1(method: PromptMethod, extra: unknown): McpRequestInfo {
  const e = record(extra);
  return withOptional({ sdk: 'v1', method, raw: extra }, e?.['sessionId'], e?.['authInfo'], e?.['signal']);
}

/** Reads SDK v2's `ServerContext` (`mcpReq.signal`, `sessionId`, `http.authInfo`). */
export function requestInfoFromV2(method: PromptMethod, ctx: unknown): McpRequestInfo {
  const c = record(ctx);
  const mcpReq = record(c?.['mcpReq']);
  const http = record(c?.['http']);
  return withOptional({ sdk: 'v2', method, raw: ctx }, c?.['sessionId'], http?.['authInfo'], mcpReq?.['signal']);
}

/** The request's AbortSignal from either SDK's handler extra (v1 `extra.signal`, v2 `ctx.mcpReq.signal`). */
export function requestSignal(sdk: SdkVersion, extra: unknown): AbortSignal | undefined {
  const e = record(extra);
  return signalOf(sdk === 'v1' ? e?.['signal'] : record(e?.['mcpReq'])?.['signal']);
}

/** The request's validated auth info from either SDK's handler extra (v1 `extra.authInfo`, v2 `ctx.http.authInfo`). */
export function requestAuthInfo(sdk: SdkVersion, extra: unknown): McpAuthInfo | undefined {
  const e = record(extra);
  return authInfoOf(sdk === 'v1' ? e?.['authInfo'] : record(e?.['http'])?.['authInfo']);
}
