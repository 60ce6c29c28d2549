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
/**
 * Not a JSON-Schema type: besides the other flags' types, specific values are allowed (an untyped `enum`/`const`
 * whose values are of different kinds, or the `enum`/`const` branches of an `anyOf`); see {@link coerceValue}.
 */
export const TYPE_CHOICE = 128;
const TYPE_NUMERIC = TYPE_NUMBER | TYPE_INTEGER;

/** The scalar values of a mixed `enum`/`const`, by kind (for {@link TYPE_CHOICE} coercion). */
export interface Choices {
  readonly strings: ReadonlySet<string>;
  readonly numbers: ReadonlySet<number>;
  readonly booleans: ReadonlySet<boolean>;
}

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

const DIGITS = /^[+-]?\d+$/;

/**
 * The finite number `t` (trimmed text) spells, or undefined: not numeric, out of range (`1e400`), or whole-number digits
 * a double cannot hold exactly (`9007199254740993`): those stay text and the schema rejects them.
 */
function numberOf(t: string): number | undefined {
  if (!NUMERIC.test(t)) return undefined;
  const n = Number(t);
  if (!Number.isFinite(n)) return undefined;
  if (!Number.isSafeInteger(n) && DIGITS.test(t) && BigInt(t) !== BigInt(n)) return undefined;
  return n;
}

/** The boolean `t` (trimmed text) spells, any case, or undefined. */
function booleanOf(t: string): boolean | undefined {
  if (t.length !== 4 && t.length !== 5) return undefined;
  const lower = t.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

function fromText(text: string, mask: number): unknown {
  const t = text.trim();
  if (t === '') return text;
  if (mask & TYPE_NUMERIC) {
    const n = numberOf(t);
    if (n !== undefined) return n;
  }
  if (mask & TYPE_BOOLEAN) {
    const b = booleanOf(t);
    if (b !== undefined) return b;
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
 * Coercion with specific allowed values (`choices`) besides the types of `mask`: a value becomes another only if
 * that other is allowed (by a type of `mask` or as one of the values). A string is kept when allowed as is (a string
 * type, or one of the strings: the literal string wins), else becomes the number its numeric text spells, else the
 * boolean it spells, else (array/object types) the JSON it holds; a number or boolean not allowed as is becomes its
 * string form when that is allowed.
 */
function choose(value: unknown, mask: number, choices: Choices): unknown {
  switch (typeof value) {
    case 'string': {
      if (mask & TYPE_STRING || choices.strings.has(value)) return value;
      const t = value.trim();
      if (mask & TYPE_NUMERIC || choices.numbers.size > 0) {
        const n = numberOf(t);
        if (n !== undefined && (mask & TYPE_NUMERIC || choices.numbers.has(n))) return n;
      }
      if (mask & TYPE_BOOLEAN || choices.booleans.size > 0) {
        const b = booleanOf(t);
        if (b !== undefined && (mask & TYPE_BOOLEAN || choices.booleans.has(b))) return b;
      }
      return mask & (TYPE_ARRAY | TYPE_OBJECT) ? fromText(value, mask & (TYPE_ARRAY | TYPE_OBJECT)) : value;
    }
    case 'number':
      if (mask & TYPE_NUMERIC || choices.numbers.has(value) || !Number.isFinite(value)) return value;
      return mask & TYPE_STRING || choices.strings.has(String(value)) ? String(value) : value;
    case 'boolean':
      if (mask & TYPE_BOOLEAN || choices.booleans.has(value)) return value;
      return mask & TYPE_STRING || choices.strings.has(String(value)) ? String(value) : value;
    default:
      return value;
  }
}

/**
 * Coerces `value` to the declared types `mask` (from {@link typeMask}); returns `value` itself when nothing applies,
 * so schema validation reports the mismatch.
 *
 * - a string for a non-string type: numeric text -> number (only a finite one: `1e400` stays text), `true`/`false`
 *   (any case) -> boolean, JSON text of an array/object -> the parsed value (only if it parses to that kind);
 * - a number or boolean for a string type (and not for its own type) -> its string form;
 * - with {@link TYPE_CHOICE} (and `choices`): only ever to an allowed value (a type of `mask`, or a listed value).
 */
export function coerceValue(value: unknown, mask: number, choices?: Choices): unknown {
  if (mask === 0) return value;
  if (mask & TYPE_CHOICE) return choices === undefined ? value : choose(value, mask, choices);
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
