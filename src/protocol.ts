/**
 * Transport-agnostic protocol handlers for `prompts/list`, `prompts/get` and `completion/complete`, and a JSON-RPC
 * 2.0 envelope for one message. Client mistakes are always -32602 (or -32600/-32601/-32700), never -32603.
 *
 * @module
 */
import { checkCompletionInput } from './registry/completion.js';
import { isRecord } from './json.js';
import { parseJsonBody } from './json-body.js';
import { JSON_RPC_ERROR_CODES, JsonRpcError, PromptError, echoed } from './errors.js';
import type { RequestContext } from './registry/options.js';
import type { PromptRegistry } from './registry/registry.js';
import type {
  CompleteParams,
  CompleteResult,
  GetPromptResult,
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcResponse,
  ListPromptsResult,
} from './types.js';

/** Per-request extras an adapter passes through. */
export interface HandlerExtra {
  signal?: AbortSignal;
  /** Passed to programmatic render functions as `context.extra`. */
  context?: Readonly<Record<string, unknown>>;
}

/** The three handlers, keyed by method name. Each throws {@link JsonRpcError}. */
export interface PromptHandlers {
  'prompts/list'(params: unknown, extra?: HandlerExtra): Promise<ListPromptsResult>;
  'prompts/get'(params: unknown, extra?: HandlerExtra): Promise<GetPromptResult>;
  'completion/complete'(params: unknown, extra?: HandlerExtra): Promise<CompleteResult>;
}

/** The method names served by {@link createPromptHandlers}. */
export type PromptMethod = keyof PromptHandlers;

function invalid(message: string): PromptError {
  return new PromptError('INVALID_PARAMS', message);
}

function paramsObject(params: unknown): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (!isRecord(params)) throw invalid('params must be an object');
  return params;
}

function requestContext(extra: HandlerExtra | undefined): RequestContext {
  const ctx: RequestContext = {};
  if (extra?.signal !== undefined) ctx.signal = extra.signal;
  if (extra?.context !== undefined) ctx.extra = extra.context;
  return ctx;
}

async function wrap<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw JsonRpcError.from(error);
  }
}

/**
 * Handlers for `prompts/list`, `prompts/get` and `completion/complete` over a registry, for any transport.
 * Params are checked first (-32602 `params.name must be a string`, ...); errors are {@link JsonRpcError}s mapped
 * through the error table.
 *
 * @example
 * ```ts
 * const handlers = createPromptHandlers(registry);
 * const result = await handlers['prompts/get']({ name: 'review_code', arguments: { code: 'x' } });
 * ```
 */
export function createPromptHandlers(registry: PromptRegistry): PromptHandlers {
  return {
    'prompts/list': (params) =>
      wrap(() => {
        const p = paramsObject(params);
        const cursor = p['cursor'];
        if (cursor !== undefined && cursor !== null && typeof cursor !== 'string')
          throw invalid('params.cursor must be a string');
        return typeof cursor === 'string' ? registry.list({ cursor }) : registry.list();
      }),
    'prompts/get': (params, extra) =>
      wrap(() => {
        const p = paramsObject(params);
        if (typeof p['name'] !== 'string') throw invalid('params.name must be a string');
        const args = p['arguments'];
        if (args !== undefined && args !== null && !isRecord(args)) throw invalid('params.arguments must be an object');
        return registry.getPrompt(p['name'], args, requestContext(extra));
      }),
    'completion/complete': (params, extra) =>
      wrap(async () => {
        const p = readCompleteParams(params);
        if (p.ref.type === 'ref/resource') return { completion: { values: [], total: 0, hasMore: false } };
        const ctx = requestContext(extra);
        if (p.context?.arguments !== undefined) ctx.arguments = p.context.arguments;
        const completion = await registry.complete(p.ref.name, p.argument.name, p.argument.value, ctx);
        return { completion };
      }),
  };
}

/** A fresh copy of `completion/complete` params (null-prototype context); INVALID_PARAMS naming the member or limit. */
export function readCompleteParams(params: unknown): CompleteParams {
  const p = paramsObject(params);
  const ref = p['ref'];
  if (!isRecord(ref) || typeof ref['type'] !== 'string') throw invalid('params.ref must be an object with a type');
  const argument = p['argument'];
  if (!isRecord(argument) || typeof argument['name'] !== 'string' || typeof argument['value'] !== 'string') {
    throw invalid('params.argument must be {name: string, value: string}');
  }
  let read: CompleteParams;
  const arg = { name: argument['name'], value: argument['value'] };
  checkCompletionInput(arg.value, undefined);
  if (ref['type'] === 'ref/prompt') {
    if (typeof ref['name'] !== 'string') throw invalid('params.ref.name must be a string');
    read = { ref: { type: 'ref/prompt', name: ref['name'] }, argument: arg };
  } else if (ref['type'] === 'ref/resource') {
    if (typeof ref['uri'] !== 'string') throw invalid('params.ref.uri must be a string');
    read = { ref: { type: 'ref/resource', uri: ref['uri'] }, argument: arg };
  } else {
    throw invalid(`params.ref.type must be 'ref/prompt' or 'ref/resource'`);
  }
  const context = p['context'];
  if (context !== undefined && context !== null) {
    if (!isRecord(context)) throw invalid('params.context must be an object');
    const given = context['arguments'];
    if (given !== undefined && given !== null) {
      if (isRecord(given)) checkCompletionInput(arg.value, given);
      if (!isRecord(given) || Object.values(given).some((v) => typeof v !== 'string')) {
        throw invalid('params.context.arguments must be an object of strings');
      }
      read.context = { arguments: Object.assign(Object.create(null) as Record<string, string>, given) };
    } else {
      read.context = {};
    }
  }
  return read;
}

const METHODS: ReadonlySet<string> = new Set<PromptMethod>(['prompts/list', 'prompts/get', 'completion/complete']);

function errorResponse(id: JsonRpcId | null, error: JsonRpcErrorObject): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error };
}

function readId(message: Record<string, unknown>): JsonRpcId | null | undefined {
  const id = message['id'];
  if (id === undefined) return undefined;
  if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) return id;
  return null;
}

/**
 * Answers one JSON-RPC 2.0 message (a parsed object or the raw JSON text) for the prompt methods. Returns `null` for
 * a notification (no `id`). Batches are not part of MCP and are answered with -32600.
 *
 * @example
 * ```ts
 * const response = await handleJsonRpc(registry, '{"jsonrpc":"2.0","id":1,"method":"prompts/list"}');
 * ```
 */
export async function handleJsonRpc(
  target: PromptRegistry | PromptHandlers,
  message: unknown,
  extra?: HandlerExtra,
): Promise<JsonRpcResponse | null> {
  let parsed: unknown = message;
  if (typeof message === 'string') {
    try {
      // The arguments of a prompts/get whose numbers JSON.parse changed are marked, so the validator refuses them by
      // name.
      parsed = parseJsonBody(message, ['params', 'arguments']);
    } catch {
      return errorResponse(null, { code: JSON_RPC_ERROR_CODES.PARSE_ERROR, message: 'Parse error' });
    }
  }
  if (!isRecord(parsed)) {
    return errorResponse(null, {
      code: JSON_RPC_ERROR_CODES.INVALID_REQUEST,
      message: Array.isArray(parsed) ? 'Invalid request: batches are not supported' : 'Invalid request',
    });
  }
  const id = readId(parsed);
  if (parsed['jsonrpc'] !== '2.0' || typeof parsed['method'] !== 'string' || id === null) {
    return errorResponse(id ?? null, { code: JSON_RPC_ERROR_CODES.INVALID_REQUEST, message: 'Invalid request' });
  }
  const method = parsed['method'];
  if (id === undefined) return null;
  if (!METHODS.has(method)) {
    return errorResponse(id, {
      code: JSON_RPC_ERROR_CODES.METHOD_NOT_FOUND,
      message: `Method not found: ${echoed(method)}`,
    });
  }
  const handlers = isHandlers(target) ? target : handlersFor(target);
  try {
    const result = await handlers[method as PromptMethod](parsed['params'], extra);
    return { jsonrpc: '2.0', id, result };
  } catch (error) {
    return errorResponse(id, JsonRpcError.from(error).toJSON());
  }
}

const handlerCache = new WeakMap<PromptRegistry, PromptHandlers>();

function handlersFor(registry: PromptRegistry): PromptHandlers {
  let handlers = handlerCache.get(registry);
  if (handlers === undefined) {
    handlers = createPromptHandlers(registry);
    handlerCache.set(registry, handlers);
  }
  return handlers;
}

function isHandlers(target: PromptRegistry | PromptHandlers): target is PromptHandlers {
  return typeof (target as Partial<PromptHandlers>)['prompts/get'] === 'function';
}
