/**
 * The graph of subschemas with references followed: cycles (Tarjan's strongly connected components), recursion that
 * doubles its work at each level of nesting, and references that expand past what one request may check.
 *
 * @module
 */
import { MAX_SCHEMA_DEPTH } from '../definition/keywords.js';
import { isRecord } from '../json.js';
import { MAX_EXPANDED_SUBSCHEMAS, spend } from './schema-limits.js';
import type { SchemaProblem, StepBudget } from './schema-limits.js';
import { REF_KEYWORDS, forEachSubschema, refTarget } from './schema-refs.js';
import type { RefIndex } from './schema-refs.js';

/** Keywords that apply their subschemas to the same value (no data consumed on the way). */
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'] as const;
const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf'] as const;

/** One edge of the graph of subschemas: where it leads, the base URI there, and the data it reads ('' if in place). */
interface Edge {
  readonly node: Record<string, unknown>;
  readonly base: string;
  readonly label: string;
}

/**
 * What a keyword's subschema reads of the value: '' the value itself, else a property or item of it (see `overlaps`).
 */
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
      if (Array.isArray(list))
        for (const child of list) if (isRecord(child)) out.push({ node: child, base: here, label: '' });
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
export class Components {
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
        else if (onStack.has(edge.node))
          this.low.set(f.node, Math.min(this.low.get(f.node)!, this.order.get(edge.node)!));
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

/**
 * Where two ways back into a recursion read the same part of a value (2^depth work per request; see docs/arguments.md).
 */
export function recursionProblem(
  root: Record<string, unknown>,
  refs: RefIndex,
  budget: StepBudget,
): SchemaProblem | undefined {
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
      const queue: [Record<string, unknown>, string][] = [
        [start, bases.get(start) ?? refs.baseOf(start, refs.rootBase)],
      ];
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
export function expansionProblem(
  root: Record<string, unknown>,
  refs: RefIndex,
  budget: StepBudget,
): SchemaProblem | undefined {
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
