/**
 * Canonical JSON (object keys sorted, arrays in order): the key under which identical schemas share one compiled
 * validator.
 *
 * @module
 * @internal
 */
import { PromptError } from '../errors.js';

/** Keys and strings that need no escaping in JSON (the common case: skips JSON.stringify). */
const PLAIN = /^[\w $#./:@+-]*$/;

function quote(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

function write(value: unknown, stack: object[]): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      // undefined, functions, symbols, bigints: not JSON.
      return 'null';
  }
  if (value === null) return 'null';
  if (stack.includes(value)) {
    throw new PromptError('INVALID_PROMPT_DEFINITION', 'Invalid argument schema: it contains a cycle');
  }
  stack.push(value);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += write(value[i], stack);
    }
    out += ']';
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length > 1) keys.sort();
    out = '{';
    let first = true;
    for (const key of keys) {
      const v = record[key];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      if (!first) out += ',';
      first = false;
      out += `${quote(key)}:${write(v, stack)}`;
    }
    out += '}';
  }
  stack.pop();
  return out;
}

/**
 * Serializes `value` as JSON with object keys sorted at every level (undefined and function members left out, as
 * `JSON.stringify` does). Throws PromptError `INVALID_PROMPT_DEFINITION` on a cycle.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  return write(value, []);
}
