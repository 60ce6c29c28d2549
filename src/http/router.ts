/**
 * The HTTP request core shared by the fetch handler, the node handler and CGI: routes, body rules and the error
 * table, on a transport-neutral request. No `node:` imports: it runs on edge runtimes too.
 */
import { PromptError, echoed } from '../errors.js';
import { isRecord } from '../json.js';
import { MAX_TIMER_MS, integerOption } from '../options.js';
import { toSafeLogger } from '../logger.js';
import type { Logger } from '../logger.js';
import { errorJson, json } from './core-response.js';
import type { CoreResponse } from './core-response.js';
import { utf8ByteLength } from '../render/limits.js';
import { bodyTooLarge } from './body.js';
import type { RequestBody } from './body.js';
import { BodyBudget } from './budget.js';
import type { BodyLease } from './budget.js';
import { checkHost, checkJsonContentType, checkOrigin, createGate } from './gate.js';
import { openApiDocument } from './openapi.js';
import { toSources } from './sources.js';
import type { HttpSource, Sources } from './sources.js';
import type { OpenApiOptions } from './openapi.js';
import { parseJsonBody } from '../json-body.js';
import { readinessAnswer, resolveReadiness } from './readiness.js';
import type { ReadinessOptions, ResolvedReadiness } from './readiness.js';
import { operationsOf } from '../telemetry/telemetry.js';
import type { OperationInfo, Telemetry } from '../telemetry/telemetry.js';

/** Options of the HTTP handlers and CGI. */
export interface HttpHandlerOptions {
  /** Path prefix of every route (default `''`): `/api` serves `/api/prompts`. */
  basePath?: string;
  /** Largest request body, in bytes (default 1 MiB), enforced while the body streams in: 413. */
  maxBodyBytes?: number;
  /** Longest wait for a whole request body, in milliseconds (default 10,000): 408. */
  bodyTimeoutMs?: number;
  /**
   * Request body bytes all requests of this handler may hold at once (default 64 MiB), counted as they arrive and
   * given back when each request is answered: past it a request gets 503 with `Retry-After`.
   */
  maxInFlightBodyBytes?: number;
  /**
   * Hostnames the Host header may name (port-agnostic; IPv6 in brackets, `'*'` for any): 403 otherwise, against DNS
   * rebinding. Default: on a connection that arrived at a loopback address (a server bound to 127.0.0.1, or reached
   * through it), only `localhost`, `127.0.0.1` and `[::1]`, as the MCP SDK's `localhostHostValidation`; otherwise
   * any. Behind a reverse proxy on the same machine, list the names it forwards.
   */
  allowedHosts?: readonly string[];
  /**
   * Origins a browser request may come from besides the request's own: hostnames (`app.example`, any scheme and
   * port) or exact origins (`https://app.example:8443`). A present Origin that is neither gets 403. CORS headers and
   * preflights are the framework's (a `cors` middleware in front).
   */
  allowedOrigins?: readonly string[];
  /** pino-style logger: 500s are logged with the route and the error's class (never bodies or argument values). */
  logger?: Logger;
  /** Title and version of `GET /openapi.json` (defaults: "mcp-prompt-kit API", "1.0.0"). */
  openapi?: Partial<Omit<OpenApiOptions, 'basePath' | 'readinessPath'>>;
  /**
   * A readiness route from a sync's health (`{ sync }`, see `createReadinessHandler`): `GET /readyz` answers 200 while
   * the replica serves a known-good set, 503 once closed or past `maxLagMs` / `maxDegradedMs`, with the health as JSON.
   */
  readiness?: ReadinessOptions;
  /**
   * OpenTelemetry (from `createTelemetry`): a SERVER span and a duration per prompt and function request, joined to
   * the caller's trace from the `traceparent` header (docs/telemetry.md).
   */
  telemetry?: Telemetry;
}

/** @internal A request as the core sees it. */
export interface CoreRequest {
  method: string;
  /** The path below the mount point (Express's `req.url`, or the URL's pathname), query excluded. */
  path: string;
  query: URLSearchParams;
  contentType: string | undefined;
  /** The Host header (or the URL's host where the runtime gives no header). */
  host: string | undefined;
  /** The Origin header. */
  origin: string | undefined;
  /** Whether the connection arrived at a loopback address (false when the transport cannot tell). */
  loopback: boolean;
  /** A request header by its lower-case name (trace propagation reads `traceparent`, `tracestate`, `baggage`). */
  header?: (name: string) => string | undefined;
  /** Where a framework mounted the handler (Express's `req.baseUrl`), for the OpenAPI document's paths. */
  mountPath?: string;
  /**
   * The whole body: at most `limit` bytes (else LIMIT_EXCEEDED), within `timeoutMs` (else REQUEST_TIMEOUT), each
   * byte held in `lease` as it arrives (else SERVER_BUSY).
   */
  readBody(limit: number, timeoutMs: number, lease: BodyLease): Promise<RequestBody>;
}

/** @internal The body limits of the HTTP handlers and CGI when their options leave them out. */
export const DEFAULT_HTTP_LIMITS = Object.freeze({
  maxBodyBytes: 1_048_576,
  bodyTimeoutMs: 10_000,
  maxInFlightBodyBytes: 64 * 1_048_576,
});

/** @internal The request core: route, read, answer; never throws. */
export interface HttpCore {
  /** Whether `path` (below the base path) is one of ours; the node handler calls `next()` for the others. */
  owns(path: string): boolean;
  handle(request: CoreRequest): Promise<CoreResponse>;
}

/** What serving one request needs besides the request. */
interface Context {
  sources: Sources;
  openapi: OpenApiOptions;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
}

/** @internal Builds the core once per handler. */
export function createHttpCore(source: HttpSource, options: HttpHandlerOptions = {}): HttpCore {
  const sources = toSources(source);
  const basePath = normalizeBasePath(options.basePath);
  const maxBodyBytes = positive(options.maxBodyBytes, DEFAULT_HTTP_LIMITS.maxBodyBytes, 'maxBodyBytes');
  const bodyTimeoutMs = positive(
    options.bodyTimeoutMs,
    DEFAULT_HTTP_LIMITS.bodyTimeoutMs,
    'bodyTimeoutMs',
    'milliseconds',
  );
  const budget = new BodyBudget(
    positive(options.maxInFlightBodyBytes, DEFAULT_HTTP_LIMITS.maxInFlightBodyBytes, 'maxInFlightBodyBytes'),
    Math.ceil(bodyTimeoutMs / 1000),
  );
  const gate = createGate(options.allowedHosts, options.allowedOrigins);
  const log = toSafeLogger(options.logger);
  const ops = operationsOf('mcp-prompt-kit/http', options.telemetry);
  const context: Context = {
    sources,
    openapi: { title: 'mcp-prompt-kit API', version: '1.0.0', ...options.openapi, basePath },
    maxBodyBytes,
    bodyTimeoutMs,
  };

  const readiness =
    options.readiness === undefined ? undefined : resolveReadiness('mcp-prompt-kit/http', options.readiness);
  if (readiness !== undefined && routeOf(readiness.path) !== undefined)
    throw new RangeError(`mcp-prompt-kit/http: readiness.path ${readiness.path} is already a route of the handler`);
  if (readiness !== undefined) context.openapi.readinessPath = readiness.path;
  const route = (path: string | undefined): Route | undefined =>
    readiness !== undefined && path !== undefined && trimSlash(path) === readiness.path
      ? { kind: 'readiness' }
      : routeOf(path);
  const owns = (path: string): boolean => route(stripBase(path, basePath)) !== undefined;

  const handle = async (request: CoreRequest): Promise<CoreResponse> => {
    const head = request.method === 'HEAD';
    const path = stripBase(request.path, basePath);
    const found = route(path);
    const lease = budget.lease();
    let response: CoreResponse;
    try {
      checkHost(gate, request.host, request.loopback);
      checkOrigin(gate, request.origin, request.host);
      if (found === undefined) throw new PromptError('METHOD_NOT_FOUND', `Not found: ${echoed(request.path)}`);
      const allowed = allowedMethods(found, sources, readiness);
      if (allowed.length === 0) throw new PromptError('METHOD_NOT_FOUND', `Not found: ${echoed(request.path)}`);
      if (!allowed.includes(request.method)) {
        response = errorJson(
          new PromptError(
            'METHOD_NOT_ALLOWED',
            `Method not allowed: ${echoed(request.method)}; allowed: ${allowed.join(', ')}`,
          ),
        );
        response.headers['allow'] = allowed.join(', ');
      } else if (found.kind === 'readiness') {
        response = readinessAnswer(readiness!);
      } else {
        // HEAD is GET without the body.
        const served = head ? { ...request, method: 'GET' } : request;
        const operation = ops === undefined || !ops.live() ? undefined : operationOf(found, served.method, sources);
        response = json(
          200,
          await (operation === undefined
            ? serve(found, served, context, lease)
            : ops!.run(operation, served.header, () => serve(found, served, context, lease))),
        );
      }
    } catch (error) {
      response = errorJson(error, log, found?.kind ?? 'unknown');
      if (response.status === 503) response.headers['retry-after'] = String(budget.retryAfterSeconds);
    } finally {
      lease.release();
    }
    if (head) response.body = '';
    return response;
  };
  return { owns, handle };
}

type Route =
  | { kind: 'prompts' }
  | { kind: 'prompt'; name: string }
  | { kind: 'functions' }
  | { kind: 'function'; name: string }
  | { kind: 'openapi' }
  | { kind: 'readiness' };

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function routeOf(path: string | undefined): Route | undefined {
  if (path === undefined) return undefined;
  const trimmed = trimSlash(path);
  if (trimmed === '/prompts') return { kind: 'prompts' };
  if (trimmed === '/functions') return { kind: 'functions' };
  if (trimmed === '/openapi.json') return { kind: 'openapi' };
  const m = /^\/(prompts|functions)\/([^/]+)$/.exec(trimmed);
  if (m === null) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(m[2]!);
  } catch {
    return undefined;
  }
  return m[1] === 'prompts' ? { kind: 'prompt', name } : { kind: 'function', name };
}

/** The MCP operation an HTTP request is, for telemetry; undefined for the routes that are none (OpenAPI, one entry). */
function operationOf(found: Route, method: string, sources: Sources): OperationInfo | undefined {
  const base = { transport: 'tcp', http: true } as const;
  switch (found.kind) {
    case 'prompts':
      return { ...base, method: 'prompts/list' };
    case 'prompt': {
      if (method !== 'POST') return undefined;
      const known = sources.prompts!.has(found.name);
      const info: OperationInfo = { ...base, method: 'prompts/get', promptName: found.name };
      if (!known) return info;
      info.target = found.name;
      const served = sources.prompts!.servedVersion(found.name);
      if (served !== undefined) {
        info.version = served.version;
        info.label = served.label;
      }
      return info;
    }
    case 'functions':
      return { ...base, method: 'tools/list' };
    case 'function': {
      const info: OperationInfo = { ...base, method: 'tools/call', toolName: found.name };
      if (sources.functions!.has(found.name)) info.target = found.name;
      return info;
    }
    case 'openapi':
    case 'readiness':
      return undefined;
  }
}

function allowedMethods(found: Route, sources: Sources, readiness: ResolvedReadiness | undefined): string[] {
  switch (found.kind) {
    case 'prompts':
      return sources.prompts === undefined ? [] : ['GET', 'HEAD'];
    case 'prompt':
      return sources.prompts === undefined ? [] : ['GET', 'HEAD', 'POST'];
    case 'functions':
      return sources.functions === undefined ? [] : ['GET', 'HEAD'];
    case 'function':
      return sources.functions === undefined ? [] : ['POST'];
    case 'openapi':
      return ['GET', 'HEAD'];
    case 'readiness':
      return readiness === undefined ? [] : ['GET', 'HEAD'];
  }
}

async function serve(
  found: Exclude<Route, { kind: 'readiness' }>,
  request: CoreRequest,
  context: Context,
  lease: BodyLease,
): Promise<unknown> {
  const { sources, openapi } = context;
  switch (found.kind) {
    case 'prompts': {
      const cursor = request.query.get('cursor');
      return { result: sources.prompts!.list(cursor === null ? {} : { cursor }) };
    }
    case 'prompt': {
      if (request.method === 'GET') {
        const listing = sources.prompts!.get(found.name);
        if (listing === undefined) throw new PromptError('PROMPT_NOT_FOUND', `Unknown prompt: ${echoed(found.name)}`);
        return { result: listing };
      }
      const args = await readArguments(request, context, lease);
      return { result: await sources.prompts!.getPrompt(found.name, args) };
    }
    case 'functions':
      return { result: sources.functions!.list() };
    case 'function': {
      if (!sources.functions!.has(found.name)) {
        throw new PromptError('FUNCTION_NOT_FOUND', `Function not found: ${echoed(found.name)}`);
      }
      return sources.functions!.call(found.name, await readArguments(request, context, lease));
    }
    case 'openapi':
      return openApiDocument(
        sources,
        request.mountPath ? { ...openapi, basePath: `${request.mountPath}${openapi.basePath ?? ''}` } : openapi,
      );
  }
}

const DECODER = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON object body (an empty one = no arguments). The Content-Type is checked before a byte is read (415); then
 * 413, 408, 503 or 400 `Invalid JSON body`. A body a framework already parsed goes through the same checks, from
 * its text: a parsed value is serialized again (its numbers were rounded by that parser: the exact-number check
 * cannot see what was lost).
 */
async function readArguments(
  request: CoreRequest,
  context: Context,
  lease: BodyLease,
): Promise<Record<string, unknown>> {
  checkJsonContentType(request.contentType);
  const limit = context.maxBodyBytes;
  const body = await request.readBody(limit, context.bodyTimeoutMs, lease);
  let text: string;
  if ('bytes' in body) {
    if (body.bytes.byteLength === 0) return {};
    if (body.bytes.byteLength > limit) throw bodyTooLarge(limit);
    lease.hold(body.bytes.byteLength);
    try {
      text = DECODER.decode(body.bytes);
    } catch {
      throw new PromptError('PARSE_ERROR', 'Invalid JSON body');
    }
  } else {
    const serialized = 'text' in body ? body.text : serializeParsed(body.value);
    // Nested too deep to serialize again: the same value JSON.parse gave the parser, which the validator bounds (depth
    // first) exactly as it bounds a raw body's.
    if (serialized === undefined) return argumentsObject((body as { value: unknown }).value);
    text = serialized;
    if (text.length === 0) return {};
    const bytes = text.length > limit ? limit + 1 : utf8ByteLength(text); // more code units than allowed bytes: over
    if (bytes > limit) throw bodyTooLarge(limit);
    lease.hold(bytes);
  }
  let value: unknown;
  try {
    // Numbers JSON.parse changed are marked: the validator refuses those arguments (400, naming each and where).
    value = parseJsonBody(text);
  } catch {
    throw new PromptError('PARSE_ERROR', 'Invalid JSON body');
  }
  return argumentsObject(value);
}

/** The arguments of a parsed body: an object (null = none), else 400. */
function argumentsObject(value: unknown): Record<string, unknown> {
  if (value === null) return {};
  if (!isRecord(value)) throw new PromptError('INVALID_PARAMS', 'The JSON body must be an object of arguments');
  return value;
}

/**
 * The JSON text of a value a framework's parser made ('' for none); undefined when it nests too deep for
 * `JSON.stringify` (a stack overflow). A value that is not JSON data at all (a cycle, a BigInt) is 400.
 */
function serializeParsed(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? '';
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw new PromptError('PARSE_ERROR', 'Invalid JSON body: the parsed body is not JSON data');
  }
}

function stripBase(path: string, basePath: string): string | undefined {
  if (basePath === '') return path;
  if (path === basePath) return '/';
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
}

function normalizeBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '' || basePath === '/') return '';
  const withSlash = basePath.startsWith('/') ? basePath : `/${basePath}`;
  return withSlash.endsWith('/') ? withSlash.slice(0, -1) : withSlash;
}

function positive(value: number | undefined, fallback: number, name: string, unit?: string): number {
  return integerOption('mcp-prompt-kit/http', name, value, {
    min: 1,
    max: MAX_TIMER_MS,
    default: fallback,
    ...(unit === undefined ? {} : { unit }),
  });
}
