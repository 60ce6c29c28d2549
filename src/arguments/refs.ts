/**
 * Resolution of `$ref` / `$dynamicRef` inside one schema document, the way ajv resolves them without loading
 * anything: a `#/...` JSON pointer, a `#name` `$anchor` (or `$dynamicAnchor`), or a URI naming the document's own
 * `$id` or one of its embedded `$id` resources (with either kind of fragment). Anything else is external.
 *
 * @module
 * @internal
 */

import { isRecord } from '../json.js';
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
 *
 * @example
 * ```ts
 * atPointer({ $defs: { n: { type: 'integer' } } }, '/$defs/n'); // { type: 'integer' }
 * ```
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
 *
 * @example
 * ```ts
 * const refs = new RefIndex({ $defs: { n: { $anchor: 'n', type: 'integer' } } });
 * refs.resolve('#n', refs.rootBase); // { node: { $anchor: 'n', type: 'integer' }, base: 'https://schema.invalid/' }
 * ```
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
