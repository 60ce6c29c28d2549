/**
 * Checks that each top-level property's `default` satisfies that property's own schema. Simple property schemas
 * (type, enum/const of scalars, numeric bounds, string lengths, pattern, annotations) are checked here without ajv;
 * others with a small ajv schema of only the defaulted properties (never the whole arguments schema).
 *
 * @module
 * @internal
 */
import { escapePointerSegment, isRecord } from '../json.js';
import { matchesJsonType } from '../definition/keywords.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { describeAjvError } from './ajv-errors.js';
import { codePointLength } from './length.js';
import type { SchemaProblem } from './schema-walk.js';

function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
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
function simpleCheck(value: unknown, p: Record<string, unknown>): string | undefined {
  for (const k of Object.keys(p)) if (!SIMPLE.has(k)) return undefined;
  const en = p['enum'];
  if (en !== undefined && !(Array.isArray(en) && en.every(isScalar))) return undefined;
  if ('const' in p && !isScalar(p['const'])) return undefined;
  const type = p['type'];
  if (type !== undefined) {
    const types: unknown[] = Array.isArray(type) ? type : [type];
    if (!types.some((t) => matchesJsonType(value, t))) return `must be ${types.map(String).join(',')}`;
  }
  if (Array.isArray(en) && !en.includes(value)) return `must be one of: ${en.map(show).join(', ')}`;
  if ('const' in p && p['const'] !== value) return `must be ${show(p['const'])}`;
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
    if (typeof pattern === 'string' && !new RegExp(pattern, 'u').test(value)) return `must match pattern "${pattern}"`;
  }
  return '';
}

function problem(name: string, rest: string, message: string): SchemaProblem {
  const at = rest === '' ? '' : ` at ${rest}`;
  return { pointer: `/properties/${escapePointerSegment(name)}/default`, message: `default value${at} ${message}` };
}

/** The keywords a small ajv schema keeps from the root so the defaulted properties' `$ref`s still resolve. */
const CONTAINERS = ['$id', '$defs', 'definitions'] as const;

/**
 * Compiles a throwaway schema (ajv's own cache forgets it; the function stays usable); throws when ajv cannot
 * compile it. The schema store counts each call against the ajv instance it recycles.
 */
export type CompileOnce = (schema: Record<string, unknown>) => ValidateFunction;

function viaAjv(
  compileOnce: CompileOnce,
  root: Record<string, unknown>,
  names: readonly string[],
  properties: Record<string, unknown>,
  out: SchemaProblem[],
): void {
  const picked: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  for (const name of names) {
    picked[name] = properties[name];
    data[name] = properties[name] !== undefined ? (properties[name] as Record<string, unknown>)['default'] : undefined;
  }
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
  if (validate(data)) return;
  for (const e of validate.errors ?? []) {
    const path = e.instancePath;
    const slash = path.indexOf('/', 1);
    const name = (slash < 0 ? path.slice(1) : path.slice(1, slash)).replace(/~1/g, '/').replace(/~0/g, '~');
    out.push(problem(name, slash < 0 ? '' : path.slice(slash), describeAjvError(e)));
  }
}

/**
 * Problems of top-level property defaults (`null` and absent defaults are not applied, so not checked) against
 * their own property schemas. `compileOnce` is only called when some property schema is not simple.
 *
 * @example
 * ```ts
 * defaultProblems({ properties: { n: { type: 'integer', default: 'ten' } } }, (s) => ajv.compile(s));
 * // [{ pointer: '/properties/n/default', message: 'default value must be integer' }]
 * ```
 */
export function defaultProblems(schema: Record<string, unknown>, compileOnce: CompileOnce): SchemaProblem[] {
  const properties = schema['properties'];
  if (!isRecord(properties)) return [];
  const out: SchemaProblem[] = [];
  const complex: string[] = [];
  for (const name of Object.keys(properties)) {
    const p = properties[name];
    if (!isRecord(p)) continue;
    const value = p['default'];
    if (value === undefined || value === null) continue;
    const message = simpleCheck(value, p);
    if (message === undefined) complex.push(name);
    else if (message !== '') out.push(problem(name, '', message));
  }
  if (complex.length > 0) viaAjv(compileOnce, schema, complex, properties, out);
  return out;
}
