/**
 * Canonical JSON (object keys sorted, arrays in order): the key under which identical schemas share one compiled
 * validator.
 *
 * @module
 * @internal
 */
import { PromptError } from '../errors.js';

function write(value: unknown, out: string[], stack: object[]): void {
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      out.push(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object':
      break;
    default:
      // undefined, functions, symbols, bigints: not JSON.
      out.push('null');
      return;
  }
  if (value === null) {
    out.push('null');
    return;
  }
  if (stack.includes(value)) {
    throw new PromptError('INVALID_PROMPT_DEFINITION', 'Invalid argument schema: it contains a cycle');
  }
  stack.push(value);
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      write(value[i], out, stack);
    }
    out.push(']');
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    out.push('{');
    let first = true;
    for (const key of keys) {
      const v = record[key];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      write(v, out, stack);
    }
    out.push('}');
  }
  stack.pop();
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
  const out: string[] = [];
  write(value, out, []);
  return out.join('');
}
