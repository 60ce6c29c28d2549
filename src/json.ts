/**
 * The one home of small JSON helpers: record checks, own-property writes, JSON pointers (RFC 6901) and plain-data
 * copies.
 *
 * @module
 * @internal
 */

import { wellFormed } from './encoding.js';

/** Whether `value` is an object that is neither null nor an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What {@link quoteJsonWithin} wrote: the JSON string literal and how many UTF-16 units of the text it holds. */
export interface QuotedJson {
  readonly quoted: string;
  readonly kept: number;
}

/**
 * `text` as a JSON string literal of at most `maxLength` characters, cut (never inside a surrogate pair) where the
 * next character would not fit. Besides what JSON.stringify escapes, every character that is invisible or moves text
 * (C1 controls, DEL, line and paragraph separators, bidirectional controls, zero-width characters, lone surrogates)
 * is written as a `\uXXXX` escape, so the literal prints on one line as what it holds. Work is bounded by `maxLength`.
 */
export function quoteJsonWithin(text: string, maxLength: number): QuotedJson {
  const room = maxLength - 2;
  if (room < 0) return { quoted: '', kept: 0 };
  const n = text.length;
  const parts: string[] = ['"'];
  let used = 0;
  let runStart = 0;
  let i = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && c < 0x7f) {
      if (++used > room) break;
      continue;
    }
    let escape: string | undefined;
    let units = 1;
    if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) units = 2;
    else escape = jsonEscape(c);
    const cost = escape === undefined ? units : escape.length;
    if (used + cost > room) break;
    used += cost;
    if (escape !== undefined) {
      parts.push(text.slice(runStart, i), escape);
      runStart = i + 1;
    } else if (units === 2) {
      i++;
    }
  }
  parts.push(text.slice(runStart, i), '"');
  // join copies: the literal never holds a slice of `text`, which would keep all of a huge text alive.
  return { quoted: parts.join(''), kept: i };
}

/**
 * `text` on one line: the characters {@link quoteJsonWithin} escapes, quotes and backslashes aside, written as their
 * escapes (`\n`, `\u202e`). For short texts (cut them first): the work is linear in the length.
 */
export function oneLine(text: string): string {
  let out = '';
  let runStart = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x22 || c === 0x5c) continue;
    if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      i++;
      continue;
    }
    const escape = jsonEscape(c);
    if (escape === undefined) continue;
    out += text.slice(runStart, i) + escape;
    runStart = i + 1;
  }
  return runStart === 0 ? text : out + text.slice(runStart);
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  8: '\\b',
  9: '\\t',
  10: '\\n',
  12: '\\f',
  13: '\\r',
  34: '\\"',
  92: '\\\\',
};

/** The escape of one UTF-16 unit in {@link quoteJsonWithin}, undefined for a character written as it is. */
function jsonEscape(c: number): string | undefined {
  const short = SHORT_ESCAPES[c];
  if (short !== undefined) return short;
  const hidden =
    c < 0x20 ||
    (c >= 0x7f && c <= 0x9f) ||
    c === 0xad ||
    c === 0x061c ||
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x2028 && c <= 0x202e) ||
    (c >= 0x2060 && c <= 0x2069) ||
    c === 0xfeff ||
    (c >= 0xd800 && c <= 0xdfff); // a lone surrogate (a pair is let through by the caller)
  return hidden ? `\\u${c.toString(16).padStart(4, '0')}` : undefined;
}

/** The value of `key` when it is an own property of `record` (never an inherited one), else undefined. */
export function ownValue(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

/** A short description of a value's type for messages: `an array`, `an object`, `a string`, `null`, `undefined`. */
export function describeType(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' ? 'an object' : `a ${t}`;
}

/** Whether `value` is a plain object (its prototype is `Object.prototype` or null), not a class instance. */
export function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Whether two JSON values are equal as data, whatever the order of their objects' keys (a database's jsonb reorders
 * them; a key whose value is undefined counts as absent), without serializing either. Walks both with an explicit
 * stack: no recursion limit however deep.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const other = y as unknown[];
      if (x.length !== other.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], other[i]]);
      continue;
    }
    const rx = x as Record<string, unknown>;
    const ry = y as Record<string, unknown>;
    let count = 0;
    for (const key of Object.keys(rx)) {
      if (rx[key] === undefined) continue;
      count++;
      if (!Object.hasOwn(ry, key)) return false;
      stack.push([rx[key], ry[key]]);
    }
    for (const key of Object.keys(ry)) if (ry[key] !== undefined) count--;
    if (count !== 0) return false;
  }
  return true;
}

/** Sets an own enumerable property, even when the key is `__proto__` (the prototype is never changed). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

const Bare = function Bare() {} as unknown as new () => Record<string, unknown>;
Bare.prototype = Object.freeze(Object.create(null) as object) as Record<string, unknown>;

/**
 * A fresh empty object with nothing inherited (no `Object.prototype` in its chain, so `__proto__` or `constructor`
 * are plain data keys) that keeps V8's fast properties (`Object.create(null)` starts in slow dictionary mode).
 */
export function bareRecord(): Record<string, unknown> {
  return new Bare();
}

/** Escapes one JSON-pointer segment (`~` -> `~0`, `/` -> `~1`). */
export function escapePointerSegment(segment: string | number): string {
  const text = String(segment);
  return /[~/]/.test(text) ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text;
}

/** Unescapes one JSON-pointer segment (`~1` -> `/`, `~0` -> `~`). */
export function unescapePointerSegment(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
}

/** Builds a JSON pointer from path segments: `['messages', 0]` -> `/messages/0`. */
export function toJsonPointer(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) out += `/${escapePointerSegment(s)}`;
  return out;
}

/** Appends one escaped segment to a JSON pointer. */
export function childPointer(pointer: string, segment: string | number): string {
  return `${pointer}/${escapePointerSegment(segment)}`;
}

/** Why {@link jsonData} refused a value: where (a JSON pointer below the value) and what is wrong there. */
export class JsonDataError extends Error {
  constructor(
    readonly at: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The bounds of {@link jsonData}; `size` is what is left, so one budget can bound several copies. */
export interface JsonDataBudget {
  /** Deepest nesting of objects and arrays. */
  readonly maxDepth: number;
  /** UTF-16 units of keys and strings still allowed, plus one per value. */
  size: number;
  /** Freeze every object and array of the copy. */
  readonly freeze?: boolean;
}

/** `value` as the data JSON.stringify writes under `key`, each property and `toJSON` read once, strings well-formed. */
export function jsonData(value: unknown, budget: JsonDataBudget, key = ''): unknown {
  return copyData(key, value, '', budget, []);
}

function spend(budget: JsonDataBudget, units: number, at: string): void {
  if ((budget.size -= units) < 0) throw new JsonDataError(at, 'is too large');
}

function copyData(key: string, raw: unknown, at: string, budget: JsonDataBudget, ancestors: object[]): unknown {
  let value = raw;
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (this: unknown, key: string) => unknown).call(value, key);
  }
  if (value instanceof Number) value = Number(value);
  else if (value instanceof String) value = String(value);
  else if (value instanceof Boolean) value = value.valueOf();
  switch (typeof value) {
    case 'string':
      spend(budget, value.length + 1, at);
      return wellFormed(value);
    case 'number':
      spend(budget, 1, at);
      return Number.isFinite(value) ? value + 0 : null; // JSON writes -0 as 0
    case 'boolean':
      spend(budget, 1, at);
      return value;
    case 'bigint':
      throw new JsonDataError(at, 'holds a BigInt, which JSON cannot represent');
    case 'object':
      return value === null ? null : copyContainer(value, at, budget, ancestors);
    default:
      return undefined;
  }
}

function copyContainer(value: object, at: string, budget: JsonDataBudget, ancestors: object[]): unknown {
  if (value instanceof BigInt) throw new JsonDataError(at, 'holds a BigInt, which JSON cannot represent');
  if (ancestors.includes(value)) throw new JsonDataError(at, 'holds a cycle');
  if (ancestors.length >= budget.maxDepth) throw new JsonDataError(at, `nests deeper than ${budget.maxDepth} levels`);
  spend(budget, 1, at);
  ancestors.push(value);
  let copy: unknown[] | Record<string, unknown>;
  if (Array.isArray(value)) {
    const n = value.length;
    if (n > budget.size) throw new JsonDataError(at, 'is too large');
    const items = new Array<unknown>(n);
    for (let i = 0; i < n; i++) items[i] = copyData(String(i), value[i], `${at}/${i}`, budget, ancestors) ?? null;
    copy = items;
  } else {
    const record: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = copyData(key, (value as Record<string, unknown>)[key], childPointer(at, key), budget, ancestors);
      if (item === undefined) continue;
      spend(budget, key.length, at);
      setOwn(record, wellFormed(key), item);
    }
    copy = record;
  }
  ancestors.pop();
  return budget.freeze === true ? Object.freeze(copy) : copy;
}
