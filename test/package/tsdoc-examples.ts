/**
 * The `@example` blocks of the TSDoc in src/, as a reader of the API docs sees them, and one TypeScript program that
 * type-checks them all the way a user's file would be checked (strict, noUncheckedIndexedAccess); the examples of the
 * core also run, and the results their comments claim are compared (see {@link RunnableExample}).
 *
 * An example is a module of its own. It imports what it says it imports; every other public name it uses comes from
 * the package entry that exports it (`mcp-prompt-kit`, `mcp-prompt-kit/mcp`, ...: the `paths` of tsconfig.json, so
 * the sources are checked, no build needed), as if the reader had written that import. Besides these, an example
 * may use only the names of PRELUDE_GLOBALS: the objects a method's example is about.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * What an example may use without creating it, and its type: the receivers of the methods documented
 * (`registry.add(...)`). Anything else an example uses it declares itself.
 */
export const PRELUDE_GLOBALS: Readonly<Record<string, string>> = {
  registry: 'PromptRegistry',
  functions: 'FunctionRegistry',
};

const PRELUDE = [
  `import type { ${[...new Set(Object.values(PRELUDE_GLOBALS))].sort().join(', ')} } from 'mcp-prompt-kit';`,
  'declare global {',
  ...Object.entries(PRELUDE_GLOBALS).map(([name, type]) => `  const ${name}: ${type};`),
  '}',
  'export {};',
  '',
].join('\n');

export interface TsdocExample {
  /** Source file, relative to the repository root (`src/registry.ts`). */
  file: string;
  /** 1-based line of the `@example` tag. */
  line: number;
  /** The example's TypeScript, one entry per line. */
  code: string[];
  /** The source line of each entry of `code`. */
  lines: number[];
}

export interface ExampleProblem {
  /** `src/registry.ts:188` (the line of the problem in the source comment). */
  at: string;
  /** The `@example` it belongs to: `src/registry.ts:186`. */
  example: string;
  message: string;
}

/** Every `.ts` file under `dir` (relative to the repository root), sorted. */
export function sourceFiles(dir = 'src'): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f))
    .sort();
}

const TS_FENCE = /^(?:ts|typescript|tsx|mts|)$/;

/**
 * The `@example` blocks of one file's TSDoc comments (a `/**` comment that opens on a line of its own). An example
 * runs from its tag to the next block tag or the end of the comment; its code is the fenced ```ts blocks it holds,
 * or, when it has no fence, its whole text (TSDoc's plain form). Text after the tag on its line is a title.
 */
export function examplesIn(text: string, file: string): TsdocExample[] {
  const out: TsdocExample[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\/\*\*/.test(lines[i]!)) continue;
    const start = i;
    while (i < lines.length && !lines[i]!.includes('*/', i === start ? lines[i]!.indexOf('/**') + 3 : 0)) i++;
    const comment = lines.slice(start, i + 1).map((l, k) => commentLine(l, k === 0, k === i - start));
    for (let k = 0; k < comment.length; k++) {
      if (!/^@example\b/.test(comment[k]!)) continue;
      let end = k + 1;
      while (end < comment.length && !/^@\w/.test(comment[end]!)) end++;
      out.push({ file, line: start + k + 1, ...exampleCode(comment.slice(k + 1, end), start + k + 2) });
      k = end - 1;
    }
  }
  return out;
}

/** A comment line without its `/**`, leading ` * ` or closing `*\/` (indentation after the star is kept). */
function commentLine(line: string, first: boolean, last: boolean): string {
  let l = line;
  if (last) l = l.slice(0, l.lastIndexOf('*/'));
  if (first) l = l.slice(l.indexOf('/**') + 3);
  else l = l.replace(/^\s*\*(?!\/)/, '');
  return l.startsWith(' ') ? l.slice(1) : l.trimStart();
}

function exampleCode(body: string[], firstLine: number): { code: string[]; lines: number[] } {
  const code: string[] = [];
  const lines: number[] = [];
  const fenced = body.some((l) => /^\s*```/.test(l));
  let inFence = false;
  let keep = !fenced;
  body.forEach((l, k) => {
    const fence = /^\s*```\s*(\S*)\s*$/.exec(l);
    if (fenced && fence) {
      inFence = !inFence;
      keep = inFence && TS_FENCE.test(fence[1]!);
      return;
    }
    if (!keep) return;
    code.push(l);
    lines.push(firstLine + k);
  });
  while (code.length > 0 && code.at(-1)!.trim() === '') {
    code.pop();
    lines.pop();
  }
  return { code, lines };
}

/** The examples of every source file under `dir`. */
export function allExamples(dir = 'src'): TsdocExample[] {
  return sourceFiles(dir).flatMap((f) => examplesIn(readFileSync(join(ROOT, f), 'utf8'), f));
}

/** The compiler options of tsconfig.json, as a user's strict project: examples may leave values unused. */
function compilerOptions(): ts.CompilerOptions {
  const path = join(ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(path, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT, undefined, path);
  return {
    ...parsed.options,
    strict: true,
    noUncheckedIndexedAccess: true,
    noUnusedLocals: false,
    noUnusedParameters: false,
    verbatimModuleSyntax: false,
    isolatedModules: false,
    noEmit: true,
  };
}

/** The public entry points: `paths` of tsconfig.json that name the package (`mcp-prompt-kit`, `mcp-prompt-kit/mcp`). */
export function entryPoints(options = compilerOptions()): { specifier: string; file: string }[] {
  const name = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string }).name;
  const base = options.pathsBasePath === undefined ? ROOT : String(options.pathsBasePath);
  return Object.entries(options.paths ?? {})
    .filter(([specifier]) => specifier === name || specifier.startsWith(`${name}/`))
    .map(([specifier, [target]]) => ({ specifier, file: resolve(base, target!) }));
}

export interface EntryProgram {
  program: ts.Program;
  /** Each entry point: its specifier (`mcp-prompt-kit/mcp`) and source file. */
  entries: { specifier: string; file: string }[];
  options: ts.CompilerOptions;
}

/** The program of the entry points alone: their exports, and what they resolve to. */
export function entryProgram(): EntryProgram {
  const options = compilerOptions();
  const entries = entryPoints(options);
  return { program: ts.createProgram({ rootNames: entries.map((e) => e.file), options }), entries, options };
}

const publicNamesOf = new WeakMap<EntryProgram, Map<string, string>>();

/** Each public name and the entry that exports it first (the root entry before the subpaths). */
function publicNames(base: EntryProgram): Map<string, string> {
  const known = publicNamesOf.get(base);
  if (known !== undefined) return known;
  const { program, entries } = base;
  const checker = program.getTypeChecker();
  const names = new Map<string, string>();
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file);
    const symbol = source && checker.getSymbolAtLocation(source);
    if (symbol === undefined) throw new Error(`entry point ${relative(ROOT, entry.file)} not found`);
    for (const exported of checker.getExportsOfModule(symbol)) {
      if (!names.has(exported.name)) names.set(exported.name, entry.specifier);
    }
  }
  publicNamesOf.set(base, names);
  return names;
}

/** Names an example imports or declares at its top level (they are its own, not the package's). */
function ownNames(source: ts.SourceFile): Set<string> {
  const own = new Set<string>();
  const bind = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) own.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) own.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) own.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) own.add(e.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) bind(d.name);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      own.add(statement.name.text);
    }
  }
  return own;
}

function identifiers(node: ts.Node, out: Set<string>): Set<string> {
  if (ts.isIdentifier(node)) out.add(node.text);
  ts.forEachChild(node, (child) => void identifiers(child, out));
  return out;
}

/** The import lines an example gets: each public name it uses and neither imports nor declares, from its entry. */
function implicitImports(code: string, names: Map<string, string>): string[] {
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const own = ownNames(source);
  const bySpecifier = new Map<string, string[]>();
  for (const id of [...identifiers(source, new Set())].sort()) {
    const specifier = names.get(id);
    if (specifier === undefined || own.has(id)) continue;
    bySpecifier.set(specifier, [...(bySpecifier.get(specifier) ?? []), id]);
  }
  return [...bySpecifier].map(([specifier, ids]) => `import { ${ids.join(', ')} } from '${specifier}';`);
}

/**
 * Type-checks examples in one program over the sources. Returns each compiler error at its line in the source
 * comment, with the `@example` it is in; an empty list when every example compiles.
 */
export function checkExamples(examples: readonly TsdocExample[], base: EntryProgram): ExampleProblem[] {
  const names = publicNames(base);
  const dir = join(ROOT, 'test/package/.tsdoc-examples');
  const prelude = join(dir, 'prelude.d.ts');
  const files = new Map<string, { text: string; example?: TsdocExample; header: number }>();
  files.set(prelude, { text: PRELUDE, header: 0 });
  for (const example of examples) {
    const code = example.code.join('\n');
    const header = implicitImports(code, names);
    const name = `${example.file.replace(/[\\/.]/g, '_')}_${example.line}.ts`;
    const text = `${[...header, code].join('\n')}\nexport {};\n`;
    files.set(join(dir, name), { text, example, header: header.length });
  }
  const host = ts.createCompilerHost(base.options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const virtual = files.get(resolve(fileName));
    // The files of the entry program are parsed already: the same options read them the same way.
    if (virtual === undefined) {
      return base.program.getSourceFile(fileName) ?? getSourceFile(fileName, languageVersion, ...rest);
    }
    return ts.createSourceFile(fileName, virtual.text, languageVersion, true, ts.ScriptKind.TS);
  };
  host.fileExists = (fileName) => files.has(resolve(fileName)) || fileExists(fileName);
  host.readFile = (fileName) => files.get(resolve(fileName))?.text ?? readFile(fileName);
  const rootNames = [...files.keys()];
  const program = ts.createProgram({ rootNames, options: base.options, host, oldProgram: base.program });

  const problems: ExampleProblem[] = [];
  for (const d of program.getOptionsDiagnostics()) {
    problems.push({ at: 'tsconfig.json', example: '', message: format(d) });
  }
  for (const [path, virtual] of files) {
    const source = program.getSourceFile(path)!;
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const where = virtual.example === undefined ? 'the prelude' : `${virtual.example.file}:${virtual.example.line}`;
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
      const sourceLine = virtual.example?.lines[line - virtual.header] ?? virtual.example?.line;
      const at = virtual.example === undefined ? where : `${virtual.example.file}:${sourceLine}`;
      problems.push({ at, example: where, message: format(d) });
    }
  }
  return problems;
}

function format(d: ts.Diagnostic): string {
  return `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
}

/** Where a declaration is: `src/registry.ts:114`. */
function location(node: ts.Node): string {
  const source = node.getSourceFile();
  return `${relative(ROOT, source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
}

/** Whether a declaration, or another declaration of the same function (an overload), has an `@example`. */
function hasExample(node: ts.Node): boolean {
  const overloads = ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) ? overloadsOf(node) : [node];
  return overloads.some((n) => ts.getJSDocTags(n).some((tag) => tag.tagName.text === 'example'));
}

function overloadsOf(node: ts.FunctionDeclaration | ts.MethodDeclaration): ts.Node[] {
  const parent = node.parent;
  const siblings: readonly ts.Node[] = ts.isClassLike(parent)
    ? parent.members
    : ts.isSourceFile(parent) || ts.isModuleBlock(parent)
      ? parent.statements
      : [node];
  const name = node.name?.getText();
  const sameName = (s: ts.Node): boolean =>
    (ts.isFunctionDeclaration(s) || ts.isMethodDeclaration(s)) && s.name?.getText() === name;
  return siblings.filter(sameName);
}

/**
 * The public functions without an `@example`: every function, class and constant of function type an entry point
 * exports, and every public method of an exported class (`name` or `Class.method`, with where it is declared).
 */
export function publicFunctionsWithoutExample(base: EntryProgram): string[] {
  const checker = base.program.getTypeChecker();
  const missing = new Set<string>();
  for (const entry of base.entries) {
    const symbol = checker.getSymbolAtLocation(base.program.getSourceFile(entry.file)!)!;
    for (const exported of checker.getExportsOfModule(symbol)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const declaration of target.declarations ?? []) {
        if (ts.isFunctionDeclaration(declaration) && declaration.body !== undefined) {
          if (!hasExample(declaration)) missing.add(`${exported.name} (${location(declaration)})`);
        } else if (ts.isVariableDeclaration(declaration) && isFunctionValued(declaration, checker)) {
          if (!hasExample(declaration)) missing.add(`${exported.name} (${location(declaration)})`);
        } else if (ts.isClassDeclaration(declaration)) {
          if (!hasExample(declaration)) missing.add(`${exported.name} (${location(declaration)})`);
          // Constructors are shown by the class's example.
          for (const member of declaration.members) {
            if (!ts.isMethodDeclaration(member) || member.body === undefined || !isPublicMember(member)) continue;
            if (!hasExample(member)) missing.add(`${exported.name}.${member.name.getText()} (${location(member)})`);
          }
        }
      }
    }
  }
  return [...missing].sort();
}

/** Neither private, protected, `#private` nor marked `@internal`. */
function isPublicMember(member: ts.MethodDeclaration): boolean {
  if (ts.getCombinedModifierFlags(member) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return false;
  if (ts.isPrivateIdentifier(member.name)) return false;
  return !ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal');
}

function isFunctionValued(declaration: ts.VariableDeclaration, checker: ts.TypeChecker): boolean {
  const type = checker.getTypeAtLocation(declaration.name);
  return type.getCallSignatures().length > 0 && type.getProperties().length === 0;
}

/**
 * An example that runs as it is: it imports nothing itself, uses no prelude name, and every public name it uses
 * comes from the root entry (the core: no I/O, no server). Its claims are checked as it runs: a statement whose
 * comment (on its last line, else the comment lines right below it) is a value (`promptNameProblem('x'); //
 * undefined`) must equal it, and one whose comment says `// throws CODE` must throw that.
 */
export interface RunnableExample {
  example: TsdocExample;
  /** The root entry's names it uses, passed in as parameters. */
  names: string[];
  /**
   * JavaScript for an async function body taking `check(actual, expected, line)`, `throws(run, what, line)`,
   * `console` and then `names`.
   */
  body: string;
  /** How many claims it checks. */
  claims: number;
}

/** The runnable form of an example, or undefined when it needs more than the core (see {@link RunnableExample}). */
export function runnableExample(example: TsdocExample, base: EntryProgram): RunnableExample | undefined {
  const rootEntry = base.entries[0]!.specifier;
  const publicNamesUsed = publicNames(base);
  const code = example.code.join('\n');
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  if (source.statements.some(ts.isImportDeclaration)) return undefined;
  const own = ownNames(source);
  const used = [...identifiers(source, new Set())].filter((id) => !own.has(id));
  if (used.some((id) => Object.hasOwn(PRELUDE_GLOBALS, id))) return undefined;
  const names = used.filter((id) => publicNamesUsed.has(id));
  if (names.some((id) => publicNamesUsed.get(id) !== rootEntry)) return undefined;

  let text = code;
  let claims = 0;
  // Replaced from the last statement back, so earlier offsets stay valid.
  for (const statement of [...source.statements].reverse()) {
    if (!ts.isExpressionStatement(statement)) continue;
    const lastLine = source.getLineAndCharacterOfPosition(statement.end).line;
    const rest = code.slice(statement.end, source.getLineEndOfPosition(statement.end));
    const comment = claimOf(example.code, lastLine, rest);
    if (comment === undefined) continue;
    const expression = statement.expression.getText(source);
    const line = example.lines[lastLine] ?? example.line;
    const thrown = /^throws\s+(\w+)/.exec(comment);
    let call: string | undefined;
    if (thrown) call = `await throws(async () => (${expression}), ${JSON.stringify(thrown[1])}, ${line});`;
    else if (isExpression(comment)) call = `check(${expression}, () => (${comment}), ${line});`;
    if (call === undefined) continue;
    text = text.slice(0, statement.getStart(source)) + call + text.slice(statement.end);
    claims++;
  }
  const compilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext };
  const body = ts.transpileModule(text, { compilerOptions });
  return { example, names, body: body.outputText.replace(/^export \{\};\s*$/m, ''), claims };
}

/** The comment after a statement on its last line, else the `//` lines right below it joined. */
function claimOf(lines: readonly string[], lastLine: number, rest: string): string | undefined {
  const sameLine = /^\s*;?\s*\/\/\s*(.+)$/.exec(rest)?.[1];
  if (sameLine !== undefined) return sameLine.trim();
  if (rest.trim() !== '') return undefined;
  const below: string[] = [];
  for (let i = lastLine + 1; i < lines.length; i++) {
    const comment = /^\s*\/\/\s?(.*)$/.exec(lines[i]!);
    if (comment === null) break;
    below.push(comment[1]!.trim());
  }
  return below.length === 0 ? undefined : below.join(' ');
}

/** Whether a comment reads as one JavaScript expression (`undefined`, `{ result: 10 }`), not as prose. */
function isExpression(text: string): boolean {
  const source = ts.createSourceFile('claim.ts', `(${text});`, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const diagnostics = ts.transpileModule(`(${text});`, { reportDiagnostics: true }).diagnostics ?? [];
  const [statement] = source.statements;
  return (
    diagnostics.length === 0 &&
    source.statements.length === 1 &&
    statement !== undefined &&
    ts.isExpressionStatement(statement) &&
    ts.isParenthesizedExpression(statement.expression) &&
    !ts.isCommaListExpression(statement.expression.expression) &&
    !(
      ts.isBinaryExpression(statement.expression.expression) &&
      statement.expression.expression.operatorToken.kind === ts.SyntaxKind.CommaToken
    )
  );
}
