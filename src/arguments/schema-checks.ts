/**
 * Registration-time checks of author schemas: `$ref` resolution inside one document, the budgeted walk that finds
 * unsafe patterns, unknown formats and unsupported shapes, and defaults that do not satisfy their own schema.
 *
 * @module
 * @internal
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import safeRegex from 'safe-regex2';
import { matchesJsonType } from '../definition/keywords.js';
import { escapePointerSegment, isRecord } from '../json.js';
import { describeAjvError } from './failures.js';
import { codePointLength } from './length.js';

/** The base URI of a document without `$id` (relative `$id`s and refs resolve against it). */
const DOCUMENT_BASE = 'https://schema.invalid/';

/** Keywords whose value is one subschema. */
export const ONE_SCHEMA = [
  'additionalProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
  'contentSchema',
  'items',
] as const;
/** Keywords whose value is an array of subschemas. */
export const LIST_SCHEMAS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;
/** Keywords whose value maps names to subschemas. */
export const MAP_SCHEMAS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
] as const;

/** `uri` resolved against `base`, without its fragment; undefined when it is not a valid URI reference. */
function absolute(uri: string, base: string): string | undefined {
  try {
    const url = new URL(uri, base);
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/** Each direct subschema of `node`. */
export function forEachSubschema(node: Record<string, unknown>, visit: (child: unknown) => void): void {
  for (const k of ONE_SCHEMA) if (isRecord(node[k])) visit(node[k]);
  for (const k of LIST_SCHEMAS) {
    const list = node[k];
    if (Array.isArray(list)) for (const child of list) visit(child);
  }
  for (const k of MAP_SCHEMAS) {
    const map = node[k];
    if (isRecord(map)) for (const name of Object.keys(map)) visit(map[name]);
  }
}

/**
 * The value at a JSON pointer fragment (`/a/b`, already without `#`) in `root`, or undefined.
 */
export function atPointer(root: unknown, fragment: string): unknown {
  if (fragment === '') return root;
  if (!fragment.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of fragment.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) {
      if (!/^(?:0|[1-9]\d*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (isRecord(node) && Object.prototype.hasOwnProperty.call(node, segment)) {
      node = node[segment];
    } else {
      return undefined;
    }
  }
  return node;
}

/** Where a reference leads: the subschema, and the base URI its own references resolve against. */
export interface RefTarget {
  readonly node: unknown;
  readonly base: string;
}

/**
 * The resources (`$id`s) and anchors of one schema document, indexed once.
 */
export class RefIndex {
  /** The base URI of the document's root. */
  readonly rootBase: string;
  private readonly resources = new Map<string, Record<string, unknown>>();
  private readonly anchors = new Map<string, Record<string, unknown>>();
  private readonly bases = new Map<unknown, string>();

  constructor(root: unknown) {
    const id = isRecord(root) ? root['$id'] : undefined;
    this.rootBase = (typeof id === 'string' ? absolute(id, DOCUMENT_BASE) : undefined) ?? DOCUMENT_BASE;
    if (isRecord(root)) {
      this.resources.set(this.rootBase, root);
      this.index(root, this.rootBase, new Set());
    }
  }

  private index(node: Record<string, unknown>, parentBase: string, seen: Set<unknown>): void {
    if (seen.has(node)) return;
    seen.add(node);
    let base = parentBase;
    const id = node['$id'];
    if (typeof id === 'string') {
      base = absolute(id, parentBase) ?? parentBase;
      if (!this.resources.has(base)) this.resources.set(base, node);
    }
    this.bases.set(node, base);
    for (const k of ['$anchor', '$dynamicAnchor'] as const) {
      const name = node[k];
      if (typeof name === 'string' && !this.anchors.has(`${base}#${name}`)) this.anchors.set(`${base}#${name}`, node);
    }
    forEachSubschema(node, (child) => {
      if (isRecord(child)) this.index(child, base, seen);
    });
  }

  /** The base URI `node`'s references resolve against (its own `$id`, else its resource's), given its parent's. */
  baseOf(node: unknown, parentBase: string): string {
    return this.bases.get(node) ?? parentBase;
  }

  /**
   * Where `ref` (found in a subschema whose base URI is `base`) leads: a {@link RefTarget}, `'external'` for a URI
   * that names no resource of this document, or undefined when it names one but points nowhere in it.
   */
  resolve(ref: string, base: string): RefTarget | 'external' | undefined {
    const hash = ref.indexOf('#');
    const uri = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? '' : ref.slice(hash + 1);
    const resourceBase = uri === '' ? base : absolute(uri, base);
    if (resourceBase === undefined) return 'external';
    const resource = this.resources.get(resourceBase);
    if (resource === undefined) return 'external';
    if (fragment === '' || fragment.startsWith('/')) {
      const node = atPointer(resource, fragment);
      return node === undefined ? undefined : { node, base: this.baseOf(node, resourceBase) };
    }
    let name: string;
    try {
      name = decodeURIComponent(fragment);
    } catch {
      return undefined;
    }
    const node = this.anchors.get(`${resourceBase}#${name}`);
    return node === undefined ? undefined : { node, base: this.baseOf(node, resourceBase) };
  }
}

/** One problem, located by a JSON pointer into the schema it was found in. */
export interface SchemaProblem {
  readonly pointer: string;
  readonly message: string;
}

/** Why `pattern` cannot be used: it does not compile, or it can backtrack catastrophically (nested quantifiers). */
function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return safeRegex(pattern)
    ? undefined
    : `pattern ${JSON.stringify(pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern)} can take exponential time (nested or overlapping quantifiers); rewrite it without a repeated group of repeats`;
}

/** Reference keywords: both resolve like `$ref` when the schema is compiled. */
const REF_KEYWORDS = ['$ref', '$dynamicRef'] as const;

/** The lazily built reference index of the walked document (most schemas have no reference at all). */
interface Walk {
  readonly root: unknown;
  readonly knownFormat: (name: string) => boolean;
  readonly out: SchemaProblem[];
  refs: RefIndex | undefined;
}

/**
 * Why `ref` (in a subschema whose base URI is `base`) is broken: external (we never load remote schemas), pointing
 * nowhere, or a chain of references that leads back to itself (ajv would recurse until the stack overflows).
 */
function refProblem(node: Record<string, unknown>, ref: string, base: string, refs: RefIndex): string | undefined {
  const seen = new Set<unknown>([node]);
  let current = ref;
  let currentBase = base;
  for (;;) {
    const target = refs.resolve(current, currentBase);
    if (target === 'external') {
      return current === ref
        ? `external reference ${ref} is not supported (remote schemas are never loaded; use a local #/... or #anchor reference)`
        : undefined;
    }
    if (target === undefined) return current === ref ? `can't resolve reference ${ref}` : undefined;
    if (seen.has(target.node)) return `reference cycle through ${ref}`;
    seen.add(target.node);
    if (!isRecord(target.node)) return undefined;
    const next = target.node['$ref'];
    if (typeof next !== 'string') return undefined;
    current = next;
    currentBase = target.base;
  }
}

/** Keywords that apply their subschemas to the same value (no data consumed on the way). */
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'] as const;
const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf'] as const;

/**
 * Whether `ref` leads back to `node` through keywords that apply to the same value: ajv would then recurse forever on
 * every request (`{allOf: [{$ref: '#/$defs/n'}]}` inside `n`).
 */
function loopsInPlace(node: Record<string, unknown>, ref: string, base: string, refs: RefIndex): boolean {
  const seen = new Set<unknown>();
  const stack: [unknown, string][] = [];
  const push = (r: unknown, b: string): void => {
    if (typeof r !== 'string') return;
    const target = refs.resolve(r, b);
    if (target !== undefined && target !== 'external') stack.push([target.node, target.base]);
  };
  push(ref, base);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [current, currentBase] = next;
    if (current === node) return true;
    if (!isRecord(current) || seen.has(current)) continue;
    seen.add(current);
    const here = current['$id'] !== undefined ? refs.baseOf(current, currentBase) : currentBase;
    push(current['$ref'], here);
    for (const k of IN_PLACE_ONE) if (isRecord(current[k])) stack.push([current[k], here]);
    for (const k of IN_PLACE_LIST) {
      const list = current[k];
      if (Array.isArray(list)) for (const child of list) stack.push([child, here]);
    }
  }
  return false;
}

function walk(node: unknown, pointer: string, base: string, w: Walk): void {
  if (!isRecord(node)) return;
  const out = w.out;
  const knownFormat = w.knownFormat;
  const pattern = node['pattern'];
  if (typeof pattern === 'string') {
    const bad = patternProblem(pattern);
    if (bad !== undefined) out.push({ pointer: `${pointer}/pattern`, message: bad });
  }
  const format = node['format'];
  if (typeof format === 'string' && !knownFormat(format)) {
    out.push({ pointer: `${pointer}/format`, message: `unknown format "${format}"` });
  }
  let here = base;
  if (node['$ref'] !== undefined || node['$dynamicRef'] !== undefined || node['$id'] !== undefined) {
    const refs = (w.refs ??= new RefIndex(w.root));
    here = refs.baseOf(node, base);
    for (const k of REF_KEYWORDS) {
      const ref = node[k];
      if (typeof ref !== 'string') continue;
      // ajv resolves a reference next to a nested `$id` against that resource and recurses until the stack overflows.
      const problem =
        pointer !== '' && typeof node['$id'] === 'string'
          ? `a ${k} next to a nested $id is not supported (move it into an allOf branch)`
          : (refProblem(node, ref, here, refs) ??
            (loopsInPlace(node, ref, here, refs)
              ? `${k} ${ref} leads back here without reaching any data (infinite recursion)`
              : undefined));
      if (problem !== undefined) out.push({ pointer: `${pointer}/${k}`, message: problem });
    }
  }
  for (const k of ONE_SCHEMA) {
    const child = node[k];
    if (isRecord(child)) walk(child, `${pointer}/${k}`, here, w);
  }
  for (const k of LIST_SCHEMAS) {
    const list = node[k];
    if (Array.isArray(list)) list.forEach((child, i) => walk(child, `${pointer}/${k}/${i}`, here, w));
  }
  for (const k of MAP_SCHEMAS) {
    const map = node[k];
    if (!isRecord(map)) continue;
    for (const name of Object.keys(map)) {
      const at = `${pointer}/${k}/${escapePointerSegment(name)}`;
      if (k === 'patternProperties') {
        const bad = patternProblem(name);
        if (bad !== undefined) out.push({ pointer: at, message: bad });
      }
      if (k === 'properties' && name === '__proto__') {
        out.push({ pointer: at, message: "property name '__proto__' is reserved" });
        continue;
      }
      walk(map[name], at, here, w);
    }
  }
}

/**
 * Problems of `schema` the meta-schema does not catch (see the module docs). Assumes `schema` is acyclic and valid
 * against the meta-schema.
 */
export function schemaProblems(schema: unknown, knownFormat: (name: string) => boolean): SchemaProblem[] {
  const w: Walk = { root: schema, knownFormat, out: [], refs: undefined };
  walk(schema, '', '', w);
  return w.out;
}

/** The deepest nesting a declaration may have (ajv and our walks recurse; a deeper one could overflow the stack). */
export const MAX_SCHEMA_DEPTH = 256;

/**
 * Where `value` nests deeper than {@link MAX_SCHEMA_DEPTH} (a pointer under `base`), checked without recursion so a
 * 5,000-deep `{not: {not: …}}` is a located problem instead of a stack overflow.
 */
export function nestingProblem(value: unknown, base: string): SchemaProblem | undefined {
  const stack: [unknown, string, number][] = [[value, base, 0]];
  // Each object once: shared subschemas cost nothing twice, and a cycle is left for the cycle check to report.
  const seen = new Set<object>();
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, pointer, depth] = next;
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (depth >= MAX_SCHEMA_DEPTH) {
      return { pointer, message: `nests deeper than ${MAX_SCHEMA_DEPTH} levels` };
    }
    if (Array.isArray(node)) node.forEach((child, i) => stack.push([child, `${pointer}/${i}`, depth + 1]));
    else for (const k of Object.keys(node)) stack.push([(node as Record<string, unknown>)[k], `${pointer}/${escapePointerSegment(k)}`, depth + 1]);
  }
  return undefined;
}

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
