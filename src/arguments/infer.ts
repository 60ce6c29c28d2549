/**
 * What to coerce an argument to when its schema has no literal `type`: inferred from its `enum`/`const` values, or
 * (inputSchema properties) from the schema a local `$ref` points to, or from its `allOf`/`anyOf`/`oneOf` branches.
 *
 * @module
 * @internal
 */
import { isRecord } from '../json.js';
import { TYPE_ARRAY, TYPE_BOOLEAN, TYPE_CHOICE, TYPE_INTEGER, TYPE_NULL, TYPE_NUMBER, TYPE_OBJECT, TYPE_STRING, typeMask } from './coerce.js';
import type { Choices } from './coerce.js';
import { RefIndex, atPointer } from './schema-checks.js';
import type { RefTarget } from './schema-checks.js';

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

/**
 * The coercion that fits a list of allowed values (`null` ignored: a null argument counts as omitted):
 * all strings -> string; all integers -> integer; all numbers -> number; all booleans -> boolean; all arrays ->
 * array; all objects -> object; a mix -> {@link TYPE_CHOICE} over its scalar values, plus the array/object types of
 * its array/object values (a value only ever becomes an allowed one; see `coerceValue`); nothing left -> no coercion.
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
      const { strings, numbers, booleans } = ofValues(values);
      // Array/object values: JSON text of that kind is parsed (the schema then decides whether it is one of them).
      const types = TYPE_CHOICE | (kinds & (TYPE_ARRAY | TYPE_OBJECT));
      return Object.freeze({ types, choices: Object.freeze({ strings, numbers, booleans }) });
    }
  }
}

/**
 * The value at a local `$ref` (`#/$defs/x`, `#/definitions/x`, any `#/...` JSON pointer) in `root`, or undefined.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  return ref.startsWith('#/') ? atPointer(root, ref.slice(1)) : undefined;
}

/** How many `$ref`s and combinator levels are followed before giving up (cycles, long chains). */
const MAX_DEPTH = 8;

/**
 * What one subschema allows, as far as coercion cares: whole types (flags), and specific scalar values (from an
 * `enum`/`const`). Undefined where a schema says nothing about types: any value may pass it as it is.
 */
interface Allowed {
  readonly types: number;
  readonly strings: ReadonlySet<string>;
  readonly numbers: ReadonlySet<number>;
  readonly booleans: ReadonlySet<boolean>;
}

const NO_VALUES: ReadonlySet<never> = new Set<never>();

function ofValues(values: readonly unknown[]): Allowed {
  let types = 0;
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const booleans = new Set<boolean>();
  for (const v of values) {
    if (typeof v === 'string') strings.add(v);
    else if (typeof v === 'number') numbers.add(v);
    else if (typeof v === 'boolean') booleans.add(v);
    else if (v === null) types |= TYPE_NULL;
    else if (Array.isArray(v)) types |= TYPE_ARRAY;
    else if (typeof v === 'object') types |= TYPE_OBJECT;
  }
  return { types, strings, numbers, booleans };
}

function allowsNumber(a: Allowed, n: number): boolean {
  return (a.types & TYPE_NUMBER) !== 0 || ((a.types & TYPE_INTEGER) !== 0 && Number.isInteger(n)) || a.numbers.has(n);
}

/** Either branch (`anyOf`/`oneOf`). */
function union(a: Allowed, b: Allowed): Allowed {
  return {
    types: a.types | b.types,
    strings: new Set([...a.strings, ...b.strings]),
    numbers: new Set([...a.numbers, ...b.numbers]),
    booleans: new Set([...a.booleans, ...b.booleans]),
  };
}

/** Both (`allOf`): the types both allow (an integer is a number), and the values the other side allows too. */
function intersection(a: Allowed, b: Allowed): Allowed {
  let types = a.types & b.types;
  if ((a.types & TYPE_NUMBER && b.types & TYPE_INTEGER) || (a.types & TYPE_INTEGER && b.types & TYPE_NUMBER)) {
    types |= TYPE_INTEGER;
  }
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const booleans = new Set<boolean>();
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const v of x.strings) if (y.types & TYPE_STRING || y.strings.has(v)) strings.add(v);
    for (const v of x.numbers) if (allowsNumber(y, v)) numbers.add(v);
    for (const v of x.booleans) if (y.types & TYPE_BOOLEAN || y.booleans.has(v)) booleans.add(v);
  }
  return { types, strings, numbers, booleans };
}

/** The document references resolve in (indexed on first use), when known. */
interface Context {
  readonly root: unknown;
  refs: RefIndex | undefined;
  /** What each (subschema, base) allows, once: references back into a schema cost nothing twice. */
  memo?: Map<object, Map<string, Allowed | undefined>>;
}

function indexOf(ctx: Context): RefIndex {
  return (ctx.refs ??= ctx.root instanceof RefIndex ? ctx.root : new RefIndex(ctx.root));
}

/** The base URI of `schema` (its own `$id`, resolved), given its parent's. */
function baseOf(schema: Record<string, unknown>, ctx: Context, base: string): string {
  return typeof schema['$id'] === 'string' && ctx.root !== undefined ? indexOf(ctx).baseOf(schema, base) : base;
}

/** Where a local reference leads (a pointer, an anchor, an embedded resource), or undefined. */
function follow(ref: string, ctx: Context, base: string): RefTarget | undefined {
  if (ctx.root === undefined) return undefined;
  const target = indexOf(ctx).resolve(ref, base === '' ? indexOf(ctx).rootBase : base);
  return target === 'external' ? undefined : target;
}

/** The values of an `enum`/`const` (`const` wins), or undefined. */
function valuesOf(schema: Record<string, unknown>): Allowed | undefined {
  if (Object.prototype.hasOwnProperty.call(schema, 'const')) return ofValues([schema['const']]);
  const en = schema['enum'];
  return Array.isArray(en) ? ofValues(en) : undefined;
}

/**
 * What `schema` allows (see {@link Allowed}): its `type` (narrowed to the `enum`/`const` values beside it), else
 * its `const`/`enum`, `$ref` or combinators, first found.
 */
function allowedBy(schema: unknown, ctx: Context, parentBase: string, depth: number): Allowed | undefined {
  if (schema === false) return { types: 0, strings: NO_VALUES, numbers: NO_VALUES, booleans: NO_VALUES };
  if (!isRecord(schema) || depth > MAX_DEPTH) return undefined;
  const byBase = (ctx.memo ??= new Map()).get(schema) ?? new Map<string, Allowed | undefined>();
  ctx.memo.set(schema, byBase);
  if (byBase.has(parentBase)) return byBase.get(parentBase);
  // A reference back to a schema being worked out says nothing (undefined) until it is known.
  byBase.set(parentBase, undefined);
  const allowed = allowedUncached(schema, ctx, parentBase, depth);
  byBase.set(parentBase, allowed);
  return allowed;
}

function allowedUncached(schema: Record<string, unknown>, ctx: Context, parentBase: string, depth: number): Allowed | undefined {
  const base = baseOf(schema, ctx, parentBase);
  const values = valuesOf(schema);
  const type = schema['type'];
  if (type !== undefined) {
    const types = typeMask(type);
    if (types === 0) return values;
    const typed: Allowed = { types, strings: NO_VALUES, numbers: NO_VALUES, booleans: NO_VALUES };
    return values === undefined ? typed : intersection(typed, values);
  }
  if (values !== undefined) return values;
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = follow(ref, ctx, base);
    return target === undefined ? undefined : allowedBy(target.node, ctx, target.base, depth + 1);
  }
  let result: Allowed | undefined;
  const all = schema['allOf'];
  if (Array.isArray(all)) {
    for (const branch of all) {
      const allowed = allowedBy(branch, ctx, base, depth + 1);
      if (allowed !== undefined) result = result === undefined ? allowed : intersection(result, allowed);
    }
    if (result !== undefined) return result;
  }
  for (const k of ['anyOf', 'oneOf'] as const) {
    const branches = schema[k];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    result = undefined;
    for (const branch of branches) {
      const allowed = allowedBy(branch, ctx, base, depth + 1);
      // A branch that says nothing about types may accept the value as it is: leave it alone.
      if (allowed === undefined) return undefined;
      result = result === undefined ? allowed : union(result, allowed);
    }
    return result;
  }
  return undefined;
}

/** The coercion of what a combinator allows: its types, plus {@link TYPE_CHOICE} for values no type covers. */
function coercionOfAllowed(a: Allowed): Coercion {
  if ((a.types & ~TYPE_NULL) === 0) {
    // Values of one scalar kind only: coercing to that kind is the same thing.
    const s = a.strings.size > 0;
    const n = a.numbers.size > 0;
    const b = a.booleans.size > 0;
    if (s && !n && !b) return ofMask(TYPE_STRING);
    if (n && !s && !b) return ofMask([...a.numbers].every(Number.isInteger) ? TYPE_INTEGER : TYPE_NUMBER);
    if (b && !s && !n) return ofMask(TYPE_BOOLEAN);
  }
  const covers = (set: ReadonlySet<unknown>, bit: number): boolean => set.size === 0 || (a.types & bit) !== 0;
  const numbersCovered = [...a.numbers].every((n) => allowsNumber({ ...a, numbers: NO_VALUES }, n));
  if (covers(a.strings, TYPE_STRING) && numbersCovered && covers(a.booleans, TYPE_BOOLEAN)) return ofMask(a.types);
  return Object.freeze({
    types: a.types | TYPE_CHOICE,
    choices: Object.freeze({ strings: a.strings, numbers: a.numbers, booleans: a.booleans }),
  });
}

/**
 * The coercion of one property schema: its literal `type` when it has one; else inferred from its `enum`/`const`
 * values (`const` first; {@link coercionOfValues}); else, when `root` is given, that of the schema a local `$ref`
 * points to (followed up to 8 deep); else that of its combinators: `allOf` -> what every typed branch allows,
 * `anyOf`/`oneOf` -> what any branch allows (nothing when some branch says nothing about types), where the
 * `enum`/`const` branches allow just their values (a string is kept when a branch allows it as is, else becomes the
 * number, boolean or JSON array/object a branch allows; see `coerceValue`). No coercion otherwise.
 */
export function coercionOf(property: unknown, root?: unknown, depth = 0): Coercion {
  return coercionIn(property, { root, refs: undefined }, '', depth);
}

/** Whether a type mask names one kind of value (null aside; integer and number count as one). */
function oneKind(mask: number): boolean {
  const m = mask & ~TYPE_NULL;
  return m === (m & -m) || m === (TYPE_NUMBER | TYPE_INTEGER);
}

function coercionIn(property: unknown, ctx: Context, parentBase: string, depth: number): Coercion {
  if (!isRecord(property)) return NONE;
  const type = property['type'];
  if (type !== undefined) {
    const mask = typeMask(type);
    // Several types beside `enum`/`const`: only the listed values of those types can pass.
    if (oneKind(mask) || valuesOf(property) === undefined) return ofMask(mask);
    const allowed = allowedBy(property, ctx, parentBase, depth);
    return allowed === undefined ? ofMask(mask) : coercionOfAllowed(allowed);
  }
  // `const` is the stricter of the two when both are present.
  if (Object.prototype.hasOwnProperty.call(property, 'const')) return coercionOfValues([property['const']]);
  const en = property['enum'];
  if (Array.isArray(en)) return coercionOfValues(en);
  const base = baseOf(property, ctx, parentBase);
  const ref = property['$ref'];
  if (typeof ref === 'string') {
    const target = depth < MAX_DEPTH ? follow(ref, ctx, base) : undefined;
    return target === undefined ? NONE : coercionIn(target.node, ctx, target.base, depth + 1);
  }
  if (property['allOf'] === undefined && property['anyOf'] === undefined && property['oneOf'] === undefined) {
    return NONE;
  }
  const allowed = allowedBy(property, ctx.root === undefined ? { root: property, refs: undefined } : ctx, base, depth);
  return allowed === undefined ? NONE : coercionOfAllowed(allowed);
}
