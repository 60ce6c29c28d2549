/**
 * Type-checks a consumer project with the TypeScript compiler API, scoped to OUR code: the program is exactly what
 * `tsc -p <tsconfig>` builds (same compiler, same config file, `skipLibCheck: false`), but diagnostics are requested
 * only for the consumer's own files and our package's declarations. Other packages' declarations (the MCP SDK's, zod's,
 * @types/node's, TypeScript's libs) are used for types but not checked themselves: their own problems are not ours to
 * fix (the SDK 1.x d.ts, for example, needs the DOM lib), and checking them would take most of the time.
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

/**
 * Type-checks `project/tsconfig` with `ts` (the `typescript` module). Returns the files whose diagnostics were
 * requested (relative to the project), the diagnostics formatted as `tsc --pretty false` prints them, and the time.
 */
export function typecheckProject({ ts, project, tsconfig, ownPackage }) {
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
