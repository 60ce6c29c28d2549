/**
 * The import graph of src/, read with the TypeScript compiler's parser: every module specifier of every file
 * (imports and re-exports, type-only ones included, dynamic `import()` and `import('…')` types), with relative ones
 * resolved to the src file they name.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SRC = join(ROOT, 'src');

/** One import of a source file. */
export interface SourceImport {
  /** The specifier as written. */
  readonly specifier: string;
  /** The src file it names, relative to the repository (`src/json.ts`), for a relative specifier. */
  readonly target: string | undefined;
  /**
   * Whether only types come through it (`import type`, `export type`, every name marked `type`, `import('…')` types).
   */
  readonly typeOnly: boolean;
}

/** Every .ts file under src/, relative to the repository (`src/registry/registry.ts`), sorted. */
export function sourceFiles(dir = SRC): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(relative(ROOT, path));
  }
  return out.sort();
}

function isTypeOnlyClause(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (clause === undefined) return false; // a side-effect import runs the module
    if (clause.isTypeOnly) return true;
    const bindings = clause.namedBindings;
    return (
      clause.name === undefined &&
      bindings !== undefined &&
      ts.isNamedImports(bindings) &&
      bindings.elements.length > 0 &&
      bindings.elements.every((e) => e.isTypeOnly)
    );
  }
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((e) => e.isTypeOnly)
  );
}

/** The src file a relative specifier names (`./x.js` is `./x.ts`), relative to the repository. */
function resolveTarget(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const absolute = resolve(ROOT, dirname(from), specifier);
  for (const candidate of [absolute.replace(/\.js$/, '.ts'), absolute, `${absolute}.ts`, join(absolute, 'index.ts')]) {
    if (existsSync(candidate) && candidate.endsWith('.ts')) return relative(ROOT, candidate);
  }
  return relative(ROOT, absolute);
}

/** The imports of `code` (a TypeScript module at `file`, relative to the repository). */
export function importsOf(file: string, code: string): SourceImport[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: SourceImport[] = [];
  const add = (specifier: string, typeOnly: boolean): void => {
    found.push({ specifier, target: resolveTarget(file, specifier), typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, isTypeOnlyClause(node));
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      add(node.moduleReference.expression.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined && ts.isStringLiteralLike(argument)) add(argument.text, false);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The import graph of src/: each file with its imports. */
export function sourceGraph(): Map<string, SourceImport[]> {
  const graph = new Map<string, SourceImport[]>();
  for (const file of sourceFiles()) graph.set(file, importsOf(file, readFileSync(join(ROOT, file), 'utf8')));
  return graph;
}

/**
 * The import cycles of a graph (its strongly connected components of more than one file, or a file importing itself).
 */
export function importCycles(graph: ReadonlyMap<string, readonly SourceImport[]>): string[][] {
  const edges = new Map<string, string[]>();
  for (const [file, imports] of graph) {
    edges.set(file, [
      ...new Set(imports.map((i) => i.target).filter((t): t is string => t !== undefined && graph.has(t))),
    ]);
  }
  // Tarjan's algorithm, iterative (no recursion depth to worry about).
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = edges.get(frame.node)!;
      if (frame.next < targets.length) {
        const to = targets[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || targets.includes(frame.node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

/**
 * The adapter folders: code that needs a Node built-in, the MCP SDK or a driver the caller brings. Each is its own
 * package entry (its index.ts), the CLI excepted (it is the `mcp-prompt-kit` command). Everything else in src/ is the
 * core, served by the root entry (docs/architecture.md).
 */
export const ADAPTER_FOLDERS = [
  'src/agent/',
  'src/cli/',
  'src/fs/',
  'src/http/',
  'src/mcp/',
  'src/stores/postgres/',
] as const;

/** The adapter folder holding `file`, or undefined for a core file. */
export function adapterOf(file: string): string | undefined {
  return ADAPTER_FOLDERS.find((folder) => file.startsWith(folder));
}
