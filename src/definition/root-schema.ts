/**
 * The root rule of an inputSchema: every argument a client can or must send is declared under the root `properties`
 * (listed in prompts/list, coerced from wire text, usable in templates). Root-level keywords that could declare or
 * require other arguments are definition errors that say why; docs/arguments.md lists them.
 *
 * @module
 * @internal
 */
import { childPointer, isRecord, ownValue } from '../json.js';
import { inputSchemaNameProblems } from './names.js';
import { quote } from './raw-data.js';
import type { DefinitionProblem } from './types.js';

const WHY = 'only arguments declared there are listed in prompts/list, coerced from text and usable in templates';

/** Keywords whose subschemas apply to the arguments object itself, and how a message names them. */
const BRANCH_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const BRANCHES = { not: 'not', if: 'if/then/else', then: 'if/then/else', else: 'if/then/else' } as const;

/** Keywords that would type or declare arguments as a whole instead of one property at a time. */
const WHOLE_OBJECT = ['const', 'enum'] as const;

interface Walk {
  readonly declared: Readonly<Record<string, unknown>>;
  readonly out: DefinitionProblem[];
  readonly seen: Set<object>;
  /** Undeclared names reported already (each once, where first met). */
  readonly reported: Set<string>;
}

/** The parser's deeply frozen inputSchemas it found free of name and root problems: nothing can change that. */
const parsedClean = new WeakSet<object>();

/**
 * Name and root-rule problems of an inputSchema; a `parsed` one found clean is skipped by later calls without `args`.
 */
export function inputSchemaProblems(
  schema: Record<string, unknown>,
  args: readonly unknown[] | undefined,
  parsed = false,
): DefinitionProblem[] {
  if (args === undefined && parsedClean.has(schema)) return [];
  const problems = [...inputSchemaNameProblems(schema, args), ...rootSchemaProblems(schema)];
  if (parsed && problems.length === 0) parsedClean.add(schema);
  return problems;
}

/** Problems of an inputSchema's root under the root rule (docs/arguments.md), pointers under `/inputSchema`. */
export function rootSchemaProblems(schema: Record<string, unknown>): DefinitionProblem[] {
  const properties = ownValue(schema, 'properties');
  const w: Walk = { declared: isRecord(properties) ? properties : {}, out: [], seen: new Set(), reported: new Set() };
  visit(w, schema, '/inputSchema', undefined);
  return w.out;
}

/** Whether `name` is not declared and not reported yet (then it counts as reported). */
function undeclared(w: Walk, name: unknown): name is string {
  if (typeof name !== 'string' || Object.hasOwn(w.declared, name) || w.reported.has(name)) return false;
  w.reported.add(name);
  return true;
}

/** `node` applies to the arguments object: the root (`via` undefined) or a subschema reached through `via`. */
function visit(w: Walk, node: unknown, at: string, via: string | undefined): void {
  if (!isRecord(node) || w.seen.has(node)) return;
  w.seen.add(node);
  const place = via === undefined ? 'root-level' : `root-level ${via}`;
  const problem = (path: string, message: string): void => void w.out.push({ path, message });

  for (const k of ['$ref', '$dynamicRef']) {
    if (ownValue(node, k) !== undefined) {
      problem(
        childPointer(at, k),
        `${place} ${k} cannot declare listed arguments (its target is not read for them): declare them under properties and drop the ${k}`,
      );
    }
  }
  const properties = ownValue(node, 'properties');
  if (via !== undefined && isRecord(properties)) {
    for (const name of Object.keys(properties)) {
      if (undeclared(w, name))
        problem(
          childPointer(childPointer(at, 'properties'), name),
          `${place} cannot declare listed arguments: declare ${quote(name)} under properties (${WHY})`,
        );
    }
  }
  const required = ownValue(node, 'required');
  if (Array.isArray(required)) {
    required.forEach((name: unknown, i) => {
      if (!undeclared(w, name)) return;
      const why =
        via === undefined
          ? `${quote(name)} is required but not declared`
          : `${place} cannot require arguments that are not listed`;
      problem(
        childPointer(childPointer(at, 'required'), i),
        `${why}: declare ${quote(name)} under properties (${WHY})`,
      );
    });
  }
  for (const k of ['dependentRequired', 'dependentSchemas', 'dependencies'] as const) {
    const map = ownValue(node, k);
    if (!isRecord(map)) continue;
    for (const key of Object.keys(map)) {
      const value = map[key];
      const path = childPointer(childPointer(at, k), key);
      if (undeclared(w, key)) problem(path, notDeclared(`${place} ${k}`, key));
      if (Array.isArray(value)) names(w, value, path, `${place} ${k}`);
      else if (k !== 'dependentRequired') visit(w, value, path, via ?? k);
    }
  }
  const patterns = ownValue(node, 'patternProperties');
  if (isRecord(patterns) && Object.keys(patterns).length > 0) {
    problem(
      childPointer(at, 'patternProperties'),
      `${place} patternProperties cannot declare listed arguments: declare each argument under properties (${WHY})`,
    );
  }
  for (const k of WHOLE_OBJECT) {
    if (ownValue(node, k) !== undefined)
      problem(
        childPointer(at, k),
        `${place} ${k} cannot declare listed arguments: give each argument its own ${k} under properties`,
      );
  }
  const min = ownValue(node, 'minProperties');
  const count = Object.keys(w.declared).length;
  if (typeof min === 'number' && min > count) {
    problem(
      childPointer(at, 'minProperties'),
      `${place} minProperties ${min} is more than the ${count} declared arguments: it could only be met with arguments that are not listed`,
    );
  }

  for (const k of BRANCH_LISTS) {
    const list = ownValue(node, k);
    if (Array.isArray(list))
      list.forEach((branch: unknown, i) => {
        visit(w, branch, childPointer(childPointer(at, k), i), via ?? k);
      });
  }
  for (const [k, name] of Object.entries(BRANCHES)) visit(w, ownValue(node, k), childPointer(at, k), via ?? name);
}

function notDeclared(label: string, name: string): string {
  return `${label} names ${quote(name)}, which is not declared: declare it under properties (${WHY})`;
}

/** A list of names (a dependentRequired entry, an array-valued dependencies entry): each must be declared. */
function names(w: Walk, list: readonly unknown[], at: string, label: string): void {
  list.forEach((name: unknown, i) => {
    if (undeclared(w, name)) w.out.push({ path: childPointer(at, i), message: notDeclared(label, name) });
  });
}
