/**
 * Resolving `{{resource:URI}}` directives and `{type: "resource"}` content blocks through a {@link ResourceResolver}
 * (formats and error rules: docs/prompts.md, "Embedded resources"). Logs never hold argument values: internal errors
 * name the directive URI as written, or a block's URI template, and a failing resolver's error only by its class.
 *
 * @module
 */
import { PromptError, echoed, errorClassName, isPromptError } from '../errors.js';
import type { BlobResourceContents, TextResourceContents } from '../types.js';
import { base64DecodedSize, base64ToBytes, bytesToBase64, isBase64, wellFormed } from '../encoding.js';
import { isTextMimeType } from '../resources.js';
import type { ResourceReadContext, ResourceResolver } from '../resources.js';
import { ResourceDeadline } from '../deadline.js';
import { DEFAULT_RENDER_LIMITS, tooManyBytes, tooManyResources } from './limits.js';
import type { RenderLimits } from './limits.js';
import { isResourcePattern } from './pattern.js';

/** What an unknown or denied resource does: fail the request (default) or render a visible note. */
export type ResourceErrorMode = 'error' | 'inline';

/** Options of {@link resolveResourceDirectives}. */
export interface ResolveDirectivesOptions {
  /** Limits (default {@link DEFAULT_RENDER_LIMITS}). */
  limits?: RenderLimits;
  /** Default `'error'`. */
  onResourceError?: ResourceErrorMode;
  /**
   * Documents this render already embeds elsewhere (for example `{type: "resource"}` blocks), counted against
   * `limits.maxResources` together with the directives.
   */
  alreadyEmbedded?: number;
  /** The render's wait (request signal + resource timeout); by default one of `limits.resourceTimeoutMs`. */
  deadline?: ResourceDeadline;
}

/** Options of {@link resolveEmbeddedResource}. */
export interface ResolveEmbeddedOptions {
  /** Limits (default {@link DEFAULT_RENDER_LIMITS}); only `maxRenderedBytes` applies to one resource. */
  limits?: RenderLimits;
  /** Default `'error'`. */
  onResourceError?: ResourceErrorMode;
  /**
   * The mimeType the content template declares: it wins over the resolver's (the author knows what the document
   * is), and decides the form: a text type is sent as `text` (a blob that is valid UTF-8 is decoded), any other as a
   * base64 `blob` (text is encoded as UTF-8). Not applied to inline notes (`text/plain`); `''` declares none.
   */
  mimeType?: string;
  /**
   * The URI as written in the content template, before rendering (for example `docs://{{id}}`). When given, internal
   * (logged) error messages name it instead of the rendered `uri`, which may hold argument values. Client-facing
   * errors (`Resource not found: <uri>`, RESOURCE_DENIED) and inline notes keep the rendered URI.
   */
  uriTemplate?: string;
  /** The render's wait (request signal + resource timeout); by default one of `limits.resourceTimeoutMs`. */
  deadline?: ResourceDeadline;
}

type Outcome =
  | { kind: 'ok'; contents: CheckedContents }
  | { kind: 'not-found' }
  | { kind: 'denied'; error: PromptError };

function notFound(uri: string, cause?: unknown): PromptError {
  return new PromptError(
    'RESOURCE_NOT_FOUND',
    `Resource not found: ${echoed(uri)}`,
    cause === undefined ? {} : { cause },
  );
}

/** What a log may say about a foreign error: its class ("TypeError"), never its message (see errorClassName). */
function errorKind(error: unknown): string {
  const name = errorClassName(error);
  return typeof error === 'object' && error !== null ? name : `a thrown ${name}`;
}

/** A URI for internal (logged) messages: the directive URI as written, or the URI template of a content block. */
function logLabel(uri: string, uriTemplate: string | undefined): string {
  return uriTemplate === undefined ? uri : `URI template ${uriTemplate}`;
}

function resolverFault(label: string, error: unknown): PromptError {
  return new PromptError('INTERNAL_ERROR', `Resource resolver failed for ${label}: ${errorKind(error)}`, {
    cause: error,
  });
}

function noResolver(label: string): PromptError {
  return new PromptError('INTERNAL_ERROR', `No resource resolver is configured to resolve ${label}`);
}

function classify(label: string, error: unknown): Outcome {
  if (isPromptError(error)) {
    if (error.code === 'RESOURCE_NOT_FOUND') return { kind: 'not-found' };
    if (error.code === 'RESOURCE_DENIED') return { kind: 'denied', error };
    throw error;
  }
  throw resolverFault(label, error);
}

/** @internal A resolver's contents entry after {@link checkContents}: a fresh copy, strings well-formed. */
export type CheckedContents = {
  /** '' when the resolver gave none (never for a listed entry). */
  readonly uri: string;
  /** undefined when the resolver gave none (absent, `null` or `''`). */
  readonly mimeType: string | undefined;
} & ({ readonly text: string; readonly blob?: undefined } | { readonly text?: undefined; readonly blob: string });

/** @internal A resolver's contents entry checked with each field read once (text a string, or blob base64). */
export function checkContents(label: string, value: unknown, listed: boolean): CheckedContents {
  const invalid = (problem: string): PromptError =>
    new PromptError('INTERNAL_ERROR', `Resource resolver returned invalid contents for ${label} (${problem})`);
  if (typeof value !== 'object' || value === null) throw invalid('not an object');
  let uri: unknown, mimeType: unknown, text: unknown, blob: unknown;
  try {
    ({ uri, mimeType, text, blob } = value as Record<string, unknown>);
  } catch (error) {
    const message = `Resource resolver returned contents for ${label} whose reading threw ${errorClassName(error)}`;
    throw new PromptError('INTERNAL_ERROR', message, { cause: error });
  }
  if (text !== undefined && typeof text !== 'string') throw invalid('text is not a string');
  if (typeof text !== 'string' && typeof blob !== 'string') throw invalid('no text or blob');
  if (listed ? typeof uri !== 'string' || uri === '' : uri !== undefined && typeof uri !== 'string') {
    throw invalid(listed ? 'a listed entry has no string uri' : 'uri is not a string');
  }
  if (mimeType !== undefined && mimeType !== null && typeof mimeType !== 'string')
    throw invalid('mimeType is not a string');
  const head = {
    uri: typeof uri === 'string' ? wellFormed(uri) : '',
    mimeType: typeof mimeType === 'string' && mimeType !== '' ? wellFormed(mimeType) : undefined,
  };
  if (typeof text === 'string') return { ...head, text: wellFormed(text) };
  if (!isBase64(blob as string)) throw invalid('blob is not valid base64');
  return { ...head, blob: blob as string };
}

/**
 * @internal Checked contents as the wire sends them: the resolver's uri, else `uri`; the `declared` mimeType (in the
 * form it calls for: text types as text, others as blob), else the resolver's.
 */
export function wireContents(
  contents: CheckedContents,
  uri: string,
  declared?: string,
): TextResourceContents | BlobResourceContents {
  const at = contents.uri === '' ? uri : contents.uri;
  const form = declared === undefined || declared.trim() === '' ? contents : asDeclared(contents, declared);
  const base = form.mimeType === undefined ? { uri: at } : { uri: at, mimeType: form.mimeType };
  return form.text !== undefined ? { ...base, text: form.text } : { ...base, blob: form.blob };
}

/** Contents in the form a declared mimeType calls for; a blob that is not UTF-8 stays a blob (never lossy). */
function asDeclared(contents: CheckedContents, mimeType: string): CheckedContents {
  if (isTextMimeType(mimeType)) {
    if (contents.text !== undefined) return { uri: contents.uri, mimeType, text: contents.text };
    const bytes = base64ToBytes(contents.blob);
    let text: string | undefined;
    try {
      text = bytes === undefined ? undefined : new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      text = undefined;
    }
    return text === undefined
      ? { uri: contents.uri, mimeType, blob: contents.blob }
      : { uri: contents.uri, mimeType, text };
  }
  if (contents.blob !== undefined) return { uri: contents.uri, mimeType, blob: contents.blob };
  return { uri: contents.uri, mimeType, blob: bytesToBase64(new TextEncoder().encode(contents.text)) };
}

async function readOne(
  uri: string,
  label: string,
  resolver: ResourceResolver,
  deadline: ResourceDeadline,
): Promise<Outcome> {
  let value: unknown;
  try {
    value = await deadline.read(resolver.read(uri, deadline.context), label);
  } catch (error) {
    return classify(label, error);
  }
  if (value === null || value === undefined) return { kind: 'not-found' };
  return { kind: 'ok', contents: checkContents(label, value, false) };
}

function contentsText(uri: string, contents: CheckedContents): string {
  if (contents.text !== undefined) return contents.text;
  return `[binary resource ${uri}, ${contents.mimeType ?? 'application/octet-stream'}, ${base64DecodedSize(contents.blob)} bytes]`;
}

function byCodeUnits(a: CheckedContents, b: CheckedContents): number {
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0;
}

/** Shared state of one render's resolution: counts, and the early stop. */
interface Budget {
  readonly limits: RenderLimits;
  readonly inline: boolean;
  resources: number;
  /** UTF-16 length of the texts so far: a lower bound of their UTF-8 bytes. */
  units: number;
  readonly deadline: ResourceDeadline;
}

function spend(budget: Budget, text: string): string {
  budget.units += text.length;
  if (budget.units > budget.limits.maxRenderedBytes) throw tooManyBytes(budget.limits.maxRenderedBytes);
  return text;
}

function failureNote(uri: string, outcome: Outcome, budget: Budget): string {
  if (outcome.kind === 'denied') {
    if (!budget.inline) throw outcome.error;
    return `[resource denied: ${uri}]`;
  }
  if (!budget.inline) throw notFound(uri);
  return `[resource not found: ${uri}]`;
}

async function resolveExact(uri: string, resolver: ResourceResolver, budget: Budget): Promise<string> {
  const outcome = await readOne(uri, uri, resolver, budget.deadline);
  if (outcome.kind !== 'ok') return spend(budget, failureNote(uri, outcome, budget));
  return spend(budget, contentsText(uri, outcome.contents));
}

async function resolveGlob(pattern: string, resolver: ResourceResolver, budget: Budget): Promise<string> {
  if (typeof resolver.list !== 'function') {
    throw new PromptError(
      'INTERNAL_ERROR',
      `The resource resolver cannot list resources, so the glob directive {{resource:${pattern}}} cannot be resolved`,
    );
  }
  let matches: unknown;
  try {
    matches = await budget.deadline.read(resolver.list(pattern, budget.deadline.context), pattern);
  } catch (error) {
    return spend(budget, failureNote(pattern, classify(pattern, error), budget));
  }
  if (!Array.isArray(matches)) {
    throw new PromptError('INTERNAL_ERROR', `Resource resolver returned a non-array listing for ${pattern}`);
  }
  if (matches.length === 0) return spend(budget, failureNote(pattern, { kind: 'not-found' }, budget));
  budget.resources += matches.length;
  if (budget.resources > budget.limits.maxResources) throw tooManyResources(budget.limits.maxResources);
  const sorted = matches.map((m: unknown) => checkContents(pattern, m, true)).sort(byCodeUnits);
  let text = '';
  for (let i = 0; i < sorted.length; i++) {
    const contents = sorted[i] as CheckedContents;
    const part = `${i === 0 ? '' : '\n\n'}--- ${contents.uri} ---\n${contentsText(contents.uri, contents)}`;
    text += spend(budget, part);
  }
  return text;
}

/**
 * Resolves one render's directives in parallel into URI -> text, within `limits` (LIMIT_EXCEEDED as soon as crossed)
 * and the deadline.
 */
export async function resolveResourceDirectives(
  directives: readonly string[],
  resolver: ResourceResolver | undefined,
  context: ResourceReadContext,
  options: ResolveDirectivesOptions = {},
): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  if (directives.length === 0) return result;
  const limits = options.limits ?? DEFAULT_RENDER_LIMITS;
  const unique = [...new Set(directives)];
  let exact = options.alreadyEmbedded ?? 0;
  for (const uri of unique) if (!isResourcePattern(uri)) exact++;
  if (exact > limits.maxResources) throw tooManyResources(limits.maxResources);
  if (resolver === undefined) throw noResolver(unique[0] as string);
  const owned = options.deadline === undefined;
  const deadline = options.deadline ?? new ResourceDeadline(context, limits.resourceTimeoutMs);
  const budget: Budget = {
    limits,
    inline: options.onResourceError === 'inline',
    resources: exact,
    units: 0,
    deadline,
  };
  try {
    const texts = await Promise.all(
      unique.map((uri) =>
        isResourcePattern(uri) ? resolveGlob(uri, resolver, budget) : resolveExact(uri, resolver, budget),
      ),
    );
    for (let i = 0; i < unique.length; i++) result.set(unique[i] as string, texts[i] as string);
    return result;
  } catch (error) {
    deadline.fail(error);
    throw error;
  } finally {
    if (owned) deadline.end();
  }
}

/** Resolves a resource block's rendered URI into EmbeddedResource contents (errors name `uriTemplate` when given). */
export async function resolveEmbeddedResource(
  uri: string,
  resolver: ResourceResolver | undefined,
  context: ResourceReadContext,
  options: ResolveEmbeddedOptions = {},
): Promise<TextResourceContents | BlobResourceContents> {
  const label = logLabel(uri, options.uriTemplate);
  if (resolver === undefined) throw noResolver(label);
  const limits = options.limits ?? DEFAULT_RENDER_LIMITS;
  const deadline = options.deadline ?? new ResourceDeadline(context, limits.resourceTimeoutMs);
  let outcome: Outcome;
  try {
    outcome = await readOne(uri, label, resolver, deadline);
  } finally {
    if (options.deadline === undefined) deadline.end();
  }
  if (outcome.kind !== 'ok') {
    if (options.onResourceError !== 'inline') throw outcome.kind === 'denied' ? outcome.error : notFound(uri);
    const note = outcome.kind === 'denied' ? `[resource denied: ${uri}]` : `[resource not found: ${uri}]`;
    return { uri, mimeType: 'text/plain', text: note };
  }
  const contents = outcome.contents;
  if ((contents.text ?? contents.blob).length > limits.maxRenderedBytes) throw tooManyBytes(limits.maxRenderedBytes);
  return wireContents(contents, uri, options.mimeType);
}
