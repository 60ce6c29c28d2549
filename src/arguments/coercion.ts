/**
 * Coercion of argument values to their JSON-Schema type (our own, not ajv's `coerceTypes`, which mutates the data),
 * and the inference of what to coerce to when a schema has no literal `type` (enum/const values, a local `$ref`,
 * `allOf`/`anyOf`/`oneOf` branches). The MCP wire sends every argument as a string; HTTP callers may send typed JSON.
 *
 * @module
 */
import { isRecord } from '../json.js';
import { InexactNumber, inexactLiterals, literalProblem } from './numbers.js';
import { spend } from './schema-limits.js';
import type { StepBudget } from './schema-limits.js';
import { RefIndex } from './schema-refs.js';
import type { RefTarget } from './schema-refs.js';

/** Bit flags of declared JSON-Schema types. */
export const TYPE_STRING = 1;
export const TYPE_NUMBER = 2;
export const TYPE_INTEGER = 4;
export const TYPE_BOOLEAN = 8;
export const TYPE_ARRAY = 16;
export const TYPE_OBJECT = 32;
export const TYPE_NULL = 64;
/** Not a JSON-Schema type: specific values (of a mixed `enum`/`const`) are allowed besides the flags' types. */
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

/** The type flags of a JSON-Schema `type` keyword (a name or an array of names); 0 when absent (no coercion). */
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

/**
 * The number `t` spells, {@link InexactNumber} when a double would change it (`1e400`, `9007199254740993`), or
 * undefined.
 */
function numberOf(t: string): number | InexactNumber | undefined {
  if (!NUMERIC.test(t)) return undefined;
  const n = Number(t);
  const problem = literalProblem(t, n);
  return problem === undefined ? n : new InexactNumber([], problem);
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
    if (
      Array.isArray(parsed)
        ? !(mask & TYPE_ARRAY)
        : parsed === null || typeof parsed !== 'object' || !(mask & TYPE_OBJECT)
    ) {
      return text;
    }
    const inexact = inexactLiterals(t, [], true)[0];
    return inexact === undefined ? parsed : new InexactNumber(inexact.path, inexact.message);
  }
  return text;
}

/** Coercion with allowed values besides `mask`'s types: only ever to an allowed value; a literal string wins. */
function choose(value: unknown, mask: number, choices: Choices): unknown {
  switch (typeof value) {
    case 'string': {
      if (mask & TYPE_STRING || choices.strings.has(value)) return value;
      const t = value.trim();
      if (mask & TYPE_NUMERIC || choices.numbers.size > 0) {
        const n = numberOf(t);
        if (n instanceof InexactNumber || (n !== undefined && (mask & TYPE_NUMERIC || choices.numbers.has(n))))
          return n;
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
 * `value` coerced to the types `mask` (see docs/arguments.md), or itself for the schema to judge; an
 * {@link InexactNumber} for text holding a number a double would change.
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

// ---------------------------------------------------------------------------------------------- inference

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
 * The coercion that fits a list of allowed values: their one kind, else {@link TYPE_CHOICE} over them (nulls aside).
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

/** How many `$ref`s and combinator levels are followed before giving up (cycles, long chains). */
const MAX_DEPTH = 8;

/** What a subschema allows, as far as coercion cares: whole types, and scalar values (undefined: it does not say). */
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

/** The document references resolve in (indexed on first use), when known, and what was inferred in it so far. */
interface Context {
  readonly root: unknown;
  refs: RefIndex | undefined;
  /** What each (subschema, base) allows, once: references back into a schema cost nothing twice. */
  readonly memo: Map<object, Map<string, Allowed | undefined>>;
  readonly budget: StepBudget;
}

function contextOf(root: unknown, budget: StepBudget = { steps: 0 }): Context {
  return { root, refs: undefined, memo: new Map(), budget };
}

function indexOf(ctx: Context): RefIndex {
  return (ctx.refs ??= new RefIndex(ctx.root));
}

/** The work of combining two sets of allowed values. */
function sizeOf(a: Allowed): number {
  return 1 + a.strings.size + a.numbers.size + a.booleans.size;
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
  if (Object.hasOwn(schema, 'const')) return ofValues([schema['const']]);
  const en = schema['enum'];
  return Array.isArray(en) ? ofValues(en) : undefined;
}

/** What `schema` allows: its `type` (narrowed by `enum`/`const`), else its values, `$ref` or combinators. */
function allowedBy(schema: unknown, ctx: Context, parentBase: string, depth: number): Allowed | undefined {
  if (schema === false) return { types: 0, strings: NO_VALUES, numbers: NO_VALUES, booleans: NO_VALUES };
  if (!isRecord(schema) || depth > MAX_DEPTH) return undefined;
  spend(ctx.budget, 1, '');
  const byBase = ctx.memo.get(schema) ?? new Map<string, Allowed | undefined>();
  ctx.memo.set(schema, byBase);
  if (byBase.has(parentBase)) return byBase.get(parentBase);
  // A reference back to a schema being worked out says nothing (undefined) until it is known.
  byBase.set(parentBase, undefined);
  const allowed = allowedUncached(schema, ctx, parentBase, depth);
  byBase.set(parentBase, allowed);
  return allowed;
}

function allowedUncached(
  schema: Record<string, unknown>,
  ctx: Context,
  parentBase: string,
  depth: number,
): Allowed | undefined {
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
      if (allowed === undefined) continue;
      if (result !== undefined) spend(ctx.budget, sizeOf(result) + sizeOf(allowed), '');
      result = result === undefined ? allowed : intersection(result, allowed);
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
      if (result !== undefined) spend(ctx.budget, sizeOf(result) + sizeOf(allowed), '');
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
 * The coercion of a property: its `type`, else its `enum`/`const`, else its local `$ref` or `allOf`/`anyOf`/`oneOf`.
 */
export function coercionOf(property: unknown): Coercion {
  return coercionIn(property, contextOf(undefined), '', 0);
}

/** {@link coercionOf} for the properties of `root`, sharing what is inferred and one step budget (then it throws). */
export function schemaCoercions(root: unknown): (property: unknown) => Coercion {
  const ctx = contextOf(root);
  return (property) => coercionIn(property, ctx, '', 0);
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
  if (Object.hasOwn(property, 'const')) return coercionOfValues([property['const']]);
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
  const allowed = allowedBy(property, ctx.root === undefined ? contextOf(property, ctx.budget) : ctx, base, depth);
  return allowed === undefined ? NONE : coercionOfAllowed(allowed);
}
