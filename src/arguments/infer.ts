/**
 * What to coerce an argument to when its schema has no literal `type`: inferred from its `enum`/`const` values, or
 * (inputSchema properties) from the schema a local `$ref` points to.
 *
 * @module
 * @internal
 */
import {
  TYPE_ARRAY,
  TYPE_BOOLEAN,
  TYPE_CHOICE,
  TYPE_INTEGER,
  TYPE_NUMBER,
  TYPE_OBJECT,
  TYPE_STRING,
  typeMask,
} from './coerce.js';
import type { Choices } from './coerce.js';

/** How the hot path coerces one argument: type flags, and the allowed values for {@link TYPE_CHOICE}. */
export interface Coercion {
  readonly types: number;
  readonly choices: Choices | undefined;
}

const NONE: Coercion = Object.freeze({ types: 0, choices: undefined });
const byMask = new Map<number, Coercion>();

function ofMask(types: number): Coercion {
  if (types === 0) return NONE;
  let c = byMask.get(types);
  if (c === undefined) byMask.set(types, (c = Object.freeze({ types, choices: undefined })));
  return c;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The coercion that fits a list of allowed values (`null` ignored: a null argument counts as omitted):
 * all strings -> string; all integers -> integer; all numbers -> number; all booleans -> boolean; all arrays ->
 * array; all objects -> object; a mix -> {@link TYPE_CHOICE} over its scalar values (a value only ever becomes an
 * allowed one; see `coerceValue`); nothing left -> no coercion.
 *
 * @example
 * ```ts
 * coercionOfValues([1, 2, 10]).types === TYPE_INTEGER; // true
 * coercionOfValues(['auto', 0]).types === TYPE_CHOICE; // true
 * ```
 */
export function coercionOfValues(values: readonly unknown[]): Coercion {
  let kinds = 0;
  let allIntegers = true;
  for (const v of values) {
    if (v === null) continue;
    if (typeof v === 'string') kinds |= TYPE_STRING;
    else if (typeof v === 'number') {
      kinds |= TYPE_NUMBER;
      if (!Number.isInteger(v)) allIntegers = false;
    } else if (typeof v === 'boolean') kinds |= TYPE_BOOLEAN;
    else if (Array.isArray(v)) kinds |= TYPE_ARRAY;
    else if (typeof v === 'object') kinds |= TYPE_OBJECT;
  }
  switch (kinds) {
    case 0:
      return NONE;
    case TYPE_NUMBER:
      return ofMask(allIntegers ? TYPE_INTEGER : TYPE_NUMBER);
    case TYPE_STRING:
    case TYPE_BOOLEAN:
    case TYPE_ARRAY:
    case TYPE_OBJECT:
      return ofMask(kinds);
    default: {
      const strings = new Set<string>();
      const numbers = new Set<number>();
      const booleans = new Set<boolean>();
      for (const v of values) {
        if (typeof v === 'string') strings.add(v);
        else if (typeof v === 'number') numbers.add(v);
        else if (typeof v === 'boolean') booleans.add(v);
      }
      return Object.freeze({ types: TYPE_CHOICE, choices: Object.freeze({ strings, numbers, booleans }) });
    }
  }
}

/**
 * The value at a local `$ref` (`#/$defs/x`, `#/definitions/x`, any `#/...` JSON pointer) in `root`, or undefined.
 *
 * @example
 * ```ts
 * resolveLocalRef({ $defs: { n: { type: 'integer' } } }, '#/$defs/n'); // { type: 'integer' }
 * ```
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) {
      if (!/^(?:0|[1-9]\d*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (isRecord(node) && Object.prototype.hasOwnProperty.call(node, segment)) {
      node = node[segment];
    } else {
      return undefined;
    }
  }
  return node;
}

/** How many `$ref`s are followed before giving up (cycles, long chains). */
const MAX_REF_DEPTH = 8;

/**
 * The coercion of one property schema: its literal `type` when it has one; else inferred from its `enum`/`const`
 * values (`const` first; {@link coercionOfValues}); else, when `root` is given, that of the schema a local `$ref`
 * points to (followed up to 8 deep). No coercion otherwise.
 *
 * @example
 * ```ts
 * coercionOf({ enum: [1, 2, 10] }).types === TYPE_INTEGER; // true
 * coercionOf({ $ref: '#/$defs/n' }, { $defs: { n: { type: 'number' } } }).types === TYPE_NUMBER; // true
 * ```
 */
export function coercionOf(property: unknown, root?: unknown, depth = 0): Coercion {
  if (!isRecord(property)) return NONE;
  const type = property['type'];
  if (type !== undefined) return ofMask(typeMask(type));
  // `const` is the stricter of the two when both are present.
  if (Object.prototype.hasOwnProperty.call(property, 'const')) return coercionOfValues([property['const']]);
  const en = property['enum'];
  if (Array.isArray(en)) return coercionOfValues(en);
  const ref = property['$ref'];
  if (root !== undefined && typeof ref === 'string' && depth < MAX_REF_DEPTH) {
    return coercionOf(resolveLocalRef(root, ref), root, depth + 1);
  }
  return NONE;
}
