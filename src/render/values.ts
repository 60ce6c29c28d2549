/**
 * How argument values are looked up and turned into text. Values are data: they are never rendered as templates,
 * never HTML-escaped, and only OWN properties are ever read (no prototype members such as `constructor`).
 *
 * @module
 */
import { PromptError } from '../errors.js';

const hasOwn = Object.hasOwn;

function isPlainItem(value: unknown): boolean {
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' || t === 'bigint';
}

/**
 * The text a `{{name}}` placeholder renders for a value:
 * - strings as they are; numbers, booleans and bigints via `String()`;
 * - `null`, `undefined`, functions and symbols as nothing (`''`);
 * - an array whose items are all strings, numbers, booleans or bigints: the items joined with `', '`;
 * - any other array or object: compact JSON (`JSON.stringify`).
 *
 * @example
 * ```ts
 * formatValue(['ts', 'go']); // 'ts, go'
 * formatValue({ a: 1 }); // '{"a":1}'
 * ```
 */
export function formatValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object': {
      if (value === null) return '';
      if (Array.isArray(value) && value.every(isPlainItem)) return value.join(', ');
      let json: string | undefined;
      try {
        json = JSON.stringify(value);
      } catch (cause) {
        throw new PromptError('PROMPT_RENDER_FAILED', 'An argument value cannot be rendered as JSON', { cause });
      }
      return json ?? '';
    }
    default:
      return '';
  }
}

/**
 * Looks `key` (and then the `rest` of a dotted name) up through the context stack, innermost first, mustache-style:
 * a plain name is only found on object contexts; a dotted path is walked from each context until one resolves it
 * completely. Every step reads own properties only. `key === '.'` is the current context.
 *
 * @example
 * ```ts
 * lookupName([{ a: { b: 1 } }], 0, 'a', ['b']); // 1
 * lookupName([Object.create(null)], 0, 'constructor', null); // undefined
 * ```
 */
export function lookupName(
  stack: readonly unknown[],
  depth: number,
  key: string,
  rest: readonly string[] | null,
): unknown {
  if (rest === null) {
    if (key === '.') return stack[depth];
    for (let i = depth; i >= 0; i--) {
      const view = stack[i];
      if (typeof view === 'object' && view !== null && hasOwn(view, key)) return (view as Record<string, unknown>)[key];
    }
    return undefined;
  }
  outer: for (let i = depth; i >= 0; i--) {
    let value = stack[i];
    if (value === null || value === undefined || !hasOwn(value, key)) continue;
    value = (value as Record<string, unknown>)[key];
    for (let j = 0; j < rest.length; j++) {
      const segment = rest[j] as string;
      if (value === null || value === undefined || !hasOwn(value, segment)) continue outer;
      value = (value as Record<string, unknown>)[segment];
    }
    return value;
  }
  return undefined;
}
