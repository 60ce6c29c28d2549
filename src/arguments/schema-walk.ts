/**
 * A walk over a JSON Schema's subschemas that finds what the meta-schema cannot: regular expressions that do not
 * compile, formats ajv does not know, `__proto__` property names (ajv silently drops them), and `$ref`s /
 * `$dynamicRef`s that are external (never loaded), point nowhere or only to themselves, or sit next to a nested `$id`
 * (ajv overflows its stack on those). Pointers are into the walked schema.
 *
 * @module
 * @internal
 */
import { escapePointerSegment, isRecord } from '../json.js';
import safeRegex from 'safe-regex2';
import { LIST_SCHEMAS as LIST, MAP_SCHEMAS as MAP, ONE_SCHEMA as ONE, RefIndex } from './refs.js';

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
  for (const k of ONE) {
    const child = node[k];
    if (isRecord(child)) walk(child, `${pointer}/${k}`, here, w);
  }
  for (const k of LIST) {
    const list = node[k];
    if (Array.isArray(list)) list.forEach((child, i) => walk(child, `${pointer}/${k}/${i}`, here, w));
  }
  for (const k of MAP) {
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
 *
 * @example
 * ```ts
 * schemaProblems({ properties: { a: { pattern: '[' } } }, () => true);
 * // [{ pointer: '/properties/a/pattern', message: 'Invalid regular expression: /[/u: Unterminated character class' }]
 * ```
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
