/**
 * Schema references resolved the way ajv resolves them, within one document: `$id` resources, anchors, JSON pointer
 * fragments; and why a reference is broken (external, dangling, or a chain of `$ref`s back to itself).
 *
 * @module
 */
import { describeType, escapePointerSegment, isRecord, unescapePointerSegment } from '../json.js';
import { spend } from './schema-limits.js';
import type { StepBudget } from './schema-limits.js';

/** The base URI of a document without `$id` (relative `$id`s and refs resolve against it). */
const DOCUMENT_BASE = 'https://schema.invalid/';

/** Keywords whose value is one subschema. */
const ONE_SCHEMA = [
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
const LIST_SCHEMAS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;
/** Keywords whose value maps names to subschemas. */
const MAP_SCHEMAS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
] as const;

/** Reference keywords: both resolve like `$ref` when the schema is compiled. */
export const REF_KEYWORDS = ['$ref', '$dynamicRef'] as const;

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

/**
 * Each direct subschema of `node` with its keyword, property name or index, and the pointer suffix that leads to
 * it (list and map entries whatever their type: booleans are schemas too).
 */
export function forEachSubschema(
  node: Record<string, unknown>,
  visit: (child: unknown, keyword: string, key: string, suffix: string) => void,
): void {
  for (const k of ONE_SCHEMA) {
    const child = node[k];
    if (isRecord(child)) visit(child, k, '', `/${k}`);
  }
  for (const k of LIST_SCHEMAS) {
    const list = node[k];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) visit(list[i], k, String(i), `/${k}/${i}`);
  }
  for (const k of MAP_SCHEMAS) {
    const map = node[k];
    if (!isRecord(map)) continue;
    for (const name of Object.keys(map)) visit(map[name], k, name, `/${k}/${escapePointerSegment(name)}`);
  }
}

/** The value at a JSON pointer fragment (`/a/b`, already without `#`, URI-encoded) in `root`, or undefined. */
function atPointer(root: unknown, fragment: string): unknown {
  if (fragment === '') return root;
  if (!fragment.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of fragment.slice(1).split('/')) {
    let segment: string;
    try {
      segment = unescapePointerSegment(decodeURIComponent(raw));
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) {
      if (!/^(?:0|[1-9]\d*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (isRecord(node) && Object.hasOwn(node, segment)) {
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

/** The resources (`$id`s), anchors and subschema locations of one schema document, indexed once. */
export class RefIndex {
  /** The base URI of the document's root. */
  readonly rootBase: string;
  private readonly resources = new Map<string, Record<string, unknown>>();
  private readonly anchors = new Map<string, Record<string, unknown>>();
  private readonly bases = new Map<unknown, string>();
  private readonly pointers = new Map<unknown, string>();
  private readonly resolved = new Map<string, RefTarget | 'external' | undefined>();

  constructor(root: unknown) {
    const id = isRecord(root) ? root['$id'] : undefined;
    this.rootBase = (typeof id === 'string' ? absolute(id, DOCUMENT_BASE) : undefined) ?? DOCUMENT_BASE;
    if (isRecord(root)) {
      this.resources.set(this.rootBase, root);
      this.index(root, this.rootBase, '');
    }
  }

  private index(node: Record<string, unknown>, parentBase: string, pointer: string): void {
    if (this.bases.has(node)) return;
    let base = parentBase;
    const id = node['$id'];
    if (typeof id === 'string') {
      base = absolute(id, parentBase) ?? parentBase;
      if (!this.resources.has(base)) this.resources.set(base, node);
    }
    this.bases.set(node, base);
    this.pointers.set(node, pointer);
    for (const k of ['$anchor', '$dynamicAnchor'] as const) {
      const name = node[k];
      if (typeof name === 'string' && !this.anchors.has(`${base}#${name}`)) this.anchors.set(`${base}#${name}`, node);
    }
    forEachSubschema(node, (child, _keyword, _key, suffix) => {
      if (isRecord(child)) this.index(child, base, pointer + suffix);
    });
  }

  /** The base URI `node`'s references resolve against (its own `$id`, else its resource's), given its parent's. */
  baseOf(node: unknown, parentBase: string): string {
    return this.bases.get(node) ?? parentBase;
  }

  /** Where `node` is in the document (its first place, for a shared object), or undefined. */
  pointerOf(node: unknown): string | undefined {
    return this.pointers.get(node);
  }

  /**
   * Where `ref` (found in a subschema whose base URI is `base`) leads: a {@link RefTarget}, `'external'` for a URI
   * that names no resource of this document, or undefined when it names one but points nowhere in it.
   */
  resolve(ref: string, base: string): RefTarget | 'external' | undefined {
    const key = `${base}\n${ref}`;
    if (this.resolved.has(key)) return this.resolved.get(key);
    const target = this.lookUp(ref, base);
    this.resolved.set(key, target);
    return target;
  }

  private lookUp(ref: string, base: string): RefTarget | 'external' | undefined {
    const hash = ref.indexOf('#');
    const uri = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? '' : ref.slice(hash + 1);
    const resourceBase = uri === '' ? base : absolute(uri, base);
    if (resourceBase === undefined || (uri !== '' && resourceBase === DOCUMENT_BASE && this.rootBase === DOCUMENT_BASE))
      return 'external';
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

/** Where `node`'s reference keyword `k` leads, when it leads to a subschema of this document. */
export function refTarget(
  node: Record<string, unknown>,
  k: (typeof REF_KEYWORDS)[number],
  base: string,
  refs: RefIndex,
): [Record<string, unknown>, string] | undefined {
  const ref = node[k];
  if (typeof ref !== 'string') return undefined;
  const target = refs.resolve(ref, base);
  return target !== undefined && target !== 'external' && isRecord(target.node)
    ? [target.node, target.base]
    : undefined;
}

/**
 * Why `ref` (in a subschema whose base URI is `base`) is broken: external (we never load remote schemas), pointing
 * nowhere, or a chain of references that leads back to itself (ajv would recurse until the stack overflows).
 */
export function refProblem(
  node: Record<string, unknown>,
  ref: string,
  base: string,
  refs: RefIndex,
  budget: StepBudget,
  pointer: string,
): string | undefined {
  const seen = new Set<unknown>([node]);
  let current = ref;
  let currentBase = base;
  for (;;) {
    spend(budget, 1, pointer);
    const target = refs.resolve(current, currentBase);
    if (target === 'external') {
      return current === ref
        ? `external reference ${ref} is not supported (remote schemas are never loaded; use a local #/... or #anchor reference)`
        : undefined;
    }
    if (target === undefined) return current === ref ? `can't resolve reference ${ref}` : undefined;
    if (seen.has(target.node)) return `reference cycle through ${ref}`;
    seen.add(target.node);
    if (typeof target.node === 'boolean') return undefined;
    if (!isRecord(target.node)) return `reference ${current} leads to ${describeType(target.node)}, not a schema`;
    const next = target.node['$ref'];
    if (typeof next !== 'string') return undefined;
    current = next;
    currentBase = target.base;
  }
}
