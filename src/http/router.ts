/**
 * The HTTP request core shared by the fetch handler, the node handler and CGI: routes, body rules and the error
 * table, on a transport-neutral request. No `node:` imports: it runs on edge runtimes too.
 */
import { PromptError, echoed, errorClassName, toPromptError } from '../errors.js';
import { markInexactNumbers } from '../arguments/numbers.js';
import { isRecord } from '../json.js';
import { toSafeLogger } from '../logger.js';
import type { Logger, SafeLogger } from '../logger.js';
import { buildErrorResponse } from '../response.js';
import { openApiDocument } from './openapi.js';
import { toSources } from './sources.js';
import type { HttpSource, Sources } from './sources.js';
import type { OpenApiOptions } from './openapi.js';

/** Options of the HTTP handlers and CGI. */
export interface HttpHandlerOptions {
  /** Path prefix of every route (default `''`): `/api` serves `/api/prompts`. */
  basePath?: string;
  /** Largest request body, in bytes (default 1 MiB), enforced while the body streams in: 413. */
  maxBodyBytes?: number;
  /** Longest wait for a whole request body, in milliseconds (default 10,000): 408. */
  bodyTimeoutMs?: number;
  /** pino-style logger: 500s are logged with the route and the error's class (never bodies or argument values). */
  logger?: Logger;
  /** Title and version of `GET /openapi.json` (defaults: "mcp-prompt-kit API", "1.0.0"). */
  openapi?: Partial<Omit<OpenApiOptions, 'basePath'>>;
}

/** @internal A request as the core sees it. */
export interface CoreRequest {
  method: string;
  /** The path below the mount point (Express's `req.url`, or the URL's pathname), query excluded. */
  path: string;
  query: URLSearchParams;
  contentType: string | undefined;
  /** Where a framework mounted the handler (Express's `req.baseUrl`), for the OpenAPI document's paths. */
  mountPath?: string;
  /** Reads the whole body (at most `limit` bytes, else LIMIT_EXCEEDED; REQUEST_TIMEOUT when too slow). */
  readBody(limit: number, timeoutMs: number): Promise<Uint8Array>;
}

/** @internal A response as the core gives it: always a JSON body. */
export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** @internal The request core: route, read, answer; never throws. */
export interface HttpCore {
  /** Whether `path` (below the base path) is one of ours; the node handler calls `next()` for the others. */
  owns(path: string): boolean;
  handle(request: CoreRequest): Promise<CoreResponse>;
}

/** @internal Builds the core once per handler. */
export function createHttpCore(source: HttpSource, options: HttpHandlerOptions = {}): HttpCore {
  const sources = toSources(source);
  const basePath = normalizeBasePath(options.basePath);
  const maxBodyBytes = positive(options.maxBodyBytes ?? 1024 * 1024, 'maxBodyBytes');
  const bodyTimeoutMs = positive(options.bodyTimeoutMs ?? 10_000, 'bodyTimeoutMs');
  const log = toSafeLogger(options.logger);
  const openapi = { title: 'mcp-prompt-kit API', version: '1.0.0', ...options.openapi, basePath };

  const owns = (path: string): boolean => route(stripBase(path, basePath)) !== undefined;

  const handle = async (request: CoreRequest): Promise<CoreResponse> => {
    const path = stripBase(request.path, basePath);
    const found = route(path);
    try {
      if (found === undefined) throw new PromptError('METHOD_NOT_FOUND', `Not found: ${echoed(request.path)}`);
      const allowed = allowedMethods(found, sources);
      if (allowed.length === 0) throw new PromptError('METHOD_NOT_FOUND', `Not found: ${echoed(request.path)}`);
      if (!allowed.includes(request.method)) {
        const response = errorJson(new PromptError('METHOD_NOT_ALLOWED', `Method not allowed: ${echoed(request.method)}; allowed: ${allowed.join(', ')}`));
        response.headers['allow'] = allowed.join(', ');
        return response;
      }
      return json(200, await serve(found, request, sources, openapi, maxBodyBytes, bodyTimeoutMs));
    } catch (error) {
      return errorJson(error, log, found?.kind ?? 'unknown');
    }
  };
  return { owns, handle };
}

type Route =
  | { kind: 'prompts' }
  | { kind: 'prompt'; name: string }
  | { kind: 'functions' }
  | { kind: 'function'; name: string }
  | { kind: 'openapi' };

function route(path: string | undefined): Route | undefined {
  if (path === undefined) return undefined;
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
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

function allowedMethods(found: Route, sources: Sources): string[] {
  switch (found.kind) {
    case 'prompts':
      return sources.prompts === undefined ? [] : ['GET'];
    case 'prompt':
      return sources.prompts === undefined ? [] : ['GET', 'POST'];
    case 'functions':
      return sources.functions === undefined ? [] : ['GET'];
    case 'function':
      return sources.functions === undefined ? [] : ['POST'];
    case 'openapi':
      return ['GET'];
  }
}

async function serve(
  found: Route,
  request: CoreRequest,
  sources: Sources,
  openapi: OpenApiOptions,
  maxBodyBytes: number,
  bodyTimeoutMs: number,
): Promise<unknown> {
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
      const args = await readArguments(request, maxBodyBytes, bodyTimeoutMs);
      return { result: await sources.prompts!.getPrompt(found.name, args) };
    }
    case 'functions':
      return { result: sources.functions!.list() };
    case 'function': {
      if (!sources.functions!.has(found.name)) {
        throw new PromptError('FUNCTION_NOT_FOUND', `Function not found: ${echoed(found.name)}`);
      }
      return sources.functions!.call(found.name, await readArguments(request, maxBodyBytes, bodyTimeoutMs));
    }
    case 'openapi':
      return openApiDocument(sources, request.mountPath ? { ...openapi, basePath: `${request.mountPath}${openapi.basePath ?? ''}` } : openapi);
  }
}

const DECODER = new TextDecoder('utf-8', { fatal: true });

/** The JSON object body (empty body = no arguments): 415, 413, 408 or 400 `Invalid JSON body` otherwise. */
async function readArguments(request: CoreRequest, limit: number, timeoutMs: number): Promise<Record<string, unknown>> {
  const type = request.contentType?.split(';')[0]?.trim().toLowerCase();
  const bytes = await request.readBody(limit, timeoutMs);
  if (bytes.length === 0) return {};
  if (type === undefined || (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type))) {
    throw new PromptError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  }
  let text: string;
  let value: unknown;
  try {
    text = DECODER.decode(bytes);
    value = JSON.parse(text);
  } catch {
    throw new PromptError('PARSE_ERROR', 'Invalid JSON body');
  }
  if (value === null) return {};
  if (!isRecord(value)) throw new PromptError('INVALID_PARAMS', 'The JSON body must be an object of arguments');
  // Numbers JSON.parse changed: the validator refuses those arguments (400, naming each and where).
  markInexactNumbers(text, value);
  return value;
}

function json(status: number, value: unknown): CoreResponse {
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(value) };
}

/** Any error as JSON through the one table; 5xx are logged (route and class only). */
function errorJson(error: unknown, log?: SafeLogger, routeKind?: string): CoreResponse {
  const e = toPromptError(error);
  if (e.httpStatus >= 500 && log !== undefined) {
    log.error({ event: 'http_request_failed', route: routeKind, code: e.code, error: errorClassName(error) }, 'HTTP request failed');
  }
  const body = buildErrorResponse(e.clientMessage, e.exposed ? e.data : undefined);
  try {
    return json(e.httpStatus, body);
  } catch {
    return json(e.httpStatus, buildErrorResponse(e.clientMessage));
  }
}

/** @internal The error response for a failure outside the core (the transport itself). */
export function transportError(error: unknown): CoreResponse {
  return errorJson(error);
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

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1 || value > 2 ** 31 - 1) {
    throw new RangeError(`mcp-prompt-kit/http: ${name} must be an integer from 1 to ${2 ** 31 - 1}`);
  }
  return value;
}
