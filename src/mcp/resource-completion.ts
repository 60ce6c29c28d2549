/**
 * `completion/complete` for `ref/resource`: the params a {@link CompleteResource} function receives, their checks,
 * and {@link completeFromResourceTemplates}, which answers from SDK `ResourceTemplate`s' own `complete` callbacks.
 *
 * @module
 */
import { PromptError } from '../errors.js';
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

/** The largest number of values one completion may carry (MCP spec). */
const MAX_COMPLETION_VALUES = 100;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads the params of a `ref/resource` completion request; `undefined` when the request is not one (its `ref.type`
 * is something else, or `ref` is missing: the prompt handler answers those). Malformed params throw
 * `INVALID_PARAMS` (-32602). Returns fresh objects: the client's are never handed on.
 *
 * @example
 * ```ts
 * readCompleteResourceParams({ ref: { type: 'ref/resource', uri: 'docs://{id}' }, argument: { name: 'id', value: 'a' } });
 * ```
 */
export function readCompleteResourceParams(params: unknown): CompleteResourceParams | undefined {
  if (!isObject(params) || !isObject(params['ref']) || params['ref']['type'] !== 'ref/resource') return undefined;
  return readCompleteParams(params) as CompleteResourceParams;
}

/**
 * Checks what a {@link CompleteResource} function returned and keeps it within the spec's 100 values (anything else
 * is a server fault: INTERNAL_ERROR, -32603 with a generic message).
 *
 * @example
 * ```ts
 * checkCompleteResult({ completion: { values: ['a'] } }); // { completion: { values: ['a'] } }
 * ```
 */
export function checkCompleteResult(result: unknown): CompleteResult {
  const completion = isObject(result) ? result['completion'] : undefined;
  const values = isObject(completion) ? completion['values'] : undefined;
  if (!isObject(completion) || !Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
    throw new PromptError('INTERNAL_ERROR', 'completeResource must return { completion: { values: string[] } }');
  }
  if (values.length <= MAX_COMPLETION_VALUES) return result as CompleteResult;
  const total = typeof completion['total'] === 'number' ? completion['total'] : values.length;
  return {
    ...(result as CompleteResult),
    completion: { values: (values as string[]).slice(0, MAX_COMPLETION_VALUES), total, hasMore: true },
  };
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
  const t = isObject(value) && 'resourceTemplate' in value ? value['resourceTemplate'] : value;
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
 * const docs = new ResourceTemplate('docs://{id}', { list: undefined, complete: { id: (v) => ids.filter((i) => i.startsWith(v)) } });
 * server.registerResource('docs', docs, {}, read);
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
    if (template === undefined) throw new PromptError('RESOURCE_NOT_FOUND', `Resource template not found: ${params.ref.uri}`);
    const complete = template.completeCallback(params.argument.name);
    const values = complete === undefined ? [] : await complete(params.argument.value, params.context);
    return {
      completion: {
        values: values.slice(0, MAX_COMPLETION_VALUES),
        total: values.length,
        hasMore: values.length > MAX_COMPLETION_VALUES,
      },
    };
  };
}
