/**
 * The one error type of the library and the ONE table that maps its string codes to JSON-RPC codes, HTTP statuses
 * and client messages. Every adapter maps errors through {@link ERROR_TABLE}; none invents its own.
 *
 * @module
 */
import { wellFormed } from './encoding.js';
import type { JsonRpcErrorObject } from './types.js';

/** Standard JSON-RPC 2.0 error codes. */
export const JSON_RPC_ERROR_CODES = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/** The string codes a {@link PromptError} can carry. */
export type PromptErrorCode =
  | 'PROMPT_NOT_FOUND'
  | 'PROMPT_ARGUMENT_MISSING'
  | 'PROMPT_ARGUMENT_INVALID'
  | 'PROMPT_ARGUMENT_TOO_LONG'
  | 'FUNCTION_ARGUMENT_MISSING'
  | 'FUNCTION_ARGUMENT_INVALID'
  | 'FUNCTION_ARGUMENT_TOO_LONG'
  | 'INVALID_CURSOR'
  | 'INVALID_PARAMS'
  | 'RESOURCE_NOT_FOUND'
  | 'RESOURCE_DENIED'
  | 'LIMIT_EXCEEDED'
  | 'INVALID_PROMPT_DEFINITION'
  | 'PROMPT_RENDER_FAILED'
  | 'INTERNAL_ERROR'
  | 'METHOD_NOT_FOUND'
  | 'INVALID_REQUEST'
  | 'PARSE_ERROR'
  | 'FUNCTION_NOT_FOUND'
  | 'FUNCTION_FAILED'
  | 'METHOD_NOT_ALLOWED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'REQUEST_TIMEOUT'
  | 'SESSION_NOT_FOUND'
  | 'TOO_MANY_SESSIONS'
  | 'FORBIDDEN'
  | 'SERVER_BUSY';

/** One row of the error table. */
export interface ErrorTableEntry {
  /** JSON-RPC error code sent to MCP clients. */
  readonly rpcCode: number;
  /** HTTP status used by the HTTP and CGI adapters. */
  readonly httpStatus: number;
  /**
   * Whether the error's own message (and `data`) may be shown to clients. When false, clients only ever see
   * {@link ErrorTableEntry.clientMessage}; the detail goes to the logger.
   */
  readonly expose: boolean;
  /** The message clients see when `expose` is false, and the default message otherwise. */
  readonly clientMessage: string;
}

/**
 * The one table: PromptError code -> JSON-RPC code -> HTTP status -> client message.
 *
 * `INVALID_PROMPT_DEFINITION` is a load-time error for the operator; should one surface while serving a request it is
 * a server fault, so a client sees it as -32603 with a generic message.
 */
export const ERROR_TABLE: Readonly<Record<PromptErrorCode, ErrorTableEntry>> = deepFreeze({
  PROMPT_NOT_FOUND: { rpcCode: -32602, httpStatus: 404, expose: true, clientMessage: 'Unknown prompt' },
  PROMPT_ARGUMENT_MISSING: {
    rpcCode: -32602,
    httpStatus: 400,
    expose: true,
    clientMessage: 'Missing required prompt arguments',
  },
  PROMPT_ARGUMENT_INVALID: {
    rpcCode: -32602,
    httpStatus: 400,
    expose: true,
    clientMessage: 'Prompt arguments do not conform to schema',
  },
  PROMPT_ARGUMENT_TOO_LONG: { rpcCode: -32602, httpStatus: 400, expose: true, clientMessage: 'Argument too long' },
  INVALID_CURSOR: { rpcCode: -32602, httpStatus: 400, expose: true, clientMessage: 'Invalid cursor' },
  INVALID_PARAMS: { rpcCode: -32602, httpStatus: 400, expose: true, clientMessage: 'Invalid params' },
  RESOURCE_NOT_FOUND: { rpcCode: -32602, httpStatus: 400, expose: true, clientMessage: 'Resource not found' },
  RESOURCE_DENIED: { rpcCode: -32602, httpStatus: 400, expose: true, clientMessage: 'Resource access denied' },
  LIMIT_EXCEEDED: { rpcCode: -32602, httpStatus: 413, expose: true, clientMessage: 'Limit exceeded' },
  INVALID_PROMPT_DEFINITION: { rpcCode: -32603, httpStatus: 500, expose: false, clientMessage: 'Internal error' },
  PROMPT_RENDER_FAILED: { rpcCode: -32603, httpStatus: 500, expose: false, clientMessage: 'Internal error' },
  INTERNAL_ERROR: { rpcCode: -32603, httpStatus: 500, expose: false, clientMessage: 'Internal error' },
  METHOD_NOT_FOUND: { rpcCode: -32601, httpStatus: 404, expose: true, clientMessage: 'Method not found' },
  INVALID_REQUEST: { rpcCode: -32600, httpStatus: 400, expose: true, clientMessage: 'Invalid request' },
  PARSE_ERROR: { rpcCode: -32700, httpStatus: 400, expose: true, clientMessage: 'Invalid JSON body' },
  // Functions: an unknown name, and an error thrown by `run` (a tool execution error: its message is the client's).
  FUNCTION_NOT_FOUND: { rpcCode: -32602, httpStatus: 404, expose: true, clientMessage: 'Function not found' },
  FUNCTION_FAILED: { rpcCode: -32603, httpStatus: 500, expose: true, clientMessage: 'Function failed' },
  // A function's arguments: the prompt argument errors worded for functions (same -32602, status and data shape).
  FUNCTION_ARGUMENT_MISSING: {
    rpcCode: -32602,
    httpStatus: 400,
    expose: true,
    clientMessage: 'Missing required function arguments',
  },
  FUNCTION_ARGUMENT_INVALID: {
    rpcCode: -32602,
    httpStatus: 400,
    expose: true,
    clientMessage: 'Function arguments do not conform to schema',
  },
  FUNCTION_ARGUMENT_TOO_LONG: { rpcCode: -32602, httpStatus: 400, expose: true, clientMessage: 'Argument too long' },
  // HTTP and CGI transport errors (a wrong method on a known route, a body that is not JSON, a body too slow to
  // arrive).
  METHOD_NOT_ALLOWED: { rpcCode: -32601, httpStatus: 405, expose: true, clientMessage: 'Method not allowed' },
  UNSUPPORTED_MEDIA_TYPE: {
    rpcCode: -32600,
    httpStatus: 415,
    expose: true,
    clientMessage: 'Content-Type must be application/json',
  },
  REQUEST_TIMEOUT: { rpcCode: -32600, httpStatus: 408, expose: true, clientMessage: 'Request body timed out' },
  // Streamable HTTP sessions (2025 era): an unknown or closed Mcp-Session-Id (the client starts a new session), and a
  // server holding as many sessions as it allows.
  SESSION_NOT_FOUND: { rpcCode: -32001, httpStatus: 404, expose: true, clientMessage: 'Session not found' },
  TOO_MANY_SESSIONS: { rpcCode: -32000, httpStatus: 503, expose: true, clientMessage: 'Too many sessions' },
  // A Host or Origin the HTTP handlers do not serve (DNS rebinding, cross-site requests); -32000 as the MCP SDK's
  // check.
  FORBIDDEN: { rpcCode: -32000, httpStatus: 403, expose: true, clientMessage: 'Forbidden' },
  // The server-wide budget of request body bytes in flight is spent: 503 with Retry-After.
  SERVER_BUSY: { rpcCode: -32000, httpStatus: 503, expose: true, clientMessage: 'Server busy, retry later' },
});

function deepFreeze<T extends Record<string, object>>(table: T): Readonly<T> {
  for (const row of Object.values(table)) Object.freeze(row);
  return Object.freeze(table);
}

const BRAND: unique symbol = Symbol.for('mcp-prompt-kit.PromptError') as never;

/** Options of the {@link PromptError} constructor. */
export interface PromptErrorOptions {
  /** Structured data for the client (exposed codes only) or the logs. */
  data?: unknown;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * The error every part of the library throws. `code` is a string from {@link ERROR_TABLE}; `rpcCode` and
 * `httpStatus` come from the table, never from the thrower.
 *
 * @example
 * ```ts
 * throw new PromptError('PROMPT_NOT_FOUND', 'Unknown prompt: review-code');
 * ```
 */
export class PromptError extends Error {
  /** The string code; see {@link ERROR_TABLE}. */
  readonly code: PromptErrorCode;
  /** The JSON-RPC error code from the table. */
  readonly rpcCode: number;
  /** The HTTP status from the table. */
  readonly httpStatus: number;
  /** Structured data (sent to clients only for exposed codes). */
  readonly data?: unknown;
  /** @internal brand shared by every copy of this package. */
  readonly [BRAND] = true;

  constructor(code: PromptErrorCode, message?: string, options: PromptErrorOptions = {}) {
    const entry = ERROR_TABLE[code];
    const text = message ?? entry.clientMessage;
    // What a client sees stays bounded whatever request input it quotes.
    super(
      entry.expose ? cut(text, MAX_CLIENT_TEXT) : text,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'PromptError';
    this.code = code;
    this.rpcCode = entry.rpcCode;
    this.httpStatus = entry.httpStatus;
    if (options.data !== undefined) this.data = entry.expose ? boundedData(options.data, 0) : options.data;
  }

  /** Whether clients may see this error's message and data (false for internal errors). */
  get exposed(): boolean {
    return ERROR_TABLE[this.code].expose;
  }

  /** The message a client sees: the error's own message, or the generic one for internal errors. */
  get clientMessage(): string {
    return this.exposed ? this.message : ERROR_TABLE[this.code].clientMessage;
  }

  /**
   * The JSON-RPC error object a client receives. Internal errors carry only the generic message and no data.
   *
   * @example
   * ```ts
   * new PromptError('PROMPT_NOT_FOUND', 'Unknown prompt: x').toJsonRpcError();
   * // { code: -32602, message: 'Unknown prompt: x' }
   * ```
   */
  toJsonRpcError(): JsonRpcErrorObject {
    if (!this.exposed) return { code: this.rpcCode, message: this.clientMessage };
    return this.data === undefined
      ? { code: this.rpcCode, message: this.message }
      : { code: this.rpcCode, message: this.message, data: this.data };
  }

  /**
   * A plain object for structured logs (includes internal detail; never send it to clients).
   *
   * @example
   * ```ts
   * JSON.stringify(new PromptError('INTERNAL_ERROR', 'db down')); // '{"name":"PromptError","code":"INTERNAL_ERROR","message":"db down"}'
   * ```
   */
  toJSON(): { name: string; code: PromptErrorCode; message: string; data?: unknown } {
    return this.data === undefined
      ? { name: this.name, code: this.code, message: this.message }
      : { name: this.name, code: this.code, message: this.message, data: this.data };
  }
}

/**
 * Whether `value` is a {@link PromptError}, including one thrown by another copy of this package (brand check, not
 * only `instanceof`).
 *
 * @example
 * ```ts
 * try { await registry.getPrompt('x'); } catch (e) { if (isPromptError(e)) console.log(e.code); }
 * ```
 */
export function isPromptError(value: unknown): value is PromptError {
  return (
    value instanceof PromptError ||
    (typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true)
  );
}

/**
 * Turns anything thrown into a {@link PromptError}: PromptErrors pass through; anything else becomes
 * `INTERNAL_ERROR` with the original as `cause` (clients see only "Internal error").
 *
 * @example
 * ```ts
 * const err = toPromptError(new TypeError('boom')); // err.code === 'INTERNAL_ERROR'
 * ```
 */
export function toPromptError(error: unknown): PromptError {
  if (error instanceof PromptError) return error;
  if (isPromptError(error)) {
    // Another copy of the package: rebuild it through OUR table, trusting only its code, message and data.
    const foreign = error as { code?: unknown; message?: unknown; data?: unknown };
    const code =
      typeof foreign.code === 'string' && Object.hasOwn(ERROR_TABLE, foreign.code)
        ? (foreign.code as PromptErrorCode)
        : 'INTERNAL_ERROR';
    const message = typeof foreign.message === 'string' ? foreign.message : undefined;
    return new PromptError(
      code,
      message,
      foreign.data === undefined ? { cause: error } : { data: foreign.data, cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new PromptError('INTERNAL_ERROR', message, { cause: error });
}

/**
 * What a log may say about a thrown value: its class ("TypeError", or the `name` an Error gives itself, such as
 * "AbortError"), `typeof` for a non-object, never its message (which may quote argument values).
 */
export function errorClassName(error: unknown): string {
  if (error === null) return 'null';
  if (typeof error !== 'object' && typeof error !== 'function') return typeof error;
  try {
    const own: unknown = error instanceof Error ? error.name : undefined;
    const ctor: unknown = (error as { constructor?: { name?: unknown } }).constructor?.name;
    // An Error subclass that does not set `name` still says 'Error': its constructor's name is more telling.
    if (typeof own === 'string' && own !== '' && !(own === 'Error' && typeof ctor === 'string' && ctor !== '')) {
      return own.slice(0, 100);
    }
    if (typeof ctor === 'string' && ctor !== '') return ctor.slice(0, 100);
  } catch {
    /* a hostile getter: fall through */
  }
  return 'Object';
}

/** The table code each JsonRpcError made by {@link JsonRpcError.from} was mapped from (for telemetry). */
const mappedCodes = new WeakMap<Error, PromptErrorCode>();

/** @internal The table code behind an error: a PromptError's own, or the one a JsonRpcError was mapped from. */
export function tableCodeOf(error: unknown): PromptErrorCode | undefined {
  if (isPromptError(error)) return error.code;
  return error instanceof Error ? mappedCodes.get(error) : undefined;
}

/**
 * A wire error with a numeric JSON-RPC code. The official SDKs (v1 and v2) forward `code`, `message` and `data`
 * of a thrown error intact, so handlers throw this.
 *
 * @example
 * ```ts
 * throw new JsonRpcError(-32602, 'Unknown prompt: x');
 * ```
 */
export class JsonRpcError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'JsonRpcError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }

  /**
   * The error as mapped through the error table (internal errors carry only the generic message).
   *
   * @example
   * ```ts
   * JsonRpcError.from(new PromptError('PROMPT_NOT_FOUND', 'Unknown prompt: x')).code; // -32602
   * ```
   */
  static from(error: unknown): JsonRpcError {
    if (error instanceof JsonRpcError) return error;
    const mapped = toPromptError(error);
    const wire = mapped.toJsonRpcError();
    const result = new JsonRpcError(wire.code, wire.message, wire.data);
    mappedCodes.set(result, mapped.code);
    return result;
  }

  /**
   * The JSON-RPC error object.
   *
   * @example
   * ```ts
   * new JsonRpcError(-32602, 'Invalid cursor').toJSON(); // { code: -32602, message: 'Invalid cursor' }
   * ```
   */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** @internal Longest piece of client input (a name, a URI) quoted in an error message. */
export const MAX_ECHOED = 128;
/** @internal Longest message, and longest string in `data`, of an error a client sees. */
export const MAX_CLIENT_TEXT = 1_024;
/** Nesting of error data walked for long strings (the library's error data is at most three deep). */
const MAX_DATA_DEPTH = 8;

/** @internal Client input as quoted in an error message: cut after 128 characters (code points) with an ellipsis. */
export function echoed(text: string): string {
  return cut(text, MAX_ECHOED);
}

/**
 * `text` cut after `max` code points with an ellipsis, well-formed: a pair is never split, a lone surrogate is U+FFFD.
 */
function cut(text: string, max: number): string {
  if (text.length <= max) return wellFormed(text);
  let end = 0;
  for (let points = 0; points < max && end < text.length; points++) {
    const c = text.charCodeAt(end);
    const pair = c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00;
    end += pair ? 2 : 1;
  }
  return wellFormed(end >= text.length ? text : `${text.slice(0, end)}…`);
}

/** Error data with every long string cut; the same object when nothing needed cutting. */
function boundedData(data: unknown, depth: number): unknown {
  if (typeof data === 'string') return cut(data, MAX_CLIENT_TEXT);
  if (typeof data !== 'object' || data === null || depth >= MAX_DATA_DEPTH) return data;
  if (Array.isArray(data)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < data.length; i++) {
      const v = boundedData(data[i], depth + 1);
      if (v !== data[i]) (copy ??= data.slice())[i] = v;
    }
    return copy ?? data;
  }
  const proto: unknown = Object.getPrototypeOf(data);
  if (proto !== Object.prototype && proto !== null) return data;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(data)) {
    const old = (data as Record<string, unknown>)[key];
    const v = boundedData(old, depth + 1);
    if (v !== old) (copy ??= { ...(data as Record<string, unknown>) })[key] = v;
  }
  return copy ?? data;
}
