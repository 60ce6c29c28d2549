/**
 * Canonical JSON: one text per JSON value whatever its key order ({@link canonicalJson}, the key of shared schemas and
 * validators), and the key-order-keeping form ({@link orderedKeyJson}, the key of shared plans). Values JSON cannot
 * hold get tokens of their own, so two different declarations never share a key.
 *
 * @module
 */
import { MAX_SCHEMA_NODES } from '../definition/keywords.js';
import { PromptError } from '../errors.js';
import { escapePointerSegment, isPlainObject } from '../json.js';

/** Keys and strings that need no escaping in JSON (the common case: skips JSON.stringify). */
const PLAIN = /^[\w $#./:@+-]*$/;

function quote(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** A value JSON cannot hold, found in a schema: where (a JSON pointer into it) and what. */
export class NonJsonValueError extends Error {
  constructor(
    readonly pointer: string,
    readonly what: string,
  ) {
    super(`must be a JSON value (got ${what})`);
  }
}

/** Bare (unquoted) tokens of non-JSON values: no JSON text contains them where a value goes. */
function nonJsonToken(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return '~undefined';
    case 'number':
      return `~${String(value)}`;
    case 'bigint':
      return `~${String(value)}n`;
    case 'symbol':
      return `~${String(value.description)}@symbol`;
    default:
      return '~function';
  }
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null) {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
    return `a ${name ?? 'non-plain'} object`;
  }
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

interface Writer {
  readonly stack: object[];
  readonly strict: boolean;
  /** Objects and arrays written so far (a shared one each time): more than MAX_SCHEMA_NODES is not keyed. */
  containers: number;
}

/** `path` is kept only in strict mode (to name where a non-JSON value is). */
function write(value: unknown, w: Writer, path: string): string {
  const strict = w.strict;
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      if (Number.isFinite(value)) return String(value);
      if (strict) throw new NonJsonValueError(path, describe(value));
      return nonJsonToken(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      // undefined (an array element), functions, symbols, bigints: not JSON.
      if (strict && typeof value !== 'undefined') throw new NonJsonValueError(path, describe(value));
      return nonJsonToken(value);
  }
  if (value === null) return 'null';
  const stack = w.stack;
  if (stack.includes(value)) {
    throw new PromptError('INVALID_PROMPT_DEFINITION', 'Invalid argument schema: it contains a cycle');
  }
  if (++w.containers > MAX_SCHEMA_NODES) {
    throw new PromptError(
      'INVALID_PROMPT_DEFINITION',
      `Invalid argument schema: more than ${MAX_SCHEMA_NODES} objects and arrays`,
    );
  }
  stack.push(value);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += write(value[i], w, strict ? `${path}/${i}` : path);
    }
    out += ']';
  } else {
    const plain = isPlainObject(value);
    if (!plain && strict) throw new NonJsonValueError(path, describe(value));
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length > 1) keys.sort();
    // A non-plain object (a Date, a Map) is not the plain object of its own keys.
    out = plain ? '{' : `~${describe(value)}{`;
    let first = true;
    for (const key of keys) {
      const v = record[key];
      // Functions (a `complete` callback) are left out, as JSON.stringify does; undefined is kept, as a token.
      if (typeof v === 'function' || (typeof v === 'symbol' && !strict)) continue;
      if (!first) out += ',';
      first = false;
      out += `${quote(key)}:${write(v, w, strict ? `${path}/${escapePointerSegment(key)}` : path)}`;
    }
    out += '}';
  }
  stack.pop();
  return out;
}

/**
 * JSON with sorted keys; non-JSON values get tokens of their own (`strict`: they throw); a cycle or too much throws.
 */
export function canonicalJson(value: unknown, strict = false): string {
  return write(value, { stack: [], strict, containers: 0 }, '');
}

/** `JSON.stringify`'s replacer giving non-JSON values tokens of their own (see {@link orderedKeyJson}). */
function tokenize(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  switch (typeof original) {
    case 'string':
      // A string that looks like a token is escaped (tokens start with one NUL, it with two).
      return original.startsWith('\u0000') ? `\u0000${original}` : value;
    case 'undefined':
    case 'bigint':
    case 'symbol':
      return `\u0000${nonJsonToken(original)}`;
    case 'number':
      return Number.isFinite(original) ? value : `\u0000${nonJsonToken(original)}`;
    case 'object':
      return original === null || isPlainObject(original) || Array.isArray(original)
        ? value
        : { '\u0000type': describe(original), value };
    default:
      return value;
  }
}

/** `JSON.stringify(value)` (key order kept) where non-JSON values get forms of their own; throws on a cycle. */
export function orderedKeyJson(value: unknown): string {
  return JSON.stringify(value, tokenize) ?? '';
}
