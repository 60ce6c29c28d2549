/**
 * The last gate before a render function's result goes on the wire: roles `user` | `assistant`, exactly one content
 * block per message, fields of the right types, base64 data, non-empty mimeTypes, JSON-serializable `_meta`, and the
 * size limit. A bad result never becomes a malformed success: it becomes INTERNAL_ERROR (details only in the logs).
 * The guard returns a fresh copy with only the fields the spec defines; lone surrogates in strings become U+FFFD.
 *
 * @module
 * @internal
 */
import { isBase64, wellFormed } from '../encoding.js';
import { isRecord } from '../json.js';
import { PromptError } from '../errors.js';
import { assertRenderedSize } from './limits.js';
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

/** Validates a render function's (normalized) output and returns a spec-exact copy; anything malformed or oversized is INTERNAL_ERROR. */
export function guardPromptResult(value: unknown, options: GuardOptions): GetPromptResult {
  /** The strings that count toward the size limit, measured lazily by assertRenderedSize. */
  const sizes: string[] = [];
  let result: GetPromptResult;
  try {
    result = copyResult(value, sizes);
  } catch (error) {
    if (!(error instanceof GuardFailure)) throw error;
    throw new PromptError(
      'INTERNAL_ERROR',
      `prompt '${options.promptName}' render returned ${error.detail}`,
      { data: { prompt: options.promptName, path: error.path } },
    );
  }
  try {
    assertRenderedSize(sizes, options);
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

/** A render function's string or message array as `{description?, messages}`; anything else is returned for the guard to reject. */
export function normalizeRenderOutput(output: unknown, description?: string): unknown {
  let normalized: unknown = output;
  if (typeof output === 'string') {
    normalized = { messages: [{ role: 'user', content: { type: 'text', text: output } }] };
  } else if (Array.isArray(output)) {
    normalized = { messages: output };
  } else if (isRecord(output) && description !== undefined && output.description === undefined) {
    return { ...output, description };
  } else {
    return output;
  }
  return description === undefined ? normalized : { description, ...(normalized as object) };
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'undefined';
  const t = typeof value;
  return t === 'object' ? 'an object' : `a ${t}`;
}

/**
 * Role and block-type names other systems use, safe to quote in a log line. Anything else a render function put
 * there may be an argument value, so it is only described by its length.
 */
const KNOWN_WORDS: ReadonlySet<string> = new Set([
  'system', 'developer', 'tool', 'function', 'model', 'human', 'ai', 'bot', 'User', 'Assistant', 'System',
  'text', 'image', 'audio', 'video', 'file', 'resource', 'resource_link', 'image_url', 'input_text', 'json', 'html',
]);

function quoted(value: string): string {
  return KNOWN_WORDS.has(value) ? `'${value}'` : `(a string of ${value.length} characters)`;
}

function reject(path: string, value: unknown, expectation: string): never {
  const found = path === '' ? kind(value) : `${path} as ${kind(value)}`;
  throw new GuardFailure(path, `${found}: ${expectation}`);
}

function failValue(path: string, value: string, expectation: string): never {
  throw new GuardFailure(path, `${path} ${quoted(value)}: ${expectation}`);
}

function copyResult(value: unknown, sizes: string[]): GetPromptResult {
  if (!isRecord(value)) reject('', value, 'must be an object with a messages array');
  const source = value.messages;
  if (!Array.isArray(source)) reject('messages', source, 'must be an array');
  const messages: PromptMessage[] = new Array<PromptMessage>(source.length);
  for (let i = 0; i < source.length; i++) messages[i] = copyMessage(source[i], `messages[${i}]`, sizes);
  let result: GetPromptResult;
  if (value.description === undefined) {
    result = { messages };
  } else {
    const description = requireString(value.description, 'description');
    sizes.push(description);
    result = { description, messages };
  }
  const meta = optionalMeta(value._meta, '_meta');
  if (meta !== undefined) result._meta = meta;
  return result;
}

function copyMessage(value: unknown, path: string, sizes: string[]): PromptMessage {
  if (!isRecord(value)) reject(path, value, 'must be an object with role and content');
  const role = value.role;
  if (role !== 'user' && role !== 'assistant') {
    if (typeof role === 'string') failValue(`${path}.role`, role, "must be 'user' or 'assistant'");
    reject(`${path}.role`, role, "must be 'user' or 'assistant'");
  }
  const content = value.content;
  if (typeof content === 'string') {
    reject(`${path}.content`, content, 'must be exactly one content block object, not a bare string');
  }
  if (Array.isArray(content)) {
    reject(`${path}.content`, content, 'must be exactly one content block object, not an array');
  }
  return { role: role satisfies Role, content: copyBlock(content, `${path}.content`, sizes) };
}

function copyBlock(value: unknown, path: string, sizes: string[]): ContentBlock {
  if (!isRecord(value)) reject(path, value, 'must be a content block object');
  const type = value.type;
  let block: ContentBlock;
  switch (type) {
    case 'text': {
      const text = requireString(value.text, `${path}.text`);
      sizes.push(text);
      block = { type, text };
      break;
    }
    case 'image':
    case 'audio': {
      const data = requireString(value.data, `${path}.data`);
      if (!isBase64(data)) throw new GuardFailure(`${path}.data`, `${path}.data: must be base64 (standard alphabet, padded, no whitespace)`);
      const mimeType = requireString(value.mimeType, `${path}.mimeType`);
      if (mimeType.trim() === '') throw new GuardFailure(`${path}.mimeType`, `${path}.mimeType: must not be empty`);
      sizes.push(data);
      block = { type, data, mimeType };
      break;
    }
    case 'resource_link':
      block = copyResourceLink(value, path);
      break;
    case 'resource':
      block = { type, resource: copyResource(value.resource, `${path}.resource`, sizes) };
      break;
    default:
      if (typeof type === 'string') failValue(`${path}.type`, type, `must be one of ${BLOCK_TYPES}`);
      reject(`${path}.type`, type, `must be one of ${BLOCK_TYPES}`);
  }
  const annotations = optionalAnnotations(value.annotations, `${path}.annotations`);
  if (annotations !== undefined) block.annotations = annotations;
  const meta = optionalMeta(value._meta, `${path}._meta`);
  if (meta !== undefined) block._meta = meta;
  return block;
}

function copyResourceLink(value: Record<string, unknown>, path: string): ResourceLink {
  const link: ResourceLink = {
    type: 'resource_link',
    uri: requireString(value.uri, `${path}.uri`),
    name: requireString(value.name, `${path}.name`),
  };
  for (const key of ['title', 'description', 'mimeType'] as const) {
    if (value[key] !== undefined) link[key] = requireString(value[key], `${path}.${key}`);
  }
  if (value.size !== undefined) {
    if (typeof value.size !== 'number' || !Number.isFinite(value.size) || value.size < 0) {
      reject(`${path}.size`, value.size, 'must be a non-negative number');
    }
    link.size = value.size;
  }
  if (value.icons !== undefined) link.icons = copyIcons(value.icons, `${path}.icons`);
  return link;
}

function copyResource(value: unknown, path: string, sizes: string[]): EmbeddedResource['resource'] {
  if (!isRecord(value)) reject(path, value, 'must be an object with uri and text or blob');
  const uri = requireString(value.uri, `${path}.uri`);
  const mimeType = value.mimeType === undefined ? undefined : requireString(value.mimeType, `${path}.mimeType`);
  const meta = optionalMeta(value._meta, `${path}._meta`);
  const hasText = value.text !== undefined;
  const hasBlob = value.blob !== undefined;
  if (hasText === hasBlob) {
    const found = hasText ? 'both' : 'neither';
    throw new GuardFailure(path, `${path}: must have exactly one of text or blob (found ${found})`);
  }
  const base = {
    uri,
    ...(mimeType === undefined ? {} : { mimeType }),
    ...(meta === undefined ? {} : { _meta: meta }),
  };
  if (hasText) {
    const text = requireString(value.text, `${path}.text`);
    sizes.push(text);
    return { ...base, text };
  }
  const blob = requireString(value.blob, `${path}.blob`);
  if (!isBase64(blob)) throw new GuardFailure(`${path}.blob`, `${path}.blob: must be base64 (standard alphabet, padded, no whitespace)`);
  sizes.push(blob);
  return { ...base, blob };
}

function copyIcons(value: unknown, path: string): Icon[] {
  if (!Array.isArray(value)) reject(path, value, 'must be an array of icons');
  return value.map((icon: unknown, i): Icon => {
    const at = `${path}[${i}]`;
    if (!isRecord(icon)) reject(at, icon, 'must be an icon object');
    const copy: Icon = { src: requireString(icon.src, `${at}.src`) };
    if (icon.mimeType !== undefined) copy.mimeType = requireString(icon.mimeType, `${at}.mimeType`);
    if (icon.sizes !== undefined) {
      if (!Array.isArray(icon.sizes)) reject(`${at}.sizes`, icon.sizes, 'must be an array of strings');
      copy.sizes = icon.sizes.map((s: unknown, j) => requireString(s, `${at}.sizes[${j}]`));
    }
    if (icon.theme !== undefined) {
      if (icon.theme !== 'light' && icon.theme !== 'dark') reject(`${at}.theme`, icon.theme, "must be 'light' or 'dark'");
      copy.theme = icon.theme;
    }
    return copy;
  });
}

function optionalAnnotations(value: unknown, path: string): Annotations | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) reject(path, value, 'must be an object');
  const copy: Annotations = {};
  if (value.audience !== undefined) {
    if (!Array.isArray(value.audience)) reject(`${path}.audience`, value.audience, 'must be an array of roles');
    copy.audience = value.audience.map((r: unknown, i): Role => {
      if (r !== 'user' && r !== 'assistant') reject(`${path}.audience[${i}]`, r, "must be 'user' or 'assistant'");
      return r;
    });
  }
  if (value.priority !== undefined) {
    const p = value.priority;
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) reject(`${path}.priority`, p, 'must be a number from 0 to 1');
    copy.priority = p;
  }
  if (value.lastModified !== undefined) copy.lastModified = requireString(value.lastModified, `${path}.lastModified`);
  return copy;
}

function optionalMeta(value: unknown, path: string): Meta | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) reject(path, value, 'must be an object');
  const copy = { ...value };
  let json: string | undefined;
  try {
    json = JSON.stringify(copy);
  } catch (error) {
    throw new GuardFailure(path, `${path}: cannot be serialized as JSON (${error instanceof Error ? error.name : 'error'}: a BigInt or a cycle)`);
  }
  if (json === undefined) throw new GuardFailure(path, `${path}: cannot be serialized as JSON`);
  return copy;
}

function requireString(value: unknown, path: string): string {
  if (typeof value !== 'string') reject(path, value, 'must be a string');
  return wellFormed(value);
}
