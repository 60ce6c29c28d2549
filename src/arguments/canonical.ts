/**
 * Canonical JSON (object keys sorted, arrays in order): the key under which identical schemas share one compiled
 * validator. Values JSON cannot hold never share a key with one it can: in a schema they are a definition error
 * (JSON Schema is JSON); in other keys they get tokens of their own.
 *
 * @module
 * @internal
 */
import { PromptError } from '../errors.js';
import { escapePointerSegment } from '../json.js';

/** Keys and strings that need no escaping in JSON (the common case: skips JSON.stringify). */
const PLAIN = /^[\w $#./:@+-]*$/;

function quote(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** A value JSON cannot hold, found in a schema: where (a JSON pointer into it) and what. */
export class NonJsonValueError extends Error {
  /**
   * @example
   * ```ts
   * new NonJsonValueError('/default', 'NaN').message; // 'must be a JSON value (got NaN)'
   * ```
   */
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

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `path` is kept only in strict mode (to name where a non-JSON value is). */
function write(value: unknown, stack: object[], strict: boolean, path: string): string {
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
  if (stack.includes(value)) {
    throw new PromptError('INVALID_PROMPT_DEFINITION', 'Invalid argument schema: it contains a cycle');
  }
  stack.push(value);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += write(value[i], stack, strict, strict ? `${path}/${i}` : path);
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
      out += `${quote(key)}:${write(v, stack, strict, strict ? `${path}/${escapePointerSegment(key)}` : path)}`;
    }
    out += '}';
  }
  stack.pop();
  return out;
}

/**
 * Serializes `value` as JSON with object keys sorted at every level. Function members are left out (as
 * `JSON.stringify` does); undefined, NaN, ±Infinity, bigints and non-plain objects get tokens no JSON value has.
 * With `strict` (a schema), any non-JSON value other than an undefined member or a function member throws a
 * {@link NonJsonValueError} naming where it is. Throws PromptError `INVALID_PROMPT_DEFINITION` on a cycle.
 */
export function canonicalJson(value: unknown, strict = false): string {
  return write(value, [], strict, '');
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

/**
 * `JSON.stringify(value)` (key order kept) where values JSON cannot hold (undefined members, NaN, ±Infinity,
 * bigints, non-plain objects) get forms of their own instead of colliding with `null` or a plain value; function
 * members are left out. Throws on a cycle.
 */
export function orderedKeyJson(value: unknown): string {
  return JSON.stringify(value, tokenize) ?? '';
}
