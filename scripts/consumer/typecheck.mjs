/**
 * Type-checks a consumer project with the TypeScript compiler API, scoped to OUR code: the program is exactly what
 * `tsc -p <tsconfig>` builds (same compiler, same config file, `skipLibCheck: false`), but diagnostics are requested
 * only for the consumer's own files and our package's declarations. Other packages' declarations (the MCP SDK's, zod's,
 * @types/node's, TypeScript's libs) are used for types but not checked themselves: their own problems are not ours to
 * fix (the SDK 1.x d.ts, for example, needs the DOM lib), and checking them would take most of the time.
 *
 * Programs given the same `parsedFiles` cache ({@link createParsedFileCache}) share their parsed and bound files
 * (TypeScript's libs, @types/node, the SDK's declarations): a file is parsed once per text and per compiler settings
 * that shape its syntax tree or its binding, as TypeScript's language service shares them between programs (its
 * document registry).
 */
import { relative, sep } from 'node:path';

/**
 * Whether `fileName` is checked: a file of the consumer project outside node_modules, or a file of `ownPackage`
 * installed in the project's node_modules.
 */
export function isCheckedFile(project, fileName, ownPackage) {
  const rel = relative(project, fileName);
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep) || /^[a-zA-Z]:/.test(rel)) return false;
  const parts = rel.split(/[\\/]/);
  const index = parts.indexOf('node_modules');
  if (index === -1) return true;
  if (parts.lastIndexOf('node_modules') !== index) return false;
  const first = parts[index + 1] ?? '';
  const name = first.startsWith('@') ? `${first}/${parts[index + 2] ?? ''}` : first;
  return name === ownPackage;
}

/** A cache of parsed files that programs of {@link typecheckProject} share: drop it when done. */
export function createParsedFileCache() {
  return new Map();
}

/** The options of `options` that shape a source file's tree or binding (`strict` sets `alwaysStrict`). */
function settingsKey(ts, options) {
  const names = ['strict', ...(ts.sourceFileAffectingCompilerOptions ?? []).map((option) => option.name)];
  // A TypeScript without the list: every option counts, so only programs with identical settings share.
  return JSON.stringify(ts.sourceFileAffectingCompilerOptions === undefined ? options : names.map((n) => options[n]));
}

/** A compiler host for `options` whose source files come from (and go to) `cache`. */
function sharingHost(ts, options, cache) {
  const host = ts.createCompilerHost(options);
  const settings = settingsKey(ts, options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    let text;
    try {
      text = host.readFile(fileName);
    } catch {
      // The host's own reader reports the error (onError), as it would without the cache.
    }
    if (text === undefined) return getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
    const parse =
      typeof languageVersionOrOptions === 'object'
        ? [
            languageVersionOrOptions.languageVersion,
            languageVersionOrOptions.impliedNodeFormat,
            languageVersionOrOptions.jsDocParsingMode,
          ]
        : [languageVersionOrOptions];
    const key = `${fileName}\0${settings}\0${JSON.stringify(parse)}`;
    const cached = cache.get(key);
    if (cached !== undefined && cached.text === text) return cached.file;
    const file = ts.createSourceFile(fileName, text, languageVersionOrOptions);
    cache.set(key, { text, file });
    return file;
  };
  return host;
}

/**
 * Type-checks `project/tsconfig` with `ts` (the `typescript` module). Returns the files whose diagnostics were
 * requested (relative to the project), the diagnostics formatted as `tsc --pretty false` prints them, and the time.
 * With `parsedFiles`, files parsed for earlier programs with the same settings are reused (the program is the same).
 */
export function typecheckProject({ ts, project, tsconfig, ownPackage, parsedFiles }) {
  const started = performance.now();
  const problems = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    `${project}/${tsconfig}`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => problems.push(diagnostic),
    },
  );
  let checked = [];
  if (parsed !== undefined) {
    problems.push(...parsed.errors);
    const program = ts.createProgram({
      rootNames: parsed.fileNames,
      options: parsed.options,
      configFileParsingDiagnostics: parsed.errors,
      host: parsedFiles === undefined ? undefined : sharingHost(ts, parsed.options, parsedFiles),
    });
    problems.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    const files = program.getSourceFiles().filter((file) => isCheckedFile(project, file.fileName, ownPackage));
    for (const file of files) {
      problems.push(...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file));
    }
    checked = files.map((file) => relative(project, file.fileName));
  }
  const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => project, getNewLine: () => '\n' };
  const diagnostics = problems.map((diagnostic) => {
    const text = ts.formatDiagnostic(diagnostic, host).trimEnd();
    if (diagnostic.file === undefined || diagnostic.start === undefined) return { text };
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return { text, file: relative(project, diagnostic.file.fileName), line: line + 1 };
  });
  return { checked, diagnostics, ms: performance.now() - started };
}
