/**
 * Response helpers shared by every adapter (HTTP, CGI, MCP tool, agent tool), so one value has one JSON shape
 * whatever the transport: `{"result": ...}` / `{"result0": ..., "result1": ...}` / `{}` on success,
 * `{"error": "..."}` (+ `data` for exposed errors) on failure. Also the plain-text rendering of a prompt for agents.
 *
 * @module
 */
import { PromptError, errorClassName, isPromptError, toPromptError } from './errors.js';
import { base64DecodedSize, wellFormed } from './encoding.js';
import { toSafeLogger } from './logger.js';
import { jsonData } from './json.js';
import type { JsonDataBudget } from './json.js';
import { MAX_VALUE_DEPTH } from './render/limits.js';
import type { Logger, SafeLogger } from './logger.js';
import type { ContentBlock, GetPromptResult, Meta, TextContent } from './types.js';

/** The JSON body of an error response: `{"error": "<message>"}` plus `data` when there is some to show. */
export interface ErrorResponseBody {
  error: string;
  data?: unknown;
}

/** An error response for an HTTP-like transport: the status from the error table and the JSON body. */
export interface ErrorResponse {
  status: number;
  body: ErrorResponseBody;
}

/**
 * The result of an MCP `tools/call`, defined here so the core does not import the SDK (a type-level test pins that it
 * is assignable to the SDK's `CallToolResult`). A type alias, not an interface, so it is assignable to the SDK's
 * index-signature types.
 */
export type CallToolResult = {
  /** One text block holding exactly the JSON an HTTP client would get. */
  content: TextContent[];
  /** The same object as the text block, parsed. */
  structuredContent?: { [key: string]: unknown };
  /** `true` on errors; absent on success (the spec's default is `false`). */
  isError?: boolean;
  _meta?: Meta;
};

/**
 * What a tool call produced: one value, several values, or a thrown error.
 * `error` is checked first, then `results`, then `result`.
 */
export type ToolOutcome = { result: unknown } | { results: readonly unknown[] } | { error: unknown };

/**
 * Builds the success body from a function's return values: one value -> `{result}`, several ->
 * `{result0, result1, ...}`, none -> `{}`. The body is the JSON data every transport sends (`toJSON` called,
 * strings well-formed); a value JSON cannot represent (`undefined`, a function, a symbol, or a `toJSON()` answering
 * one of those) is kept as `null`: a key never vanishes from the body. Throws for a value JSON cannot write (a
 * BigInt, a cycle) or one nested deeper than 100 levels.
 *
 * @example
 * ```ts
 * buildSuccessResponse([10]);            // { result: 10 }
 * buildSuccessResponse([10, 20]);        // { result0: 10, result1: 20 }
 * buildSuccessResponse([10, undefined]); // { result0: 10, result1: null }
 * buildSuccessResponse([10, () => 1]);   // { result0: 10, result1: null }
 * buildSuccessResponse([]);              // {}
 * ```
 */
export function buildSuccessResponse(results: readonly unknown[]): Record<string, unknown> {
  const response: Record<string, unknown> = {};
  const budget: JsonDataBudget = { maxDepth: MAX_VALUE_DEPTH, size: Infinity };
  const n = results.length;
  if (n === 1) {
    response.result = jsonData(results[0], budget, 'result') ?? null;
  } else {
    for (let i = 0; i < n; i++) response[`result${i}`] = jsonData(results[i], budget, `result${i}`) ?? null;
  }
  return response;
}

/**
 * Builds the error body `{error: message}`, with a `data` key only when `data` is given (not `undefined`). An empty,
 * blank or non-string message becomes `"Internal error"`: the body always has a non-empty `error` string (lone
 * surrogates replaced by U+FFFD).
 *
 * @example
 * ```ts
 * buildErrorResponse('Invalid JSON body');                 // { error: 'Invalid JSON body' }
 * buildErrorResponse('Missing required prompt arguments', { missing_arguments: ['code'] });
 * buildErrorResponse('');                                  // { error: 'Internal error' }
 * ```
 */
export function buildErrorResponse(message: string, data?: unknown): ErrorResponseBody {
  const error = typeof message === 'string' && message.trim() !== '' ? wellFormed(message) : ERROR_FALLBACK;
  return data === undefined ? { error } : { error, data };
}

const ERROR_FALLBACK = 'Internal error';

/** Options of {@link toCallToolResult} and {@link toolExecutionError}. */
export interface ToolErrorOptions {
  /**
   * Hide the message of errors that are not {@link PromptError}s (default false): the client gets
   * `{"error":"Internal error"}` and the logger gets the error's class name.
   */
  maskErrors?: boolean;
  /** Where a masked error, or a result that cannot be serialized, is logged (silent by default). */
  logger?: Logger;
}

/**
 * The PromptError a tool execution error becomes: a PromptError keeps its code (internal codes stay generic for
 * clients); anything else is `FUNCTION_FAILED` with the thrown message, or `INTERNAL_ERROR` (logged) with
 * `maskErrors`. docs/errors.md ("Error messages") states the rule.
 */
export function toolExecutionError(error: unknown, options: ToolErrorOptions = {}): PromptError {
  if (isPromptError(error)) return toPromptError(error);
  if (options.maskErrors === true) {
    toSafeLogger(options.logger).error(
      { event: 'tool_failed', code: 'INTERNAL_ERROR', error: errorClassName(error) },
      'Tool execution failed',
    );
    return new PromptError('INTERNAL_ERROR', messageOf(error), { cause: error });
  }
  const message = messageOf(error);
  return new PromptError('FUNCTION_FAILED', message.trim() === '' ? undefined : message, { cause: error });
}

/** The message of something thrown, well-formed; '' when it has none or reading it throws (a hostile getter). */
function messageOf(error: unknown): string {
  try {
    const message: unknown = error instanceof Error ? error.message : error;
    return typeof message === 'string' ? wellFormed(message) : '';
  } catch {
    return '';
  }
}

/**
 * Maps anything thrown to an HTTP status and error body through the one error table: a {@link PromptError} keeps its
 * status, message and data when its code is exposed; internal errors and non-PromptErrors become
 * `500 {"error": "Internal error"}` with no data (log the original yourself).
 *
 * @example
 * ```ts
 * errorResponseFor(new PromptError('PROMPT_NOT_FOUND', 'Unknown prompt: x'));
 * // { status: 404, body: { error: 'Unknown prompt: x' } }
 * errorResponseFor(new TypeError('boom'));
 * // { status: 500, body: { error: 'Internal error' } }
 * ```
 */
export function errorResponseFor(error: unknown): ErrorResponse {
  const e = toPromptError(error);
  const data = e.exposed ? e.data : undefined;
  return { status: e.httpStatus, body: buildErrorResponse(e.clientMessage, data) };
}

/**
 * Turns a tool outcome into an MCP `CallToolResult` whose single text block is exactly the JSON an HTTP client would
 * get, with `structuredContent` holding the same object (numbers stay numbers) and `isError: true` on errors. A
 * thrown value that is not a {@link PromptError} is a tool execution error and keeps its message (unless
 * `maskErrors`); PromptErrors map through the error table (internal ones, such as a prompt that failed to render,
 * stay generic). A result that cannot be serialized as JSON (a `BigInt`, a cycle) becomes an internal error rather
 * than a malformed success.
 *
 * @example
 * ```ts
 * toCallToolResult({ result: 10 });
 * // { content: [{ type: 'text', text: '{"result":10}' }], structuredContent: { result: 10 } }
 * toCallToolResult({ error: new Error('x must be a number') });
 * // { content: [{ type: 'text', text: '{"error":"x must be a number"}' }], structuredContent: {...}, isError: true }
 * ```
 */
export function toCallToolResult(outcome: ToolOutcome, options: ToolErrorOptions = {}): CallToolResult {
  // Never throws: a thrown value whose getters throw, or a result that cannot be serialized, is a logged internal
  // error.
  const log = toSafeLogger(options.logger);
  if ('error' in outcome) {
    try {
      return errorToolResult(errorResponseFor(toolExecutionError(outcome.error, options)).body, log);
    } catch {
      log.error(
        { event: 'tool_failed', code: 'INTERNAL_ERROR', error: errorClassName(outcome.error) },
        'Tool execution failed',
      );
      return errorToolResult(buildErrorResponse(''), log);
    }
  }
  let body: { text: string; value: { [key: string]: unknown } };
  try {
    body = toWireJson(
      'results' in outcome ? buildSuccessResponse(outcome.results) : buildSuccessResponse([outcome.result]),
    );
  } catch (error) {
    log.error({ event: 'tool_result_invalid', error: errorClassName(error) }, 'Tool result invalid');
    return errorToolResult(buildErrorResponse(''), log);
  }
  return { content: [{ type: 'text', text: body.text }], structuredContent: body.value };
}

/**
 * @internal A body from {@link buildSuccessResponse} (JSON data already) as the JSON text transports send, and the
 * data.
 */
export function toWireJson(body: Record<string, unknown>): { text: string; value: { [key: string]: unknown } } {
  return { text: JSON.stringify(body), value: body };
}

function errorToolResult(body: ErrorResponseBody, log: SafeLogger): CallToolResult {
  let text: string;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    // Exposed error data that cannot be serialized: keep the message, drop the data.
    log.error({ event: 'tool_result_invalid', error: errorClassName(error) }, 'Tool error data dropped');
    body = { error: body.error };
    text = JSON.stringify(body);
  }
  return {
    content: [{ type: 'text', text }],
    structuredContent: JSON.parse(text) as { [key: string]: unknown },
    isError: true,
  };
}

/**
 * Formats a prompt as plain text for an agent's tool result:
 * `Prompt: <name>\nDescription: <d>\n\nMessages:\n1. User: ...\n2. Assistant: ...\n`. The Description line is
 * present only for a non-empty description. Non-text blocks are described: `[image image/png, 12 KB]`,
 * `[audio audio/wav, 5 bytes]` (decoded sizes), `[resource <uri>]` followed by its text on the next line,
 * `[resource <uri>, <mimeType>, N bytes]` for a blob, `[resource link <uri>]`. Tolerates what a non-conforming
 * remote server may send (content as a string or an array, unknown block types).
 *
 * @example
 * ```ts
 * const result: GetPromptResult = {
 *   description: 'Greets',
 *   messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
 * };
 * formatPromptResult(result, 'greet');
 * // 'Prompt: greet\nDescription: Greets\n\nMessages:\n1. User: Hi\n'
 * ```
 */
export function formatPromptResult(result: GetPromptResult, promptName: string): string {
  let out = `Prompt: ${promptName}\n`;
  if (typeof result.description === 'string' && result.description !== '') {
    out += `Description: ${result.description}\n`;
  }
  out += '\nMessages:\n';
  const messages: readonly unknown[] = Array.isArray(result.messages) ? result.messages : [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as { role?: unknown; content?: unknown } | null | undefined;
    out += `${i + 1}. ${roleLabel(message?.role)}: ${describeContent(message?.content)}\n`;
  }
  return out;
}

function roleLabel(role: unknown): string {
  if (typeof role !== 'string' || role === '') return 'Unknown';
  return role.charAt(0).toUpperCase() + role.slice(1);
}

/** @internal What {@link describeContentWithin} gives: the kept text and the length of the whole description. */
export interface DescribedContent {
  readonly text: string;
  readonly length: number;
}

/** Most blocks of a (non-conforming) content array that are described; the rest are counted. */
const MAX_CONTENT_BLOCKS = 100;

/**
 * @internal A message's content as the text {@link formatPromptResult} writes, keeping at most `max` characters: the
 * work is bounded by `max` and the block count, whatever the size of the texts, URIs or base64 data.
 */
export function describeContentWithin(content: unknown, max: number): DescribedContent {
  const parts = new BoundedText(max);
  if (typeof content === 'string') {
    parts.add(content);
  } else if (Array.isArray(content)) {
    const n = content.length;
    const shown = Math.min(n, MAX_CONTENT_BLOCKS);
    for (let i = 0; i < shown; i++) {
      if (i > 0) parts.add('\n');
      describeBlock(content[i], parts);
    }
    if (n > shown) parts.add(`\n[${n - shown} more content blocks]`);
  } else {
    describeBlock(content, parts);
  }
  return { text: parts.text, length: parts.length };
}

/** Text appended piece by piece, kept up to `max` characters, with the length it would have had. */
class BoundedText {
  text = '';
  length = 0;
  constructor(private readonly max: number) {}

  add(piece: string): void {
    this.length += piece.length;
    const room = this.max - this.text.length;
    if (room > 0) this.text += piece.length <= room ? piece : piece.slice(0, room);
  }
}

function describeContent(content: unknown): string {
  return describeContentWithin(content, Infinity).text;
}

function describeBlock(block: unknown, out: BoundedText): void {
  if (typeof block === 'string') return out.add(block);
  if (typeof block !== 'object' || block === null) return out.add('[empty content]');
  const b = block as Partial<Record<string, unknown>> & { type?: unknown };
  switch (b.type as ContentBlock['type'] | undefined) {
    case 'text':
      return out.add(typeof b.text === 'string' ? b.text : '');
    case 'image':
    case 'audio':
      out.add(`[${String(b.type)} `);
      out.add(stringOr(b.mimeType, 'unknown type'));
      return out.add(`, ${sizeOf(b.data)}]`);
    case 'resource_link':
      out.add('[resource link ');
      out.add(stringOr(b.uri, ''));
      return out.add(']');
    case 'resource': {
      const r = (typeof b.resource === 'object' && b.resource !== null ? b.resource : {}) as Partial<
        Record<string, unknown>
      >;
      out.add('[resource ');
      out.add(stringOr(r.uri, ''));
      if (typeof r.text === 'string') {
        out.add(']\n');
        return out.add(r.text);
      }
      if (typeof r.blob === 'string') {
        if (typeof r.mimeType === 'string') {
          out.add(', ');
          out.add(r.mimeType);
        }
        return out.add(`, ${sizeOf(r.blob)}]`);
      }
      return out.add(']');
    }
    default:
      out.add('[');
      out.add(typeof b.type === 'string' ? b.type : 'unknown');
      return out.add(' content]');
  }
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** Base64 longer than this is sized from its length (whitespace is not worth a scan at that size). */
const EXACT_SIZE_LIMIT = 1 << 20;

function sizeOf(base64: unknown): string {
  const text = typeof base64 === 'string' ? base64 : '';
  const bytes = text.length <= EXACT_SIZE_LIMIT ? base64DecodedSize(text) : Math.floor((text.length * 3) / 4);
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
