/**
 * `completion/complete` for `ref/resource`: the params a {@link CompleteResource} function receives, their checks,
 * and {@link completeFromResourceTemplates}, which answers from SDK `ResourceTemplate`s' own `complete` callbacks.
 *
 * @module
 */
import { JsonDataError, isRecord, jsonData } from '../json.js';
import { MAX_COMPLETION_BYTES, boundCompletionValues } from '../registry/completion.js';
import { MAX_VALUE_DEPTH } from '../render/limits.js';
import { PromptError, echoed } from '../errors.js';
import { readCompleteParams } from '../protocol.js';
import type { CompleteResult } from '../types.js';
import type { McpRequestInfo } from './request-info.js';

/** The params of a `completion/complete` request for a resource template, as checked by the adapter. */
export interface CompleteResourceParams {
  ref: { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

/**
 * Answers `completion/complete` requests whose `ref.type` is `ref/resource` (see the `completeResource` option of
 * attachPrompts). Throw a `PromptError` (for example `RESOURCE_NOT_FOUND`) or an SDK `McpError`/`ProtocolError` to
 * answer with an error.
 */
export type CompleteResource = (
  params: CompleteResourceParams,
  request: McpRequestInfo,
) => CompleteResult | Promise<CompleteResult>;

/** The checked params of a `ref/resource` completion (INVALID_PARAMS when malformed); undefined for other refs. */
export function readCompleteResourceParams(params: unknown): CompleteResourceParams | undefined {
  if (!isRecord(params) || !isRecord(params['ref']) || params['ref']['type'] !== 'ref/resource') return undefined;
  return readCompleteParams(params) as CompleteResourceParams;
}

function badResult(rule: string): PromptError {
  return new PromptError(
    'INTERNAL_ERROR',
    `completeResource must return { completion: { values: string[], total?, hasMore? } }: ${rule}`,
  );
}

/** The values as a fresh array of strings (holes in a sparse array count as non-strings). */
function readValues(values: unknown): string[] {
  if (!Array.isArray(values)) throw badResult('completion.values is not an array');
  const copy: string[] = [];
  for (let i = 0; i < values.length; i++) {
    const value: unknown = values[i];
    if (typeof value !== 'string') throw badResult('completion.values holds a value that is not a string');
    copy.push(value);
  }
  return copy;
}

/** A fresh, spec-shaped copy of a completeResource result within 100 values and 64 KiB; off-spec is INTERNAL_ERROR. */
export function checkCompleteResult(result: unknown): CompleteResult {
  if (!isRecord(result)) throw badResult('the result is not an object');
  const completion = result['completion'];
  if (!isRecord(completion)) throw badResult('completion is not an object');
  const values = readValues(completion['values']);
  const total = completion['total'];
  if (total !== undefined && !(typeof total === 'number' && Number.isSafeInteger(total) && total >= values.length)) {
    throw badResult('completion.total is not an integer at least as large as the number of values');
  }
  const hasMore = completion['hasMore'];
  if (hasMore !== undefined && typeof hasMore !== 'boolean') throw badResult('completion.hasMore is not a boolean');
  const meta = completionMeta(result['_meta']);

  // The kept values are well-formed copies (lone surrogates replaced), cut or not.
  const kept = boundCompletionValues(values, total ?? values.length);
  const checked: CompleteResult['completion'] = { values: kept.values };
  if (kept.values.length < values.length) {
    checked.total = kept.total;
    checked.hasMore = true;
  } else {
    if (total !== undefined) checked.total = total;
    if (hasMore !== undefined) checked.hasMore = hasMore;
  }
  return meta === undefined ? { completion: checked } : { completion: checked, _meta: meta };
}

/** `_meta` as a plain-data snapshot within the answer's 64 KiB (see jsonData); off-spec is INTERNAL_ERROR. */
function completionMeta(meta: unknown): Record<string, unknown> | undefined {
  if (meta === undefined) return undefined;
  if (!isRecord(meta)) throw badResult('_meta is not an object');
  try {
    return jsonData(meta, { maxDepth: MAX_VALUE_DEPTH, size: MAX_COMPLETION_BYTES }) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof JsonDataError)) throw error;
    throw badResult(`_meta cannot be serialized as JSON (${error.reason})`);
  }
}

/** Completes one variable of a URI template (both SDKs' `CompleteResourceTemplateCallback`). */
export type CompleteTemplateVariable = (
  value: string,
  context?: { arguments?: Record<string, string> },
) => string[] | Promise<string[]>;

/** What {@link completeFromResourceTemplates} reads of an SDK `ResourceTemplate` (v1 or v2): public accessors only. */
export interface ResourceTemplateLike {
  readonly uriTemplate: { toString(): string };
  completeCallback(variable: string): CompleteTemplateVariable | undefined;
}

/** What `McpServer.registerResource()` returns for a template (v1 or v2); its template is read at each request. */
export interface RegisteredResourceTemplateLike {
  readonly resourceTemplate: ResourceTemplateLike;
}

function templateOf(item: ResourceTemplateLike | RegisteredResourceTemplateLike): ResourceTemplateLike {
  return 'resourceTemplate' in item ? item.resourceTemplate : item;
}

function isTemplateLike(value: unknown): boolean {
  const t = isRecord(value) && 'resourceTemplate' in value ? value['resourceTemplate'] : value;
  return (
    typeof t === 'object' &&
    t !== null &&
    typeof (t as { completeCallback?: unknown }).completeCallback === 'function' &&
    (t as { uriTemplate?: unknown }).uriTemplate !== undefined
  );
}

/**
 * A {@link CompleteResource} that answers from SDK `ResourceTemplate`s' own `complete` callbacks, the way McpServer
 * itself does: the template whose URI template equals `ref.uri` completes the variable `argument.name` (no callback
 * for it: no values); an unknown template is `RESOURCE_NOT_FOUND` (-32602). Pass the templates you registered with
 * `McpServer.registerResource()` (or what it returned), so each callback is written once.
 *
 * @example
 * ```ts
 * import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
 *
 * const ids = ['intro', 'install', 'usage'];
 * const docs = new ResourceTemplate('docs://{id}', { list: undefined, complete: { id: (v) => ids.filter((i) => i.startsWith(v)) } });
 * const server = new McpServer({ name: 'docs', version: '1.0.0' });
 * server.registerResource('docs', docs, {}, (uri, { id }) => ({
 *   contents: [{ uri: uri.href, text: `# ${String(id)}` }],
 * }));
 * attachPrompts(server, registry, { completeResource: completeFromResourceTemplates([docs]) });
 * ```
 */
export function completeFromResourceTemplates(
  templates: readonly (ResourceTemplateLike | RegisteredResourceTemplateLike)[],
): CompleteResource {
  if (!Array.isArray(templates) || !templates.every(isTemplateLike)) {
    throw new TypeError(
      'completeFromResourceTemplates: pass an array of SDK ResourceTemplates (or what McpServer.registerResource() returned for them)',
    );
  }
  const list = [...templates];
  return async (params) => {
    const template = list.map(templateOf).find((t) => t.uriTemplate.toString() === params.ref.uri);
    if (template === undefined)
      throw new PromptError('RESOURCE_NOT_FOUND', `Resource template not found: ${echoed(params.ref.uri)}`);
    const complete = template.completeCallback(params.argument.name);
    const values = complete === undefined ? [] : await complete(params.argument.value, params.context);
    // checkCompleteResult (attachPrompts) cuts these to what one answer may carry.
    return { completion: { values, total: values.length, hasMore: false } };
  };
}
