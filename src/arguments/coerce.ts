/**
 * Our own coercion of argument values to their declared JSON-Schema type (not ajv's `coerceTypes`, which mutates the
 * data and has surprising rules). The MCP wire sends every argument as a string; HTTP callers may send typed JSON.
 *
 * @module
 * @internal
 */

/** Bit flags of declared JSON-Schema types. */
export const TYPE_STRING = 1;
export const TYPE_NUMBER = 2;
export const TYPE_INTEGER = 4;
export const TYPE_BOOLEAN = 8;
export const TYPE_ARRAY = 16;
export const TYPE_OBJECT = 32;
export const TYPE_NULL = 64;
const TYPE_NUMERIC = TYPE_NUMBER | TYPE_INTEGER;

function typeBit(name: unknown): number {
  switch (name) {
    case 'string':
      return TYPE_STRING;
    case 'number':
      return TYPE_NUMBER;
    case 'integer':
      return TYPE_INTEGER;
    case 'boolean':
      return TYPE_BOOLEAN;
    case 'array':
      return TYPE_ARRAY;
    case 'object':
      return TYPE_OBJECT;
    case 'null':
      return TYPE_NULL;
    default:
      return 0;
  }
}

/**
 * The type flags of a JSON-Schema `type` keyword (a name or an array of names); 0 when absent (no coercion).
 *
 * @example
 * ```ts
 * typeMask(['string', 'number']) === (TYPE_STRING | TYPE_NUMBER); // true
 * ```
 */
export function typeMask(type: unknown): number {
  if (Array.isArray(type)) {
    let mask = 0;
    for (const t of type) mask |= typeBit(t);
    return mask;
  }
  return typeBit(type);
}

/** Decimal numeric text (JSON-like; a leading `+` or `.` is tolerated). No hex, no `Infinity`, no `NaN`. */
const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function fromText(text: string, mask: number): unknown {
  const t = text.trim();
  if (t === '') return text;
  if (mask & TYPE_NUMERIC && NUMERIC.test(t)) return Number(t);
  if (mask & TYPE_BOOLEAN && (t.length === 4 || t.length === 5)) {
    const lower = t.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  const first = t.charCodeAt(0);
  if ((mask & TYPE_ARRAY && first === 0x5b) /* [ */ || (mask & TYPE_OBJECT && first === 0x7b) /* { */) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(t);
    } catch {
      return text;
    }
    if (Array.isArray(parsed)) return mask & TYPE_ARRAY ? parsed : text;
    if (parsed !== null && typeof parsed === 'object') return mask & TYPE_OBJECT ? parsed : text;
  }
  return text;
}

/**
 * Coerces `value` to the declared types `mask` (from {@link typeMask}); returns `value` itself when nothing applies,
 * so schema validation reports the mismatch.
 *
 * - a string for a non-string type: numeric text -> number, `true`/`false` (any case) -> boolean, JSON text of an
 *   array/object -> the parsed value (only if it parses to that kind);
 * - a number or boolean for a string type (and not for its own type) -> its string form.
 *
 * @example
 * ```ts
 * coerceValue(' 42 ', TYPE_INTEGER); // 42
 * coerceValue('abc', TYPE_NUMBER);   // 'abc' (left for the schema to reject)
 * coerceValue(3, TYPE_STRING);       // '3'
 * ```
 */
export function coerceValue(value: unknown, mask: number): unknown {
  if (mask === 0) return value;
  switch (typeof value) {
    case 'string':
      return mask & TYPE_STRING ? value : fromText(value, mask);
    case 'number':
      return mask & TYPE_STRING && !(mask & TYPE_NUMERIC) && Number.isFinite(value) ? String(value) : value;
    case 'boolean':
      return mask & TYPE_STRING && !(mask & TYPE_BOOLEAN) ? String(value) : value;
    default:
      return value;
  }
}
