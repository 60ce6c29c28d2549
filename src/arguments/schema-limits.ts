/**
 * The bounds of the registration-time schema checks: how many steps the walks may take, how far references may
 * expand, how many properties and compiled keywords a schema may hold, and how deep and large it may nest.
 *
 * @module
 */
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from '../definition/keywords.js';
import { escapePointerSegment } from '../json.js';

/** One problem, located by a JSON pointer into the schema it was found in. */
export interface SchemaProblem {
  readonly pointer: string;
  readonly message: string;
}

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
    if (f.depth >= MAX_SCHEMA_DEPTH)
      return { pointer: f.pointer, message: `nests deeper than ${MAX_SCHEMA_DEPTH} levels` };
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
      for (let i = 0; i < node.length; i++)
        stack.push({ node: node[i], pointer: `${f.pointer}/${i}`, depth, leave: false });
    } else {
      for (const k of Object.keys(node)) {
        const child = (node as Record<string, unknown>)[k];
        stack.push({ node: child, pointer: `${f.pointer}/${escapePointerSegment(k)}`, depth, leave: false });
      }
    }
  }
  return undefined;
}
