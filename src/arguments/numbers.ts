/**
 * Exact decimal arithmetic on JSON numbers: `multipleOf` decided on decimals, and number literals a double would
 * change (docs/arguments.md), in argument text and in JSON text.
 *
 * @module
 * @internal
 */
import { setOwn } from '../json.js';

/** Unsigned decimal text (`12.5e-3`) as its digits without the point and the power of ten they are scaled by. */
function decimalParts(unsigned: string): [digits: string, exponent: number] {
  let text = unsigned;
  let exponent = 0;
  const e = text.search(/[eE]/);
  if (e >= 0) {
    exponent = Number(text.slice(e + 1));
    text = text.slice(0, e);
  }
  const dot = text.indexOf('.');
  if (dot >= 0) {
    exponent -= text.length - dot - 1;
    text = text.slice(0, dot) + text.slice(dot + 1);
  }
  return [text, exponent];
}

/** `x` as `[m, e]` with x = m × 10^e, from its shortest decimal form (`String(x)`, exponent forms included). */
function decimalOf(x: number): [bigint, number] {
  const [digits, exponent] = decimalParts(String(x));
  return [BigInt(digits), exponent];
}

/** Whether `value` is an integer multiple of `step` (> 0) in decimal: 0.3 of 0.1 yes, 1.0000000001 of 1 no. */
export function isDecimalMultiple(value: number, step: number): boolean {
  if (Number.isSafeInteger(value) && Number.isSafeInteger(step)) return value % step === 0;
  if (!Number.isFinite(value) || !Number.isFinite(step) || step <= 0) return false;
  const [mv, ev] = decimalOf(value);
  const [ms, es] = decimalOf(step);
  if (mv === 0n) return true;
  return ev >= es ? (mv * 10n ** BigInt(ev - es)) % ms === 0n : mv % (ms * 10n ** BigInt(es - ev)) === 0n;
}

// ---------------------------------------------------------------------------------------------- exact literals

/** A number literal that a double would change (see {@link literalProblem}), where it was found. */
export class InexactNumber {
  constructor(
    /** The segments to the number inside the value (none for the value itself). */
    readonly path: readonly (string | number)[],
    readonly message: string,
  ) {}
}

const OVERFLOW = 'is beyond the range of a double (about ±1.8e308)';
const UNDERFLOW = 'is too small for a double: it would become 0';
const CHANGED = 'would become a different integer (a double holds whole numbers exactly only up to ±9007199254740991)';

const PLAIN_DIGITS = /^[+-]?\d+$/;

/** Whether the decimal `literal` is exactly the integer `n` (a finite double that is an integer). */
function isExactly(literal: string, n: number): boolean {
  const negative = literal.charCodeAt(0) === 0x2d;
  const signed = negative || literal.charCodeAt(0) === 0x2b;
  let [text, exponent] = decimalParts(signed ? literal.slice(1) : literal);
  let start = 0;
  while (start < text.length && text.charCodeAt(start) === 0x30) start++;
  let end = text.length;
  while (end > start && text.charCodeAt(end - 1) === 0x30) end--;
  if (start === end) return n === 0;
  exponent += text.length - end;
  const digits = text.slice(start, end);
  // A fraction is not an integer; more digits than a double's range cannot be `n` (nor can a zero).
  if (exponent < 0 || digits.length + exponent > 310 || n === 0 || negative !== n < 0) return false;
  return BigInt(digits + '0'.repeat(exponent)) === BigInt(Math.abs(n));
}

/** Why the decimal `literal` cannot be taken as its double `n` (docs/arguments.md), or undefined. */
export function literalProblem(literal: string, n: number): string | undefined {
  if (!Number.isFinite(n)) return OVERFLOW;
  if (!Number.isInteger(n) || (Number.isSafeInteger(n) && PLAIN_DIGITS.test(literal))) return undefined;
  if (isExactly(literal, n)) return undefined;
  return n === 0 ? UNDERFLOW : CHANGED;
}

/** JSON text with a number token of 16 digits or more, or with an exponent (else every number in it is exact). */
const MAYBE_INEXACT = /[\d.][eE]|(?:\d\.?){16}/;

/** A number literal JSON.parse changes: the path of segments to it (below the container asked about) and why. */
interface Inexact {
  readonly path: (string | number)[];
  readonly message: string;
}

/** A changed number as a chain of segments from an entry down to it: one node per level, made only when recorded. */
interface Found {
  /** Undefined for the value itself (text that is one number). */
  readonly segment: string | number | undefined;
  readonly next: Found | undefined;
  readonly message: string;
}

/** Where an open level sits relative to the container asked about. */
const OFF = 0;
const ABOVE = 1;
const TARGET = 2;
const INSIDE = 3;

/** An open array or object, and the first changed number of each of its entries JSON.parse keeps. */
interface Level {
  readonly array: boolean;
  readonly mode: number;
  index: number;
  /** The current key as JSON text, and decoded (once, when needed). */
  key: string;
  decoded: string | undefined;
  expectKey: boolean;
  /** By index or decoded key; a later duplicate key drops its entry (JSON.parse keeps the last). */
  found: Map<string | number, Found> | undefined;
}

function decodeKey(text: string): string {
  return text.includes('\\') ? (JSON.parse(text) as string) : text.slice(1, -1);
}

function keyOf(level: Level): string {
  return (level.decoded ??= decodeKey(level.key));
}

function entryOf(level: Level): string | number {
  return level.array ? level.index : keyOf(level);
}

/** Records `found` under the current entry of `level` unless that entry has one; whether `level` had none before. */
function record(level: Level, message: string, next: Found | undefined): boolean {
  const map = (level.found ??= new Map());
  const none = map.size === 0;
  const entry = entryOf(level);
  if (!map.has(entry)) map.set(entry, { segment: entry, next, message });
  return none;
}

function pathOf(found: Found): (string | number)[] {
  const path: (string | number)[] = [];
  for (let f: Found | undefined = found; f !== undefined; f = f.next) if (f.segment !== undefined) path.push(f.segment);
  return path;
}

/** Where a level opened inside `parent` sits (at `depth` levels deep), for the container at path `at`. */
function modeOf(parent: Level | undefined, depth: number, at: readonly string[]): number {
  if (parent === undefined) return at.length === 0 ? TARGET : ABOVE;
  if (parent.mode >= TARGET) return INSIDE;
  if (parent.mode === OFF || parent.array || keyOf(parent) !== at[depth - 1]) return OFF;
  return depth === at.length ? TARGET : ABOVE;
}

/**
 * The first number JSON.parse changes in each entry JSON.parse keeps of the container at path `at` of valid JSON
 * `text` (only the first entry's with `first`; the value itself when `at` is empty and it is no container), paths
 * below that container. One pass, linear in the text: a path segment is made only for a number recorded (one per
 * entry and level), nothing is recorded outside the container asked about.
 */
export function inexactLiterals(text: string, at: readonly string[] = [], first = false): Inexact[] {
  const found = scan(text, at, first);
  return found.map((f) => ({ path: pathOf(f), message: f.message }));
}

/** {@link inexactLiterals} as chains (a chain with no segment for the value itself). */
function scan(text: string, at: readonly string[], first: boolean): readonly Found[] {
  if (!MAYBE_INEXACT.test(text)) return [];
  const levels: Level[] = [];
  const length = text.length;
  let result: Found[] | undefined;
  // Open arrays inside the container with a changed number recorded: nothing inside them changes what they report.
  let settled = 0;
  for (let i = 0; i < length; ) {
    const c = text.charCodeAt(i);
    const top = levels[levels.length - 1];
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (top !== undefined && !top.array && top.expectKey && top.mode !== OFF) {
        top.key = text.slice(i, end);
        top.decoded = undefined;
        if (top.mode === ABOVE) {
          // A later duplicate of a key on the path replaces what the earlier one held.
          if (keyOf(top) === at[levels.length - 1]) result = undefined;
        } else if (top.found !== undefined && top.found.size > 0) top.found.delete(keyOf(top));
      }
      i = end;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      // Valid JSON: the token runs to the next delimiter. Fewer than 16 digits and no exponent: exact, never sliced.
      const start = i;
      let digits = 0;
      let exponent = false;
      for (; i < length; i++) {
        const d = text.charCodeAt(i);
        if (d >= 0x30 && d <= 0x39) digits++;
        else if (d === 0x65 || d === 0x45) exponent = true;
        else if (d !== 0x2e && d !== 0x2d && d !== 0x2b) break;
      }
      if (
        (digits < 16 && !exponent) ||
        settled > 0 ||
        (top !== undefined && top.mode < TARGET) ||
        (top === undefined && at.length > 0)
      ) {
        continue;
      }
      const token = text.slice(start, i);
      const message = literalProblem(token, Number(token));
      if (message === undefined) continue;
      if (top === undefined) return [{ segment: undefined, next: undefined, message }];
      if (record(top, message, undefined) && top.array && top.mode === INSIDE) settled++;
    } else {
      if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
        const mode = modeOf(top, levels.length, at);
        levels.push({
          array: c === 0x5b,
          mode,
          index: 0,
          key: '',
          decoded: undefined,
          expectKey: true,
          found: undefined,
        });
      } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
        const closed = levels.pop() as Level;
        const parent = levels[levels.length - 1];
        const firstFound: Found | undefined = closed.found?.values().next().value;
        if (closed.mode === TARGET) {
          const kept = closed.found === undefined ? [] : [...closed.found.values()];
          result = first ? kept.slice(0, 1) : kept;
        } else if (closed.mode === INSIDE && parent !== undefined) {
          if (closed.array && firstFound !== undefined) settled--;
          if (
            firstFound !== undefined &&
            record(parent, firstFound.message, firstFound) &&
            parent.array &&
            parent.mode === INSIDE
          ) {
            settled++;
          }
        }
        if (parent === undefined) break;
      } else if (c === 0x2c /* , */ && top !== undefined) {
        if (top.array) top.index++;
        else top.expectKey = true;
      } else if (c === 0x3a /* : */ && top !== undefined) top.expectKey = false;
      i++;
    }
  }
  return result ?? [];
}

/**
 * Replaces each value of `args` (parsed from the JSON `text`, found at path `at` in it) holding a changed number by an
 * {@link InexactNumber}.
 */
export function markInexactNumbers(text: string, args: Record<string, unknown>, at: readonly string[] = []): void {
  for (const { segment: key, next, message } of scan(text, at, false)) {
    if (typeof key === 'string' && Object.hasOwn(args, key) && !(args[key] instanceof InexactNumber)) {
      setOwn(args, key, new InexactNumber(next === undefined ? [] : pathOf(next), message));
    }
  }
}

/** The index just after the JSON string starting at `start` (valid JSON: it is closed). */
function stringEnd(text: string, start: number): number {
  for (let from = start + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}
