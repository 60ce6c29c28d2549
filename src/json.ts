/**
 * The one home of small JSON helpers: record checks, own-property writes and JSON pointers (RFC 6901).
 *
 * @module
 * @internal
 */

/** Whether `value` is an object that is neither null nor an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` has `key` as an own property (never inherited, never `__proto__` magic). */
export function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
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
