/**
 * String length in code points, and the hot-path "too long" check that only walks strings that could exceed.
 *
 * @module
 * @internal
 */
import { setOwn } from '../json.js';

/**
 * Number of Unicode code points in `text` (a surrogate pair counts once; a lone surrogate counts once), the way
 * JSON Schema's `maxLength` counts.
 */
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

/**
 * Whether `text` has more than `limit` code points. Never walks a string whose UTF-16 length is within the limit
 * (it cannot exceed it in code points), nor one longer than twice the limit (it must exceed it).
 */
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

/**
 * A copy of the typed value `value` (own data properties only, plain objects) within `limits`, or the
 * problem that stopped the copy (depth, item count, approximate size, a string over `maxLength` at any depth, or a
 * lone surrogate in a string or key).
 */
export function boundedCopy(value: object, limits: ValueLimits): { value: unknown } | { problem: ValueProblem } {
  const budget: Budget = { items: 0, bytes: 0, problem: undefined };
  const copy = copyBounded(value, 0, limits, budget);
  return budget.problem === undefined ? { value: copy } : { problem: budget.problem };
}
