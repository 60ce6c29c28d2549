/**
 * Registration-time check of an argument schema's defaults: a top-level property default that breaks its own
 * property schema is a definition error (simple schemas decided here, the rest by a throwaway ajv compile), and the
 * pattern work each default takes is measured (a request that leaves it out takes it again).
 *
 * @module
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { matchesJsonType } from '../definition/keywords.js';
import { escapePointerSegment, isRecord, setOwn } from '../json.js';
import { codePointLength } from './bounds.js';
import { describeAjvError, showValue } from './failures.js';
import { compilePattern } from './regex.js';
import type { PatternBudget } from './pattern-budget.js';
import type { SchemaProblem } from './schema-limits.js';

function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Keywords {@link simpleCheck} decides (annotations included); any other keyword means "ask ajv". */
const SIMPLE = new Set([
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'default',
  'title',
  'description',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

/** Why `value` fails the simple schema `p` (ajv's wording), `''` when it passes, or undefined: not simple. */
function simpleCheck(value: unknown, p: Record<string, unknown>, patterns: PatternBudget): string | undefined {
  for (const k of Object.keys(p)) if (!SIMPLE.has(k)) return undefined;
  const en = p['enum'];
  if (en !== undefined && !(Array.isArray(en) && en.every(isScalar))) return undefined;
  if ('const' in p && !isScalar(p['const'])) return undefined;
  const type = p['type'];
  if (type !== undefined) {
    const types: unknown[] = Array.isArray(type) ? type : [type];
    if (!types.some((t) => matchesJsonType(value, t))) return `must be ${types.map(String).join(',')}`;
  }
  if (Array.isArray(en) && !en.includes(value)) return `must be one of: ${en.map(showValue).join(', ')}`;
  if ('const' in p && p['const'] !== value) return `must be ${showValue(p['const'])}`;
  if (typeof value === 'number') {
    const { minimum, maximum, exclusiveMinimum: xmin, exclusiveMaximum: xmax } = p;
    if (typeof minimum === 'number' && value < minimum) return `must be >= ${minimum}`;
    if (typeof maximum === 'number' && value > maximum) return `must be <= ${maximum}`;
    if (typeof xmin === 'number' && value <= xmin) return `must be > ${xmin}`;
    if (typeof xmax === 'number' && value >= xmax) return `must be < ${xmax}`;
  }
  if (typeof value === 'string') {
    const { minLength, maxLength, pattern } = p;
    if (typeof minLength === 'number' && codePointLength(value) < minLength) {
      return `must NOT have fewer than ${minLength} characters`;
    }
    if (typeof maxLength === 'number' && codePointLength(value) > maxLength) {
      return `must NOT have more than ${maxLength} characters`;
    }
    if (typeof pattern === 'string' && !compilePattern(pattern, patterns).test(value))
      return `must match pattern "${pattern}"`;
  }
  return '';
}

function defaultPointer(name: string): string {
  return `/properties/${escapePointerSegment(name)}/default`;
}

function problem(name: string, rest: string, message: string): SchemaProblem {
  const at = rest === '' ? '' : ` at ${rest}`;
  return { pointer: defaultPointer(name), message: `default value${at} ${message}` };
}

/** The pattern work checking one default takes (each request that leaves it out takes it again). */
export interface DefaultWork {
  /** JSON pointer of the default in the schema. */
  readonly pointer: string;
  readonly work: number;
}

/** The keywords a small ajv schema keeps from the root so the defaulted properties' `$ref`s still resolve. */
const CONTAINERS = ['$id', '$defs', 'definitions'] as const;

/** Compiles a throwaway schema (ajv's cache forgets it; the function stays usable); throws when ajv cannot. */
export type CompileOnce = (schema: Record<string, unknown>) => ValidateFunction;

function viaAjv(
  compileOnce: CompileOnce,
  root: Record<string, unknown>,
  names: readonly string[],
  properties: Record<string, unknown>,
  patterns: PatternBudget,
  out: SchemaProblem[],
  work: DefaultWork[],
): void {
  const picked: Record<string, unknown> = {};
  for (const name of names) picked[name] = properties[name];
  const small: Record<string, unknown> = {};
  for (const k of CONTAINERS) if (root[k] !== undefined) small[k] = root[k];
  small['properties'] = picked;
  let validate: ValidateFunction;
  try {
    validate = compileOnce(small);
  } catch {
    // A `$ref` into a part of the root the small schema left out (e.g. `#/properties/other`): keep every property
    // (still not the whole schema: no required, combinators or other root keywords).
    try {
      validate = compileOnce({ ...small, properties });
    } catch (error) {
      out.push({ pointer: '', message: error instanceof Error ? error.message : String(error) });
      return;
    }
  }
  // One default at a time, to know what each one's pattern checks take.
  for (const name of names) {
    const data: Record<string, unknown> = {};
    setOwn(data, name, (properties[name] as Record<string, unknown>)['default']);
    const checked = patterns.measure(() => validate(data));
    if (checked.work > 0) work.push({ pointer: defaultPointer(name), work: checked.work });
    if (checked.value) continue;
    for (const e of validate.errors ?? []) {
      const path = e.instancePath;
      const slash = path.indexOf('/', 1);
      out.push(problem(name, slash < 0 ? '' : path.slice(slash), describeAjvError(e)));
    }
  }
}

/**
 * Top-level property defaults (not `null`) that break their own property schema (ajv only for non-simple ones); the
 * pattern work of each goes to `work`.
 */
export function defaultProblems(
  schema: Record<string, unknown>,
  compileOnce: CompileOnce,
  patterns: PatternBudget,
  work: DefaultWork[],
): SchemaProblem[] {
  const properties = schema['properties'];
  if (!isRecord(properties)) return [];
  const out: SchemaProblem[] = [];
  const complex: string[] = [];
  for (const name of Object.keys(properties)) {
    const p = properties[name];
    if (!isRecord(p)) continue;
    const value = p['default'];
    if (value === undefined || value === null) continue;
    const checked = patterns.measure(() => simpleCheck(value, p, patterns));
    if (checked.work > 0) work.push({ pointer: defaultPointer(name), work: checked.work });
    if (checked.value === undefined) complex.push(name);
    else if (checked.value !== '') out.push(problem(name, '', checked.value));
  }
  if (complex.length > 0) viaAjv(compileOnce, schema, complex, properties, patterns, out, work);
  return out;
}
