/**
 * How argument values are looked up and turned into text. Values are data: never rendered as templates, never
 * HTML-escaped, only OWN properties are read, and no function in them is ever called (no `toJSON`, no getters).
 *
 * @module
 */
import { PromptError } from '../errors.js';
import { DEFAULT_RENDER_LIMITS, MAX_VALUE_DEPTH, RenderBudget } from './limits.js';

const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;

function isPlainItem(value: unknown): boolean {
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' || t === 'bigint';
}

function tooDeep(): PromptError {
  return new PromptError('LIMIT_EXCEEDED', `An argument value nests deeper than ${MAX_VALUE_DEPTH} levels`, {
    data: { limit: 'valueDepth', max: MAX_VALUE_DEPTH },
  });
}

/** JSON text of a value, written piece by piece against the budget; depth-bounded, so no stack overflow. */
function jsonText(value: unknown, budget: RenderBudget, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case 'string': {
      const text = JSON.stringify(value);
      budget.spend(text);
      return text;
    }
    case 'number':
    case 'boolean':
    case 'bigint': {
      const text = typeof value === 'number' && !Number.isFinite(value) ? 'null' : String(value);
      budget.spend(text);
      return text;
    }
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) {
    budget.spend('null');
    return 'null';
  }
  if (value instanceof Date)
    return jsonText(Number.isNaN(value.getTime()) ? null : value.toISOString(), budget, ancestors);
  if (ancestors.includes(value)) {
    throw new PromptError('PROMPT_RENDER_FAILED', 'An argument value refers to itself and cannot be rendered as JSON');
  }
  if (ancestors.length >= MAX_VALUE_DEPTH) throw tooDeep();
  ancestors.push(value);
  let out: string;
  if (Array.isArray(value)) {
    budget.step(value.length);
    out = '[';
    for (let i = 0; i < value.length; i++) {
      const separator = i === 0 ? '' : ',';
      budget.spend(separator);
      const item = jsonText(value[i], budget, ancestors);
      if (item === undefined) budget.spend('null');
      out += separator + (item ?? 'null');
    }
    out += ']';
  } else {
    out = '{';
    let first = true;
    const keys = Object.keys(value);
    budget.step(keys.length);
    for (const key of keys) {
      const descriptor = getOwnPropertyDescriptor(value, key);
      if (descriptor === undefined || !('value' in descriptor)) continue; // a getter is code: never run
      const head = `${first ? '' : ','}${JSON.stringify(key)}:`;
      budget.spend(head);
      const item = jsonText(descriptor.value, budget, ancestors);
      if (item === undefined) {
        budget.units += head.length;
        continue;
      }
      out += head + item;
      first = false;
    }
    out += '}';
  }
  budget.spend('[]'); // the two brackets
  ancestors.pop();
  return out;
}

/**
 * The text of a non-string value, counted against `budget` as it is written (see {@link formatValue}).
 *
 * @internal
 */
export function valueText(value: unknown, budget: RenderBudget): string {
  switch (typeof value) {
    case 'string':
      budget.spend(value);
      return value;
    case 'number':
    case 'boolean':
    case 'bigint': {
      const text = String(value);
      budget.spend(text);
      return text;
    }
    case 'object': {
      if (value === null) return '';
      if (Array.isArray(value) && value.every(isPlainItem)) {
        budget.step(value.length);
        let out = '';
        for (let i = 0; i < value.length; i++) {
          const item = i === 0 ? String(value[i]) : `, ${String(value[i])}`;
          budget.spend(item);
          out += item;
        }
        return out;
      }
      return jsonText(value, budget, []) ?? '';
    }
    default:
      return '';
  }
}

/**
 * The text a `{{name}}` placeholder renders for a value:
 * - strings as they are; numbers, booleans and bigints via `String()`;
 * - `null`, `undefined`, functions and symbols as nothing (`''`);
 * - an array whose items are all strings, numbers, booleans or bigints: the items joined with `', '`;
 * - any other array or object: compact JSON of its own enumerable data properties (like `JSON.stringify`, but
 *   `toJSON` and getters are never called, bigints are written as numbers, and values nested deeper than 100 levels
 *   are LIMIT_EXCEEDED).
 */
export function formatValue(value: unknown): string {
  return valueText(value, new RenderBudget(DEFAULT_RENDER_LIMITS.maxRenderedBytes));
}

/**
 * Looks a (dotted) name up through the context stack, innermost first, reading own properties only; `.` is the current
 * context.
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
      if (typeof view === 'object' && view !== null && Object.hasOwn(view, key))
        return (view as Record<string, unknown>)[key];
    }
    return undefined;
  }
  outer: for (let i = depth; i >= 0; i--) {
    let value = stack[i];
    if (value === null || value === undefined || !Object.hasOwn(value, key)) continue;
    value = (value as Record<string, unknown>)[key];
    for (let j = 0; j < rest.length; j++) {
      const segment = rest[j] as string;
      if (value === null || value === undefined || !Object.hasOwn(value, segment)) continue outer;
      value = (value as Record<string, unknown>)[segment];
    }
    return value;
  }
  return undefined;
}
