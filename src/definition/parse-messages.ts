/**
 * Reading message templates: a role (`user` or `assistant`; legacy `system` by policy) and one content block each,
 * string content becoming a text block.
 *
 * @module
 */
import { childPointer, describeType, isRecord, ownValue } from '../json.js';
import type { Role } from '../types.js';
import { quote } from './raw-data.js';
import { NON_EMPTY, REQUIRED, REQUIRED_NON_EMPTY } from './reader.js';
import type { Out, Reader } from './reader.js';
import type { ParsedLists } from './reuse.js';
import type { ContentTemplate, PromptMessageTemplate } from './types.js';

/** The content block types a message template may hold. */
export const CONTENT_TYPES: readonly string[] = Object.freeze(['text', 'image', 'audio', 'resource', 'resource_link']);

const CONTENT_TYPE_LIST = CONTENT_TYPES.map((t) => `'${t}'`).join(', ');
const MESSAGE_KEYS: readonly string[] = ['role', 'content'];
const CONTENT_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ['type', 'text', '_meta'],
  image: ['type', 'data', 'path', 'mimeType', '_meta'],
  audio: ['type', 'data', 'path', 'mimeType', '_meta'],
  resource: ['type', 'uri', 'mimeType', '_meta'],
  resource_link: ['type', 'uri', 'name', 'title', 'mimeType', 'description', '_meta'],
};

/** The message for content given as an array. */
export const ARRAY_CONTENT_MESSAGE =
  'content must be one content block, not an array; use one message per block or normalizeLegacyPrompt';

const ROLE_HINT = "must be 'user' or 'assistant'";

function readRole(r: Reader, message: Record<string, unknown>, path: string): Role | undefined {
  const at = childPointer(path, 'role');
  if (ownValue(message, 'role') === undefined) {
    r.problem(at, `role is required: ${ROLE_HINT}`);
    return undefined;
  }
  const role = message['role'];
  if (role === 'user' || role === 'assistant') return role;
  if (role === 'system' && r.systemRole === 'user') return 'user';
  r.problem(at, `invalid role ${quote(role)}: ${ROLE_HINT}`);
  return undefined;
}

function readContent(r: Reader, value: unknown, path: string): ContentTemplate | undefined {
  if (typeof value === 'string') return Object.freeze({ type: 'text', text: value });
  if (Array.isArray(value)) {
    r.problem(path, ARRAY_CONTENT_MESSAGE);
    return undefined;
  }
  if (!isRecord(value)) {
    r.problem(path, `content must be a string or a content block object (got ${describeType(value)})`);
    return undefined;
  }
  const typeAt = childPointer(path, 'type');
  const types = CONTENT_TYPE_LIST;
  if (ownValue(value, 'type') === undefined) {
    r.problem(typeAt, `content type is required: one of ${types}`);
    return undefined;
  }
  const type = value['type'];
  const keys = typeof type === 'string' && Object.hasOwn(CONTENT_KEYS, type) ? CONTENT_KEYS[type] : undefined;
  if (keys === undefined) {
    r.problem(typeAt, `unknown content type ${quote(type)}: must be one of ${types}`);
    return undefined;
  }
  const before = r.problems.length;
  r.unknownKeys(value, path, keys);
  const out: Out = { type };
  switch (type) {
    case 'text':
      r.string(value, 'text', path, out, REQUIRED);
      break;
    case 'image':
    case 'audio': {
      const hasData = ownValue(value, 'data') !== undefined;
      const hasPath = ownValue(value, 'path') !== undefined;
      if (hasData && hasPath)
        r.problem(path, `${type} content needs exactly one of 'data' (base64) or 'path', not both`);
      else if (!hasData && !hasPath) r.problem(path, `${type} content needs 'data' (base64) or 'path'`);
      r.string(value, 'data', path, out, NON_EMPTY);
      r.string(value, 'path', path, out, NON_EMPTY);
      r.string(value, 'mimeType', path, out, REQUIRED_NON_EMPTY);
      break;
    }
    case 'resource':
      r.string(value, 'uri', path, out, REQUIRED_NON_EMPTY);
      r.string(value, 'mimeType', path, out, NON_EMPTY);
      break;
    case 'resource_link':
      r.string(value, 'uri', path, out, REQUIRED_NON_EMPTY);
      r.string(value, 'name', path, out, REQUIRED_NON_EMPTY);
      r.string(value, 'title', path, out);
      r.string(value, 'mimeType', path, out, NON_EMPTY);
      r.string(value, 'description', path, out);
      break;
  }
  r.object(value, '_meta', path, out);
  return r.problems.length === before ? (Object.freeze(out) as unknown as ContentTemplate) : undefined;
}

export function readMessages(
  r: Reader,
  value: unknown,
  path: string,
  lists: ParsedLists | undefined,
): readonly PromptMessageTemplate[] | undefined {
  if (!Array.isArray(value)) {
    r.problem(path, `messages must be a non-empty array of message templates (got ${describeType(value)})`);
    return undefined;
  }
  if (value.length === 0) {
    r.problem(path, 'messages must not be empty');
    return undefined;
  }
  const before = r.problems.length;
  const out = new Array<PromptMessageTemplate>(value.length);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const at = childPointer(path, i);
    if (!isRecord(item)) {
      r.problem(at, `message must be an object with 'role' and 'content' (got ${describeType(item)})`);
      continue;
    }
    r.unknownKeys(item, at, MESSAGE_KEYS);
    const role = readRole(r, item, at);
    let content: ContentTemplate | undefined;
    if (ownValue(item, 'content') === undefined) r.problem(childPointer(at, 'content'), 'content is required');
    else content = readContent(r, item['content'], childPointer(at, 'content'));
    if (role !== undefined && content !== undefined) out[i] = Object.freeze({ role, content });
  }
  if (r.problems.length !== before) return undefined;
  lists?.rememberMessages(out);
  return Object.freeze(out);
}
