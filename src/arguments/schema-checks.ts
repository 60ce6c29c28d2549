/**
 * Registration-time checks of an argument schema that the meta-schema cannot make: local reference resolution,
 * patterns (valid, and runnable on the linear-time engine), formats, `__proto__` names, references that are external,
 * dangling or looping, defaults that break their own property schema. Every walk is bounded (nesting depth and size,
 * a step budget, and how far references expand), and so is what ajv compiles on the first request (properties per
 * object, keywords in all, depth with references followed), so a hostile schema is a located definition error, not a
 * stall.
 *
 * @module
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, matchesJsonType } from '../definition/keywords.js';
import { describeType, escapePointerSegment, isRecord, setOwn, unescapePointerSegment } from '../json.js';
import { codePointLength } from './bounds.js';
import { describeAjvError, showValue } from './failures.js';
import { compilePattern, patternProblem } from './regex.js';
import type { PatternBudget } from './regex.js';

/** One problem, located by a JSON pointer into the schema it was found in. */
export interface SchemaProblem {
  readonly pointer: string;
  readonly message: string;
}

// ---------------------------------------------------------------------------------------------- budgets

/** Steps the reference walks over one schema may take (a schema of a few KB takes a few thousand). */
export const MAX_CHECK_STEPS = 1_000_000;

/** Subschemas one value may be checked against, references expanded (ajv checks each one on every request). */
export const MAX_EXPANDED_SUBSCHEMAS = 100_000;

/** Properties one object schema may declare. */
export const MAX_SCHEMA_PROPERTIES = 1_000;

/** Keywords ajv compiles for one schema (a referenced subschema once): bounds the first request's compile. */
export const MAX_COMPILED_KEYWORDS = 2_500;

/** A walk ran out of steps at `pointer` (a JSON pointer into the schema). */
export class SchemaTooComplexError extends Error {
  constructor(readonly pointer: string) {
    super(`more than ${MAX_CHECK_STEPS} steps following its references`);
  }
}

/** Steps taken so far by the walks over one schema. */
export interface StepBudget {
  steps: number;
}

/** Takes `steps` from `budget`; throws {@link SchemaTooComplexError} at `pointer` when none are left. */
export function spend(budget: StepBudget, steps: number, pointer: string): void {
  budget.steps += steps;
  if (budget.steps > MAX_CHECK_STEPS) throw new SchemaTooComplexError(pointer);
}

/** Where `value` nests too deep or holds too many objects and arrays (a pointer under `base`); cycles are skipped. */
export function nestingProblem(value: unknown, base: string): SchemaProblem | undefined {
  const onPath = new Set<object>();
  const stack: { node: unknown; pointer: string; depth: number; leave: boolean }[] = [
    { node: value, pointer: base, depth: 0, leave: false },
  ];
  let containers = 0;
  for (let f = stack.pop(); f !== undefined; f = stack.pop()) {
    const node = f.node;
    if (typeof node !== 'object' || node === null) continue;
    if (f.leave) {
      onPath.delete(node);
      continue;
    }
    if (onPath.has(node)) continue;
    if (f.depth >= MAX_SCHEMA_DEPTH) return { pointer: f.pointer, message: `nests deeper than ${MAX_SCHEMA_DEPTH} levels` };
    if (++containers > MAX_SCHEMA_NODES) {
      return {
        pointer: f.pointer,
        message: `is too large: more than ${MAX_SCHEMA_NODES} objects and arrays (a shared object counts each time it appears)`,
      };
    }
    onPath.add(node);
    stack.push({ node, pointer: f.pointer, depth: f.depth, leave: true });
    const depth = f.depth + 1;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) stack.push({ node: node[i], pointer: `${f.pointer}/${i}`, depth, leave: false });
    } else {
      for (const k of Object.keys(node)) {
        const child = (node as Record<string, unknown>)[k];
        stack.push({ node: child, pointer: `${f.pointer}/${escapePointerSegment(k)}`, depth, leave: false });
      }
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------- references

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
const MAP_SCHEMAS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'] as const;

/** Reference keywords: both resolve like `$ref` when the schema is compiled. */
const REF_KEYWORDS = ['$ref', '$dynamicRef'] as const;

/** Keywords that apply their subschemas to the same value (no data consumed on the way). */
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'] as const;
const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf'] as const;

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
function forEachSubschema(
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
    if (resourceBase === undefined || (uri !== '' && resourceBase === DOCUMENT_BASE && this.rootBase === DOCUMENT_BASE)) return 'external';
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
function refTarget(
  node: Record<string, unknown>,
  k: (typeof REF_KEYWORDS)[number],
  base: string,
  refs: RefIndex,
): [Record<string, unknown>, string] | undefined {
  const ref = node[k];
  if (typeof ref !== 'string') return undefined;
  const target = refs.resolve(ref, base);
  return target !== undefined && target !== 'external' && isRecord(target.node) ? [target.node, target.base] : undefined;
}

/**
 * Why `ref` (in a subschema whose base URI is `base`) is broken: external (we never load remote schemas), pointing
 * nowhere, or a chain of references that leads back to itself (ajv would recurse until the stack overflows).
 */
function refProblem(
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

/** One edge of the graph of subschemas: where it leads, the base URI there, and the data it reads ('' if in place). */
interface Edge {
  readonly node: Record<string, unknown>;
  readonly base: string;
  readonly label: string;
}

/** What a keyword's subschema reads of the value: '' the value itself, else a property or item of it (see `overlaps`). */
function labelOf(keyword: string, key: string, node: Record<string, unknown>): string | undefined {
  switch (keyword) {
    case 'properties':
      return `p:${key}`;
    case 'additionalProperties':
    case 'patternProperties':
    case 'unevaluatedProperties':
      return 'p*';
    case 'propertyNames':
      return 'k';
    case 'prefixItems':
      return `i:${key}`;
    case 'items':
      return Array.isArray(node['items']) ? `i:${key}` : 'i+';
    case 'additionalItems':
      return 'i+';
    case 'contains':
    case 'unevaluatedItems':
      return 'i*';
    case '$defs':
    case 'definitions':
    case 'contentSchema':
      return undefined;
    default:
      return '';
  }
}

/** Whether two data steps can read the same part of a value. */
function overlaps(a: string, b: string): boolean {
  if (a === b) return true;
  if (a[0] !== b[0]) return false;
  return a === 'p*' || b === 'p*' || a === 'i*' || b === 'i*' || (a[0] === 'i' && (a === 'i+' || b === 'i+'));
}

/** The edges out of `node`: its references, and its subschemas (only those applied in place when `inPlace`). */
function edgesOf(node: Record<string, unknown>, base: string, refs: RefIndex, inPlace: boolean): Edge[] {
  const here = node['$id'] !== undefined ? refs.baseOf(node, base) : base;
  const out: Edge[] = [];
  for (const k of REF_KEYWORDS) {
    const target = refTarget(node, k, here, refs);
    if (target !== undefined) out.push({ node: target[0], base: target[1], label: '' });
  }
  if (inPlace) {
    for (const k of IN_PLACE_ONE) {
      const child = node[k];
      if (isRecord(child)) out.push({ node: child, base: here, label: '' });
    }
    for (const k of IN_PLACE_LIST) {
      const list = node[k];
      if (Array.isArray(list)) for (const child of list) if (isRecord(child)) out.push({ node: child, base: here, label: '' });
    }
    return out;
  }
  forEachSubschema(node, (child, keyword, key) => {
    const label = labelOf(keyword, key, node);
    if (isRecord(child) && label !== undefined) out.push({ node: child, base: here, label });
  });
  return out;
}

/** Strongly connected components of the subschema graph (Tarjan's algorithm, iterative), found on demand. */
class Components {
  private readonly order = new Map<object, number>();
  private readonly low = new Map<object, number>();
  private readonly component = new Map<object, number>();
  /** Members by component, for components of more than one node or with an edge to itself. */
  readonly cycles = new Map<number, Record<string, unknown>[]>();
  private next = 0;

  constructor(
    private readonly refs: RefIndex,
    private readonly budget: StepBudget,
    private readonly inPlace: boolean,
  ) {}

  edges(node: Record<string, unknown>, base: string): Edge[] {
    return edgesOf(node, base, this.refs, this.inPlace);
  }

  /** The component of `node` (found from `node` with base URI `base` when not yet known). */
  of(node: Record<string, unknown>, base: string): number | undefined {
    this.visit(node, base);
    return this.component.get(node);
  }

  private visit(start: Record<string, unknown>, startBase: string): void {
    if (this.order.has(start)) return;
    const stack: Record<string, unknown>[] = [];
    const onStack = new Set<object>();
    const frames: { node: Record<string, unknown>; edges: Edge[]; i: number; self: boolean }[] = [];
    const open = (node: Record<string, unknown>, base: string): void => {
      this.order.set(node, this.next);
      this.low.set(node, this.next++);
      stack.push(node);
      onStack.add(node);
      frames.push({ node, edges: this.edges(node, base), i: 0, self: false });
    };
    open(start, startBase);
    for (let f = frames[0]; f !== undefined; f = frames[frames.length - 1]) {
      const edge = f.edges[f.i++];
      if (edge !== undefined) {
        spend(this.budget, 1, this.refs.pointerOf(f.node) ?? '');
        if (edge.node === f.node) f.self = true;
        if (!this.order.has(edge.node)) open(edge.node, edge.base);
        else if (onStack.has(edge.node)) this.low.set(f.node, Math.min(this.low.get(f.node)!, this.order.get(edge.node)!));
        continue;
      }
      frames.pop();
      const low = this.low.get(f.node)!;
      const parent = frames[frames.length - 1];
      if (parent !== undefined) this.low.set(parent.node, Math.min(this.low.get(parent.node)!, low));
      if (low !== this.order.get(f.node)) continue;
      const members: Record<string, unknown>[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member);
        this.component.set(member, low);
        members.push(member);
        if (member === f.node) break;
      }
      if (members.length > 1 || f.self) this.cycles.set(low, members);
    }
  }
}

/** Where two ways back into a recursion read the same part of a value (2^depth work per request; see README). */
function recursionProblem(root: Record<string, unknown>, refs: RefIndex, budget: StepBudget): SchemaProblem | undefined {
  const graph = new Components(refs, budget, false);
  graph.of(root, refs.rootBase);
  const bases = new Map<object, string>();
  for (const [id, members] of graph.cycles) {
    const inCycle = new Set<object>(members);
    for (const start of members) {
      // The subschemas reached in place from `start` within the cycle, by how many paths (in-place loops are rejected
      // before this runs), and the data steps they take back into the cycle.
      const paths = new Map<object, number>([[start, 1]]);
      const steps: string[] = [];
      const queue: [Record<string, unknown>, string][] = [[start, bases.get(start) ?? refs.baseOf(start, refs.rootBase)]];
      for (let i = 0, next = queue[0]; next !== undefined; next = queue[++i]) {
        const [node, base] = next;
        for (const edge of graph.edges(node, base)) {
          spend(budget, 1, refs.pointerOf(start) ?? '');
          if (!inCycle.has(edge.node) || graph.of(edge.node, edge.base) !== id) continue;
          bases.set(edge.node, edge.base);
          if (edge.label !== '') {
            if (steps.some((s) => overlaps(s, edge.label))) return ambiguity(refs, start);
            steps.push(edge.label);
            continue;
          }
          const seen = paths.get(edge.node) ?? 0;
          if (seen > 0) return ambiguity(refs, start);
          paths.set(edge.node, 1);
          queue.push([edge.node, edge.base]);
        }
      }
    }
  }
  return undefined;
}

function ambiguity(refs: RefIndex, at: Record<string, unknown>): SchemaProblem {
  return {
    pointer: refs.pointerOf(at) ?? '',
    message:
      'its recursive references branch: two ways back into the recursion read the same part of a value, so each ' +
      'level of nesting doubles the work of every request (make the branches read different properties)',
  };
}

/**
 * The first subschema whose references expand past {@link MAX_EXPANDED_SUBSCHEMAS} (recursion counted once), or
 * that nests deeper than {@link MAX_SCHEMA_DEPTH} with references followed (ajv compiles a reference inside the
 * schema that leads to it: the stack would overflow on the first request).
 */
function expansionProblem(root: Record<string, unknown>, refs: RefIndex, budget: StepBudget): SchemaProblem | undefined {
  const sizes = new Map<object, number>();
  const heights = new Map<object, number>();
  const active = new Set<object>();
  const frames: { node: Record<string, unknown>; edges: Edge[]; i: number; total: number; height: number }[] = [];
  const open = (node: Record<string, unknown>, base: string): void => {
    active.add(node);
    frames.push({ node, edges: edgesOf(node, base, refs, false), i: 0, total: 1, height: 0 });
  };
  open(root, refs.rootBase);
  for (let f = frames[0]; f !== undefined; f = frames[frames.length - 1]) {
    const edge = f.edges[f.i++];
    if (edge !== undefined) {
      spend(budget, 1, refs.pointerOf(f.node) ?? '');
      const known = sizes.get(edge.node);
      if (known !== undefined) {
        f.total += known;
        f.height = Math.max(f.height, (heights.get(edge.node) ?? 0) + 1);
      } else if (active.has(edge.node)) {
        f.total += 1;
      } else {
        open(edge.node, edge.base);
      }
      continue;
    }
    frames.pop();
    active.delete(f.node);
    if (f.height > MAX_SCHEMA_DEPTH) {
      return {
        pointer: refs.pointerOf(f.node) ?? '',
        message: `nests deeper than ${MAX_SCHEMA_DEPTH} levels with its references followed (a chain of $refs, each into the next)`,
      };
    }
    if (f.total > MAX_EXPANDED_SUBSCHEMAS) {
      return {
        pointer: refs.pointerOf(f.node) ?? '',
        message:
          `its references expand to more than ${MAX_EXPANDED_SUBSCHEMAS} subschemas checked against one value ` +
          '(a $ref counts each time it is reached, e.g. allOf/anyOf branches that reference the same schema, level ' +
          'after level): every request would take that long',
      };
    }
    sizes.set(f.node, f.total);
    heights.set(f.node, f.height);
    const parent = frames[frames.length - 1];
    if (parent !== undefined) {
      parent.total += f.total;
      parent.height = Math.max(parent.height, f.height + 1);
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------- the schema walk

/** A place where ajv resolves by URI (a reference not starting with `#`, a nested `$id`): only compiling tells. */
export interface ResolvedByUri {
  readonly pointer: string;
  /** The reference there (undefined for an `$id`). */
  readonly ref: string | undefined;
}

/** The state of one walk; the reference index and cycle finder are built on first need (most schemas have no `$ref`). */
interface Walk {
  readonly root: unknown;
  readonly knownFormat: (name: string) => boolean;
  readonly out: SchemaProblem[];
  readonly budget: StepBudget;
  readonly byUri: ResolvedByUri[];
  refs: RefIndex | undefined;
  cycles: Components | undefined;
  /** Keywords ajv compiles for each subschema walked (its own and its subschemas', `$defs` left out). */
  readonly compiled: Map<object, number>;
  /** Subschemas references lead to: ajv compiles each once more, as a function of its own. */
  readonly targets: Set<object>;
}

function targetNode(target: RefTarget | 'external' | undefined): unknown {
  return target === undefined || target === 'external' ? undefined : target.node;
}

function checkRefs(node: Record<string, unknown>, pointer: string, here: string, refs: RefIndex, w: Walk): void {
  if (pointer !== '' && typeof node['$id'] === 'string') w.byUri.push({ pointer: `${pointer}/$id`, ref: undefined });
  for (const k of REF_KEYWORDS) {
    const ref = node[k];
    if (typeof ref !== 'string') continue;
    let problem: string | undefined;
    if (pointer !== '' && typeof node['$id'] === 'string') {
      // ajv resolves a reference next to a nested `$id` against that resource and recurses until the stack overflows.
      problem = `a ${k} next to a nested $id is not supported (move it into an allOf branch)`;
    } else if (ref === '#/') {
      problem = `${k} "#/" is read two ways (JSON Pointer: the property named ""; ajv: the whole schema): write "#" for the whole schema`;
    } else if (ref !== '#' && targetNode(refs.resolve(ref, here)) === w.root) {
      problem = `${k} ${JSON.stringify(ref)} names the whole schema, which ajv resolves only when written "#": write "#"`;
    } else {
      if (!ref.startsWith('#')) w.byUri.push({ pointer: `${pointer}/${k}`, ref });
      problem = refProblem(node, ref, here, refs, w.budget, `${pointer}/${k}`);
      const target = problem === undefined ? refTarget(node, k, here, refs) : undefined;
      if (target !== undefined) w.targets.add(target[0]);
      const cycles = (w.cycles ??= new Components(refs, w.budget, true));
      if (target !== undefined && cycles.of(node, here) === cycles.of(target[0], target[1])) {
        problem = `${k} ${ref} leads back here without reaching any data (infinite recursion)`;
      }
    }
    if (problem !== undefined) w.out.push({ pointer: `${pointer}/${k}`, message: problem });
  }
}

/** Characters of a dependency list counted as one keyword (ajv writes the whole list into the code of each name). */
const LIST_CHARACTERS_PER_KEYWORD = 3_000;

/** Keywords' worth of code for the names `node` requires: one each (a dependency list's text once more per name). */
function listedNames(node: Record<string, unknown>): number {
  const required = node['required'];
  let count = Array.isArray(required) ? required.length : 0;
  for (const k of ['dependentRequired', 'dependencies'] as const) {
    const map = node[k];
    if (!isRecord(map)) continue;
    for (const name of Object.keys(map)) {
      const list = map[name];
      if (!Array.isArray(list)) continue;
      let characters = 0;
      for (const item of list) characters += String(item).length + 2;
      count += list.length * (1 + Math.ceil(characters / LIST_CHARACTERS_PER_KEYWORD));
    }
  }
  return count;
}

/** Walks `node`'s subschemas; returns the keywords ajv compiles for it (see {@link Walk.compiled}). */
function walk(node: Record<string, unknown>, pointer: string, base: string, w: Walk): number {
  const out = w.out;
  let compiled = Math.max(1, Object.keys(node).length) + listedNames(node);
  let properties = 0;
  const pattern = node['pattern'];
  if (typeof pattern === 'string') {
    const bad = patternProblem(pattern);
    if (bad !== undefined) out.push({ pointer: `${pointer}/pattern`, message: bad });
  }
  const format = node['format'];
  if (typeof format === 'string' && !w.knownFormat(format)) {
    out.push({ pointer: `${pointer}/format`, message: `unknown format "${format}"` });
  }
  let here = base;
  if (node['$ref'] !== undefined || node['$dynamicRef'] !== undefined || node['$id'] !== undefined) {
    const refs = (w.refs ??= new RefIndex(w.root));
    here = refs.baseOf(node, base);
    checkRefs(node, pointer, here, refs, w);
  }
  forEachSubschema(node, (child, keyword, key, suffix) => {
    const at = pointer + suffix;
    if (keyword === 'patternProperties') {
      const bad = patternProblem(key);
      if (bad !== undefined) out.push({ pointer: at, message: bad });
    }
    if (keyword === 'properties') {
      if (++properties === MAX_SCHEMA_PROPERTIES + 1) {
        out.push({ pointer: `${pointer}/properties`, message: `declares more than ${MAX_SCHEMA_PROPERTIES} properties` });
      }
      if (key === '__proto__') {
        out.push({ pointer: at, message: "property name '__proto__' is reserved" });
        return;
      }
    }
    if (!isRecord(child)) return;
    const size = walk(child, at, here, w);
    // ajv compiles a $defs entry only where a reference leads to it.
    if (keyword !== '$defs' && keyword !== 'definitions') compiled += size;
  });
  w.compiled.set(node, compiled);
  return compiled;
}

/** Keywords ajv compiles for the whole schema: the root's, and each reference target's once more. */
function compiledKeywords(root: Record<string, unknown>, rootSize: number, w: Walk): number {
  let total = rootSize;
  for (const target of w.targets) {
    if (target !== root) total += w.compiled.get(target) ?? Object.keys(target).length;
  }
  return total;
}

/**
 * Problems of `schema` the meta-schema does not catch (see the module docs); the places ajv resolves by URI are added
 * to `byUri`. Assumes `schema` is acyclic, within the nesting limits and valid against the meta-schema.
 */
export function schemaProblems(
  schema: Record<string, unknown>,
  knownFormat: (name: string) => boolean,
  byUri: ResolvedByUri[] = [],
): SchemaProblem[] {
  const w: Walk = {
    root: schema,
    knownFormat,
    out: [],
    budget: { steps: 0 },
    byUri,
    refs: undefined,
    cycles: undefined,
    compiled: new Map(),
    targets: new Set(),
  };
  try {
    const size = walk(schema, '', '', w);
    if (w.out.length === 0 && compiledKeywords(schema, size, w) > MAX_COMPILED_KEYWORDS) {
      w.out.push({
        pointer: '',
        message: `is too large to compile: more than ${MAX_COMPILED_KEYWORDS} keywords in all (each subschema's, a referenced one counted once)`,
      });
    }
    if (w.out.length === 0 && w.refs !== undefined) {
      const problem = expansionProblem(schema, w.refs, w.budget) ?? recursionProblem(schema, w.refs, w.budget);
      if (problem !== undefined) w.out.push(problem);
    }
  } catch (error) {
    if (!(error instanceof SchemaTooComplexError)) throw error;
    w.out.push({ pointer: error.pointer, message: `is too complex to check (${error.message}): simplify it` });
  }
  return w.out;
}

// ---------------------------------------------------------------------------------------------- defaults

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
    if (typeof pattern === 'string' && !compilePattern(pattern, patterns).test(value)) return `must match pattern "${pattern}"`;
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

/** Top-level property defaults (not `null`) that break their own property schema (ajv only for non-simple ones); the pattern work of each goes to `work`. */
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
