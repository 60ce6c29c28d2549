/** A diagnostic formatted as `tsc --pretty false` prints it, with its file (relative to the project) and 1-based line. */
export interface FormattedDiagnostic {
  text: string;
  file?: string;
  line?: number;
}

/** Whether `fileName` is checked: a consumer file outside node_modules, or a file of `ownPackage` in node_modules. */
export function isCheckedFile(project: string, fileName: string, ownPackage: string): boolean;

/** Parsed source files that several {@link typecheckProject} programs share (by file, settings and text). */
export type ParsedFileCache = Map<string, unknown>;

/** A cache of parsed files for {@link typecheckProject}: drop it when done. */
export function createParsedFileCache(): ParsedFileCache;

/**
 * Type-checks `project/tsconfig`, requesting diagnostics only for the consumer's files and `ownPackage`'s; with
 * `parsedFiles`, reuses the files earlier programs parsed with the same settings.
 */
export function typecheckProject(options: {
  ts: typeof import('typescript');
  project: string;
  tsconfig: string;
  ownPackage: string;
  parsedFiles?: ParsedFileCache;
}): { checked: string[]; diagnostics: FormattedDiagnostic[]; ms: number };
