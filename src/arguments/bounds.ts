/**
 * Bounds on argument values: string length in code points (walked only when it could exceed), and the bounded copy
 * of typed (array/object) values: depth, items, bytes, nested strings, well-formed text.
 *
 * @module
 */
import { setOwn } from '../json.js';

/** Code points in `text`, as JSON Schema's `maxLength` counts (a surrogate pair once, a lone surrogate once). */
export function codePointLength(text: string): number {
  const units = text.length;
  let count = units;
  for (let i = 0; i < units - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Whether `text` has more than `limit` code points; walks it only when its UTF-16 length cannot decide. */
export function exceedsLimit(text: string, limit: number): boolean {
  const units = text.length;
  if (units <= limit) return false;
  if (units > limit * 2) return true;
  return codePointLength(text) > limit;
}

/** Bounds on one typed (array/object) argument value, checked before ajv sees it. */
export interface ValueLimits {
  readonly maxDepth: number;
  readonly maxItems: number;
  readonly maxBytes: number;
  readonly maxLength: number;
}

/** Why a typed value is refused: over a limit, or a string that is not well-formed UTF-16. */
export type ValueProblem =
  | { readonly kind: 'too-long'; readonly limit: number }
  | { readonly kind: 'limit'; readonly keyword: string; readonly message: string };

const LONE_SURROGATE = /\p{Cs}/u;

/** Whether `text` is well-formed UTF-16 (no lone surrogate). */
export function isWellFormedText(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === 'function' ? native.call(text) : !LONE_SURROGATE.test(text);
}

/** The problem of a string with a lone surrogate. */
export const ILL_FORMED = {
  kind: 'limit',
  keyword: 'wellFormed',
  message: 'must be well-formed Unicode text (it contains a lone surrogate)',
} as const satisfies ValueProblem;

function overBytes(limits: ValueLimits): ValueProblem {
  return { kind: 'limit', keyword: 'maxBytes', message: `is larger than ${limits.maxBytes} bytes (limit maxBytes)` };
}

interface Budget {
  items: number;
  bytes: number;
  problem: ValueProblem | undefined;
}

function copyBounded(value: unknown, depth: number, limits: ValueLimits, budget: Budget): unknown {
  if (typeof value === 'string') {
    budget.bytes += value.length;
    if (exceedsLimit(value, limits.maxLength)) budget.problem = { kind: 'too-long', limit: limits.maxLength };
    else if (budget.bytes > limits.maxBytes) budget.problem = overBytes(limits);
    else if (!isWellFormedText(value)) budget.problem = ILL_FORMED;
    return value;
  }
  if (typeof value !== 'object' || value === null) {
    budget.bytes += 8;
    return value;
  }
  if (depth >= limits.maxDepth) {
    budget.problem = { kind: 'limit', keyword: 'maxDepth', message: `nests deeper than ${limits.maxDepth} levels (limit maxDepth)` };
    return value;
  }
  const isArray = Array.isArray(value);
  // Own data properties only: getters and toJSON are never called, functions are not data.
  const keys = isArray ? undefined : Object.keys(value);
  const size = isArray ? (value as unknown[]).length : (keys as string[]).length;
  budget.items += size;
  budget.bytes += 8 + size * 8;
  if (budget.items > limits.maxItems) {
    budget.problem = { kind: 'limit', keyword: 'maxItems', message: `holds more than ${limits.maxItems} items in all (limit maxItems)` };
    return value;
  }
  if (budget.bytes > limits.maxBytes) {
    budget.problem = overBytes(limits);
    return value;
  }
  if (isArray) {
    const out = new Array<unknown>(size);
    for (let i = 0; i < size; i++) {
      const d = Object.getOwnPropertyDescriptor(value, i);
      out[i] = d === undefined || !('value' in d) ? null : copyBounded(d.value, depth + 1, limits, budget);
      if (budget.problem !== undefined) return value;
    }
    return out;
  }
  // A plain object (ajv's deep equality for enum/const compares constructors); `__proto__` stays an own key.
  const out: Record<string, unknown> = {};
  for (const key of keys as string[]) {
    const d = Object.getOwnPropertyDescriptor(value, key);
    if (d === undefined || !('value' in d) || typeof d.value === 'function') continue;
    budget.bytes += key.length;
    if (!isWellFormedText(key)) budget.problem = ILL_FORMED;
    else setOwn(out, key, copyBounded(d.value, depth + 1, limits, budget));
    if (budget.problem !== undefined) return value;
  }
  return out;
}

/** A copy of `value` (own data properties, plain objects) within `limits`, or the problem that stopped it. */
export function boundedCopy(value: object, limits: ValueLimits): { value: unknown } | { problem: ValueProblem } {
  const budget: Budget = { items: 0, bytes: 0, problem: undefined };
  const copy = copyBounded(value, 0, limits, budget);
  return budget.problem === undefined ? { value: copy } : { problem: budget.problem };
}
