/**
 * A walk over a JSON Schema's subschemas that finds what the meta-schema cannot: regular expressions that do not
 * compile, formats ajv does not know, `__proto__` property names (ajv silently drops them) and local `$ref`s that
 * point nowhere or only to themselves. Pointers are into the walked schema.
 *
 * @module
 * @internal
 */
import { resolveLocalRef } from './infer.js';

/** One problem, located by a JSON pointer into the schema it was found in. */
export interface SchemaProblem {
  readonly pointer: string;
  readonly message: string;
}

/** Keywords whose value is one subschema. */
const ONE = [
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
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Escapes one JSON-pointer segment.
 *
 * @example
 * ```ts
 * pointerSegment('a/b~c'); // 'a~1b~0c'
 * ```
 */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function compiles(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Why the local `$ref` chain starting at `node` is broken: a reference that resolves to nothing, or a chain of
 * references that leads back to itself (ajv would recurse until the stack overflows).
 */
function refProblem(node: Record<string, unknown>, base: unknown): string | undefined {
  const seen = new Set<unknown>([node]);
  let current: unknown = node;
  while (isRecord(current)) {
    const ref = current['$ref'];
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
    const target = resolveLocalRef(base, ref);
    if (target === undefined) return `can't resolve reference ${ref}`;
    if (seen.has(target)) return `reference cycle through ${ref}`;
    // Another resource's references resolve against its own root: not followed.
    if (isRecord(target) && typeof target['$id'] === 'string') return undefined;
    seen.add(target);
    current = target;
  }
  return undefined;
}

function walk(
  node: unknown,
  pointer: string,
  resource: unknown,
  knownFormat: (name: string) => boolean,
  out: SchemaProblem[],
): void {
  if (!isRecord(node)) return;
  // A subschema with its own `$id` is the root its local `$ref`s resolve against.
  const base = typeof node['$id'] === 'string' && pointer !== '' ? node : resource;
  const pattern = node['pattern'];
  if (typeof pattern === 'string') {
    const bad = compiles(pattern);
    if (bad !== undefined) out.push({ pointer: `${pointer}/pattern`, message: bad });
  }
  const format = node['format'];
  if (typeof format === 'string' && !knownFormat(format)) {
    out.push({ pointer: `${pointer}/format`, message: `unknown format "${format}"` });
  }
  const ref = node['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    const problem = refProblem(node, base);
    if (problem !== undefined) out.push({ pointer: `${pointer}/$ref`, message: problem });
  }
  for (const k of ONE) {
    const child = node[k];
    if (isRecord(child)) walk(child, `${pointer}/${k}`, base, knownFormat, out);
  }
  for (const k of LIST) {
    const list = node[k];
    if (Array.isArray(list)) list.forEach((child, i) => walk(child, `${pointer}/${k}/${i}`, base, knownFormat, out));
  }
  for (const k of MAP) {
    const map = node[k];
    if (!isRecord(map)) continue;
    for (const name of Object.keys(map)) {
      const here = `${pointer}/${k}/${pointerSegment(name)}`;
      if (k === 'patternProperties') {
        const bad = compiles(name);
        if (bad !== undefined) out.push({ pointer: here, message: bad });
      }
      if (k === 'properties' && name === '__proto__') {
        out.push({ pointer: here, message: "property name '__proto__' is reserved" });
        continue;
      }
      walk(map[name], here, base, knownFormat, out);
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
  const out: SchemaProblem[] = [];
  walk(schema, '', schema, knownFormat, out);
  return out;
}
