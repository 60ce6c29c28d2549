/**
 * Registration-time checks of an argument schema that the meta-schema cannot make: local reference resolution,
 * patterns (valid, and runnable on the linear-time engine), formats, `__proto__` names, references that are external,
 * dangling or looping. Every walk is bounded (nesting depth and size, a step budget, and how far references expand:
 * schema-limits.ts), and so is what ajv compiles on the first request (properties per object, keywords in all, depth
 * with references followed), so a hostile schema is a located definition error, not a stall. Defaults are checked
 * in schema-defaults.ts.
 *
 * @module
 */
import { patternProblem } from './regex.js';
import { Components, expansionProblem, recursionProblem } from './schema-graph.js';
import { MAX_COMPILED_KEYWORDS, MAX_SCHEMA_PROPERTIES, SchemaTooComplexError } from './schema-limits.js';
import type { SchemaProblem, StepBudget } from './schema-limits.js';
import { REF_KEYWORDS, RefIndex, forEachSubschema, refProblem, refTarget } from './schema-refs.js';
import type { RefTarget } from './schema-refs.js';
import { isRecord } from '../json.js';

/** A place where ajv resolves by URI (a reference not starting with `#`, a nested `$id`): only compiling tells. */
export interface ResolvedByUri {
  readonly pointer: string;
  /** The reference there (undefined for an `$id`). */
  readonly ref: string | undefined;
}

/**
 * The state of one walk; the reference index and cycle finder are built on first need (most schemas have no `$ref`).
 */
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
        out.push({
          pointer: `${pointer}/properties`,
          message: `declares more than ${MAX_SCHEMA_PROPERTIES} properties`,
        });
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
