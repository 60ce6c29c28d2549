/**
 * The last gate before a render function's result goes on the wire: roles `user` | `assistant`, exactly one content
 * block per message, fields of the right types, base64 data, non-empty mimeTypes, JSON-serializable `_meta`, and the
 * size limit. A bad result never becomes a malformed success: it becomes INTERNAL_ERROR (details only in the logs).
 * The guard returns a fresh copy with only the fields the spec defines, each read once (`_meta` as a deep JSON
 * snapshot), so what it checked is what is sent; lone surrogates in strings become U+FFFD.
 *
 * @module
 * @internal
 */
import { isBase64, wellFormed } from '../encoding.js';
import { JsonDataError, describeType, isRecord, jsonData } from '../json.js';
import type { JsonDataBudget } from '../json.js';
import { PromptError, errorClassName } from '../errors.js';
import { MAX_VALUE_DEPTH, assertRenderedSize } from './limits.js';
import type {
  Annotations,
  ContentBlock,
  EmbeddedResource,
  GetPromptResult,
  Icon,
  Meta,
  PromptMessage,
  ResourceLink,
  Role,
} from '../types.js';

/** Options of {@link guardPromptResult}. */
export interface GuardOptions {
  /** Maximum total UTF-8 size of the texts, resource texts, base64 data and description. */
  maxRenderedBytes: number;
  /** The prompt's name, for the log message. */
  promptName: string;
}

/** A path into the result and what is wrong there; turned into a PromptError by {@link guardPromptResult}. */
class GuardFailure {
  constructor(
    readonly path: string,
    /** Read after "render returned ", e.g. `messages[1].role 'system': must be 'user' or 'assistant'`. */
    readonly detail: string,
  ) {}
}

const BLOCK_TYPES = 'text, image, audio, resource_link, resource';

/**
 * Validates a render function's (normalized) output and returns a spec-exact copy; anything malformed or oversized is
 * INTERNAL_ERROR.
 */
export function guardPromptResult(value: unknown, options: GuardOptions): GetPromptResult {
  const copy = new ResultCopy(options.maxRenderedBytes);
  let result: GetPromptResult;
  try {
    if (value instanceof UnreadableOutput) throw value.error;
    result = copy.result(value);
  } catch (error) {
    if (!(error instanceof GuardFailure)) {
      // A getter of the output threw: its message may quote argument values, so only its class goes into ours.
      const message = `prompt '${options.promptName}': reading the render output threw ${errorClassName(error)}`;
      throw new PromptError('INTERNAL_ERROR', message, { data: { prompt: options.promptName }, cause: error });
    }
    throw new PromptError('INTERNAL_ERROR', `prompt '${options.promptName}' render returned ${error.detail}`, {
      data: { prompt: options.promptName, path: error.path },
    });
  }
  try {
    assertRenderedSize(copy.sizes, options);
  } catch (error) {
    // A template's size depends on what the client sent (LIMIT_EXCEEDED, 413); a render function's output is the
    // operator's code breaking the limit: an internal error for the client, a structured log entry for the operator.
    throw new PromptError(
      'INTERNAL_ERROR',
      `prompt '${options.promptName}' render returned a result over the ${options.maxRenderedBytes}-byte limit`,
      { data: { prompt: options.promptName, path: '' }, cause: error },
    );
  }
  return result;
}

/** A render output whose reading threw while it was normalized; the guard reports it like any other failed read. */
class UnreadableOutput {
  constructor(readonly error: unknown) {}
}

/**
 * A render function's string or message array as `{description?, messages}`; anything else is returned for the guard to
 * reject.
 */
export function normalizeRenderOutput(output: unknown, description?: string): unknown {
  try {
    if (typeof output === 'string') {
      const messages = [{ role: 'user', content: { type: 'text', text: output } }];
      return description === undefined ? { messages } : { description, messages };
    }
    if (Array.isArray(output))
      return description === undefined ? { messages: output } : { description, messages: output };
    if (isRecord(output) && description !== undefined && output.description === undefined)
      return { ...output, description };
    return output;
  } catch (error) {
    return new UnreadableOutput(error);
  }
}

/**
 * Role and block-type names other systems use, safe to quote in a log line. Anything else a render function put
 * there may be an argument value, so it is only described by its length.
 */
const KNOWN_WORDS: ReadonlySet<string> = new Set([
  'system',
  'developer',
  'tool',
  'function',
  'model',
  'human',
  'ai',
  'bot',
  'User',
  'Assistant',
  'System',
  'text',
  'image',
  'audio',
  'video',
  'file',
  'resource',
  'resource_link',
  'image_url',
  'input_text',
  'json',
  'html',
]);

function quoted(value: string): string {
  return KNOWN_WORDS.has(value) ? `'${value}'` : `(a string of ${value.length} characters)`;
}

function reject(path: string, value: unknown, expectation: string): never {
  const found = path === '' ? describeType(value) : `${path} as ${describeType(value)}`;
  throw new GuardFailure(path, `${found}: ${expectation}`);
}

function failValue(path: string, value: string, expectation: string): never {
  throw new GuardFailure(path, `${path} ${quoted(value)}: ${expectation}`);
}

/**
 * One guarded copy. Every property of the output is read once, and only fresh plain data goes into the copy (free-form
 * `_meta` as a deep JSON snapshot): a getter answering differently on a second read cannot change what was checked.
 */
class ResultCopy {
  /** The strings that count toward the size limit, measured lazily by assertRenderedSize. */
  readonly sizes: string[] = [];
  /** What all the `_meta` objects of this result may hold together (as many UTF-16 units as the size limit). */
  readonly #meta: JsonDataBudget;

  constructor(maxRenderedBytes: number) {
    this.#meta = { maxDepth: MAX_VALUE_DEPTH, size: maxRenderedBytes };
  }

  result(value: unknown): GetPromptResult {
    if (!isRecord(value)) reject('', value, 'must be an object with a messages array');
    const { messages: source, description, _meta } = value;
    if (!Array.isArray(source)) reject('messages', source, 'must be an array');
    const n = source.length;
    const messages: PromptMessage[] = new Array<PromptMessage>(n);
    for (let i = 0; i < n; i++) messages[i] = this.message(source[i], `messages[${i}]`);
    let result: GetPromptResult;
    if (description === undefined) {
      result = { messages };
    } else {
      const text = requireString(description, 'description');
      this.sizes.push(text);
      result = { description: text, messages };
    }
    const meta = this.meta(_meta, '_meta');
    if (meta !== undefined) result._meta = meta;
    return result;
  }

  message(value: unknown, path: string): PromptMessage {
    if (!isRecord(value)) reject(path, value, 'must be an object with role and content');
    const { role, content } = value;
    if (role !== 'user' && role !== 'assistant') {
      if (typeof role === 'string') failValue(`${path}.role`, role, "must be 'user' or 'assistant'");
      reject(`${path}.role`, role, "must be 'user' or 'assistant'");
    }
    if (typeof content === 'string') {
      reject(`${path}.content`, content, 'must be exactly one content block object, not a bare string');
    }
    if (Array.isArray(content)) {
      reject(`${path}.content`, content, 'must be exactly one content block object, not an array');
    }
    return { role: role satisfies Role, content: this.block(content, `${path}.content`) };
  }

  block(value: unknown, path: string): ContentBlock {
    if (!isRecord(value)) reject(path, value, 'must be a content block object');
    const { type, annotations, _meta } = value;
    let block: ContentBlock;
    switch (type) {
      case 'text': {
        const text = requireString(value.text, `${path}.text`);
        this.sizes.push(text);
        block = { type, text };
        break;
      }
      case 'image':
      case 'audio': {
        const data = requireString(value.data, `${path}.data`);
        if (!isBase64(data))
          throw new GuardFailure(
            `${path}.data`,
            `${path}.data: must be base64 (standard alphabet, padded, no whitespace)`,
          );
        const mimeType = requireString(value.mimeType, `${path}.mimeType`);
        if (mimeType.trim() === '') throw new GuardFailure(`${path}.mimeType`, `${path}.mimeType: must not be empty`);
        this.sizes.push(data);
        block = { type, data, mimeType };
        break;
      }
      case 'resource_link':
        block = copyResourceLink(value, path);
        break;
      case 'resource':
        block = { type, resource: this.resource(value.resource, `${path}.resource`) };
        break;
      default:
        if (typeof type === 'string') failValue(`${path}.type`, type, `must be one of ${BLOCK_TYPES}`);
        reject(`${path}.type`, type, `must be one of ${BLOCK_TYPES}`);
    }
    const copied = optionalAnnotations(annotations, `${path}.annotations`);
    if (copied !== undefined) block.annotations = copied;
    const meta = this.meta(_meta, `${path}._meta`);
    if (meta !== undefined) block._meta = meta;
    return block;
  }

  resource(value: unknown, path: string): EmbeddedResource['resource'] {
    if (!isRecord(value)) reject(path, value, 'must be an object with uri and text or blob');
    const { uri: rawUri, mimeType: rawMimeType, _meta, text: rawText, blob: rawBlob } = value;
    const uri = requireString(rawUri, `${path}.uri`);
    const mimeType = rawMimeType === undefined ? undefined : requireString(rawMimeType, `${path}.mimeType`);
    const meta = this.meta(_meta, `${path}._meta`);
    const hasText = rawText !== undefined;
    if (hasText === (rawBlob !== undefined)) {
      const found = hasText ? 'both' : 'neither';
      throw new GuardFailure(path, `${path}: must have exactly one of text or blob (found ${found})`);
    }
    const base = {
      uri,
      ...(mimeType === undefined ? {} : { mimeType }),
      ...(meta === undefined ? {} : { _meta: meta }),
    };
    if (hasText) {
      const text = requireString(rawText, `${path}.text`);
      this.sizes.push(text);
      return { ...base, text };
    }
    const blob = requireString(rawBlob, `${path}.blob`);
    if (!isBase64(blob))
      throw new GuardFailure(`${path}.blob`, `${path}.blob: must be base64 (standard alphabet, padded, no whitespace)`);
    this.sizes.push(blob);
    return { ...base, blob };
  }

  /** A deep plain-data snapshot of `_meta` (see {@link jsonData}), within this result's budget. */
  meta(value: unknown, path: string): Meta | undefined {
    if (value === undefined) return undefined;
    if (!isRecord(value)) reject(path, value, 'must be an object');
    let copy: unknown;
    try {
      copy = jsonData(value, this.#meta);
    } catch (error) {
      const reason =
        error instanceof JsonDataError
          ? `${error.reason}${error.at === '' ? '' : ` at ${error.at}`}`
          : `reading it threw ${errorClassName(error)}`;
      throw new GuardFailure(path, `${path}: cannot be serialized as JSON (${reason})`);
    }
    if (!isRecord(copy)) reject(path, copy, 'must be an object');
    return copy;
  }
}

function copyResourceLink(value: Record<string, unknown>, path: string): ResourceLink {
  const { uri, name, title, description, mimeType, size, icons } = value;
  const link: ResourceLink = {
    type: 'resource_link',
    uri: requireString(uri, `${path}.uri`),
    name: requireString(name, `${path}.name`),
  };
  if (title !== undefined) link.title = requireString(title, `${path}.title`);
  if (description !== undefined) link.description = requireString(description, `${path}.description`);
  if (mimeType !== undefined) link.mimeType = requireString(mimeType, `${path}.mimeType`);
  if (size !== undefined) {
    if (typeof size !== 'number' || !Number.isFinite(size) || size < 0)
      reject(`${path}.size`, size, 'must be a non-negative number');
    link.size = size;
  }
  if (icons !== undefined) link.icons = copyIcons(icons, `${path}.icons`);
  return link;
}

function copyIcons(value: unknown, path: string): Icon[] {
  if (!Array.isArray(value)) reject(path, value, 'must be an array of icons');
  const n = value.length;
  const out: Icon[] = new Array<Icon>(n);
  for (let i = 0; i < n; i++) {
    const at = `${path}[${i}]`;
    const icon: unknown = value[i];
    if (!isRecord(icon)) reject(at, icon, 'must be an icon object');
    const { src, mimeType, sizes, theme } = icon;
    const copy: Icon = { src: requireString(src, `${at}.src`) };
    if (mimeType !== undefined) copy.mimeType = requireString(mimeType, `${at}.mimeType`);
    if (sizes !== undefined) {
      if (!Array.isArray(sizes)) reject(`${at}.sizes`, sizes, 'must be an array of strings');
      const count = sizes.length;
      const list: string[] = new Array<string>(count);
      for (let j = 0; j < count; j++) list[j] = requireString(sizes[j], `${at}.sizes[${j}]`);
      copy.sizes = list;
    }
    if (theme !== undefined) {
      if (theme !== 'light' && theme !== 'dark') reject(`${at}.theme`, theme, "must be 'light' or 'dark'");
      copy.theme = theme;
    }
    out[i] = copy;
  }
  return out;
}

function optionalAnnotations(value: unknown, path: string): Annotations | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) reject(path, value, 'must be an object');
  const { audience, priority, lastModified } = value;
  const copy: Annotations = {};
  if (audience !== undefined) {
    if (!Array.isArray(audience)) reject(`${path}.audience`, audience, 'must be an array of roles');
    const n = audience.length;
    const roles: Role[] = new Array<Role>(n);
    for (let i = 0; i < n; i++) {
      const r: unknown = audience[i];
      if (r !== 'user' && r !== 'assistant') reject(`${path}.audience[${i}]`, r, "must be 'user' or 'assistant'");
      roles[i] = r;
    }
    copy.audience = roles;
  }
  if (priority !== undefined) {
    if (typeof priority !== 'number' || !(priority >= 0 && priority <= 1))
      reject(`${path}.priority`, priority, 'must be a number from 0 to 1');
    copy.priority = priority;
  }
  if (lastModified !== undefined) copy.lastModified = requireString(lastModified, `${path}.lastModified`);
  return copy;
}

function requireString(value: unknown, path: string): string {
  if (typeof value !== 'string') reject(path, value, 'must be a string');
  return wellFormed(value);
}
