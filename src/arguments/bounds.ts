/**
 * Bounds on argument values: string length in code points (walked only when it could exceed), and the bounded copy
 * of typed (array/object) values: depth, items and bytes (per request), nested strings and keys, well-formed text.
 *
 * @module
 */
import { echoed } from '../errors.js';
import { isWellFormedText } from '../encoding.js';
import { setOwn, toJsonPointer } from '../json.js';

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

/** Bounds on the typed (array/object) argument values of one request, checked before ajv sees them. */
export interface ValueLimits {
  readonly maxDepth: number;
  /** Items (array elements plus object keys, at every depth) of all typed values of a request together. */
  readonly maxItems: number;
  /** Approximate bytes of all typed values of a request together. */
  readonly maxBytes: number;
  /** Code points of every string and object key inside a typed value. */
  readonly maxLength: number;
}

/** Why a typed value is refused: over a limit, or a string that is not well-formed UTF-16. */
export type ValueProblem =
  | { readonly kind: 'too-long'; readonly limit: number }
  | { readonly kind: 'limit'; readonly keyword: string; readonly message: string };

/** The problem of a string with a lone surrogate. */
export const ILL_FORMED = {
  kind: 'limit',
  keyword: 'wellFormed',
  message: 'must be well-formed Unicode text (it contains a lone surrogate)',
} as const satisfies ValueProblem;

function overBytes(limits: ValueLimits, budget: ValueBudget): ValueProblem {
  return {
    kind: 'limit',
    keyword: 'maxBytes',
    message: `is larger than ${limits.maxBytes} bytes (${budget.together}; limit maxBytes)`,
  };
}

/** What the typed values of one request have used of {@link ValueLimits} (shared by all of them). */
export interface ValueBudget {
  items: number;
  bytes: number;
  problem: ValueProblem | undefined;
  /** Where an over-long key is: the segments from its object up to the value's root (innermost first). */
  path: string[] | undefined;
  /** What shares the budget, for messages. */
  readonly together: string;
}

/** A fresh budget, for one request (or for the defaults of one prompt). */
export function valueBudget(together = 'all array/object arguments of a request together'): ValueBudget {
  return { items: 0, bytes: 0, problem: undefined, path: undefined, together };
}

/** The message of a key over `limit` characters in the object at `pointer` (client text: cut when quoted). */
export function longKeyMessage(pointer: string, limit: number): string {
  const message = `has a property name longer than ${limit} characters (limit maxLength)`;
  return pointer === '' ? message : `${echoed(pointer)}: ${message}`;
}

/** The message of a value nesting deeper than `maxDepth` containers. */
export function depthMessage(maxDepth: number): string {
  return `nests deeper than ${maxDepth} levels (limit maxDepth)`;
}

function keyTooLong(limits: ValueLimits, budget: ValueBudget): void {
  budget.problem = { kind: 'limit', keyword: 'maxLength', message: longKeyMessage('', limits.maxLength) };
  budget.path = [];
}

function copyBounded(value: unknown, depth: number, limits: ValueLimits, budget: ValueBudget): unknown {
  if (typeof value === 'string') {
    budget.bytes += value.length;
    if (exceedsLimit(value, limits.maxLength)) budget.problem = { kind: 'too-long', limit: limits.maxLength };
    else if (budget.bytes > limits.maxBytes) budget.problem = overBytes(limits, budget);
    else if (!isWellFormedText(value)) budget.problem = ILL_FORMED;
    return value;
  }
  if (typeof value !== 'object' || value === null) {
    budget.bytes += 8;
    return value;
  }
  if (depth >= limits.maxDepth) {
    budget.problem = { kind: 'limit', keyword: 'maxDepth', message: depthMessage(limits.maxDepth) };
    return value;
  }
  const isArray = Array.isArray(value);
  // Own data properties only: getters and toJSON are never called, functions are not data.
  const keys = isArray ? undefined : Object.keys(value);
  const size = isArray ? (value as unknown[]).length : (keys as string[]).length;
  budget.items += size;
  budget.bytes += 8 + size * 8;
  if (budget.items > limits.maxItems) {
    budget.problem = {
      kind: 'limit',
      keyword: 'maxItems',
      message: `holds more than ${limits.maxItems} items (${budget.together}; limit maxItems)`,
    };
    return value;
  }
  if (budget.bytes > limits.maxBytes) {
    budget.problem = overBytes(limits, budget);
    return value;
  }
  if (isArray) {
    const out = new Array<unknown>(size);
    for (let i = 0; i < size; i++) {
      const d = Object.getOwnPropertyDescriptor(value, i);
      out[i] = d === undefined || !('value' in d) ? null : copyBounded(d.value, depth + 1, limits, budget);
      if (budget.problem !== undefined) {
        budget.path?.push(String(i));
        return value;
      }
    }
    return out;
  }
  // A plain object (ajv's deep equality for enum/const compares constructors); `__proto__` stays an own key.
  const out: Record<string, unknown> = {};
  for (const key of keys as string[]) {
    if (exceedsLimit(key, limits.maxLength)) {
      keyTooLong(limits, budget);
      return value;
    }
    const d = Object.getOwnPropertyDescriptor(value, key);
    if (d === undefined || !('value' in d) || typeof d.value === 'function') continue;
    budget.bytes += key.length;
    if (!isWellFormedText(key)) {
      budget.problem = ILL_FORMED;
      return value;
    }
    setOwn(out, key, copyBounded(d.value, depth + 1, limits, budget));
    if (budget.problem !== undefined) {
      budget.path?.push(key);
      return value;
    }
  }
  return out;
}

/**
 * A copy of `value` (own data properties, plain objects) within `limits`, counted against the request's `budget`, or
 * the problem that stopped it (an over-long key's message starts with the JSON pointer of its object).
 */
export function boundedCopy(
  value: object,
  limits: ValueLimits,
  budget: ValueBudget,
): { value: unknown } | { problem: ValueProblem } {
  budget.problem = undefined;
  budget.path = undefined;
  const copy = copyBounded(value, 0, limits, budget);
  const problem = budget.problem as ValueProblem | undefined;
  if (problem === undefined) return { value: copy };
  const path = budget.path as string[] | undefined;
  if (path === undefined || path.length === 0 || problem.kind !== 'limit') return { problem };
  return { problem: { ...problem, message: longKeyMessage(toJsonPointer(path.reverse()), limits.maxLength) } };
}
