/**
 * One prompt file: read (size-limited), parsed by format, validated, limits checked, asset paths made
 * directory-relative.
 */
import { posix } from 'node:path';
import { parsePromptDefinition } from '../definition/parse.js';
import { isPromptError } from '../errors.js';
import { DEFAULT_RENDER_LIMITS } from '../render/limits.js';
import type { InvalidDefinitionData, PromptDefinition, SystemRolePolicy } from '../definition/types.js';
import { isRecord } from '../json.js';
import type { PromptCaseSuite } from '../cases/types.js';
import { readCases } from './cases.js';
import type { InlineCases } from './cases.js';
import { resolveConfined } from './confine.js';
import type { PromptFileDiagnostic, SourcePosition } from './diagnostics.js';
import { parseJsonSource } from './json-source.js';
import { parseMarkdownSource } from './markdown-source.js';
import { openForReading, readStable } from './open-file.js';
import type { StableRead } from './open-file.js';
import { fingerprint } from './scan.js';
import type { ScannedFile } from './scan.js';
import { DEFAULT_MAX_YAML_NODES, parseYamlSource } from './yaml-source.js';

/** Limits on prompt files; every one is a diagnostic, not a crash. */
export interface PromptFileLimits {
  /** Largest prompt file, in bytes (default 1 MiB). */
  maxFileBytes: number;
  /** Largest single template string, in UTF-8 bytes (default: the rendered-size limit, 1 MiB). */
  maxTemplateBytes: number;
  /** Most `{{resource:...}}` directives in one prompt (default: the resources-per-render limit, 50). */
  maxResourceDirectives: number;
  /** Most prompt files in one directory tree (default 10,000); the rest are left out with a diagnostic. */
  maxFiles: number;
  /**
   * Most nodes (keys, values, entries) in one YAML file or front matter (default 10,000), counted in one linear
   * pass before the YAML parser runs; more is a diagnostic at the place the count is crossed.
   */
  maxYamlNodes: number;
}

/** The default {@link PromptFileLimits}. */
export const DEFAULT_PROMPT_FILE_LIMITS: Readonly<PromptFileLimits> = Object.freeze({
  maxFileBytes: 1_048_576,
  maxTemplateBytes: DEFAULT_RENDER_LIMITS.maxRenderedBytes,
  maxResourceDirectives: DEFAULT_RENDER_LIMITS.maxResources,
  maxFiles: 10_000,
  maxYamlNodes: DEFAULT_MAX_YAML_NODES,
});

/** The formats a prompt file may have, by extension. */
export type PromptFileFormat = 'json' | 'yaml' | 'markdown';

/**
 * The format of a prompt file name: `.json`, `.yaml`/`.yml`, `.md`; undefined for anything else.
 *
 * @example
 * ```ts
 * promptFileFormat('review.yml'); // 'yaml'
 * ```
 */
export function promptFileFormat(name: string): PromptFileFormat | undefined {
  const dot = name.lastIndexOf('.');
  const ext = dot === -1 ? '' : name.slice(dot).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (ext === '.md') return 'markdown';
  return undefined;
}

/** @internal Everything needed to read one file of a prompt directory. */
export interface PromptFileContext {
  /** The directory as given (diagnostics name files under it). */
  dir: string;
  limits: PromptFileLimits;
  systemRole: SystemRolePolicy | undefined;
  /** The cases file names the last scan saw (undefined: look for every possible one beside each prompt file). */
  casesNames?: ReadonlySet<string>;
}

/** @internal One prompt file, read. */
export interface ParsedPromptFile {
  /** POSIX path relative to the directory. */
  rel: string;
  /** The path as diagnostics name it (the directory joined with `rel`). */
  file: string;
  definition?: PromptDefinition;
  /** The `name` field as written, even when the definition is invalid. */
  rawName?: string;
  diagnostics: PromptFileDiagnostic[];
  /** Places definition fields (for errors found later, when the definition is compiled). */
  locate?: (pointer: string) => SourcePosition | undefined;
  /** The version (fingerprint) of the bytes read, when the file was read. */
  version?: string;
  /** The prompt's example cases (its own `cases` and its cases files), when it has any; never part of the definition. */
  cases?: PromptCaseSuite;
  /** The file's own `cases` value as written (kept when the file is rewritten). */
  rawCases?: unknown;
}

type Locate = (pointer: string) => SourcePosition | undefined;

function diagnostic(file: string, message: string, place?: SourcePosition, pointer?: string): PromptFileDiagnostic {
  const d: PromptFileDiagnostic = { file, message, severity: 'error' };
  if (place !== undefined) {
    d.line = place.line;
    d.column = place.column;
  }
  if (pointer !== undefined) d.pointer = pointer;
  return d;
}

/** The place of a pointer, or of its nearest locatable ancestor. */
function locateNearest(locate: Locate | undefined, pointer: string): SourcePosition | undefined {
  if (locate === undefined) return undefined;
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const at = locate(p);
    if (at !== undefined || p === '') return at;
  }
}

/**
 * @internal An error as diagnostics, one per problem; `template` positions are inside a template, so the field is
 * placed.
 */
export function definitionDiagnostics(
  file: string,
  error: unknown,
  locate: Locate | undefined,
  positions: 'file' | 'template' = 'file',
): PromptFileDiagnostic[] {
  if (isPromptError(error) && error.code === 'INVALID_PROMPT_DEFINITION' && isRecord(error.data)) {
    const data = error.data as unknown as InvalidDefinitionData;
    if (Array.isArray(data.problems) && data.problems.length > 0) {
      return data.problems.map((p) => {
        if (positions === 'template') {
          // A compile problem's line/column are inside the template text: the field's place in the file is ours.
          const message = p.message.replace(/\((line \d+, column \d+)\)$/, '(template $1)');
          return diagnostic(file, message, locateNearest(locate, p.path), p.path);
        }
        const place = p.line === undefined ? locateNearest(locate, p.path) : { line: p.line, column: p.column ?? 1 };
        return diagnostic(file, p.message, place, p.path);
      });
    }
  }
  if (error instanceof RangeError) return [diagnostic(file, 'the definition is nested too deeply')];
  const message = error instanceof Error ? error.message : String(error);
  return [diagnostic(file, message.replace(/^.*?: invalid prompt definition\n\s*/, ''))];
}

function parseByFormat(format: PromptFileFormat, text: string, limits: PromptFileLimits) {
  if (format === 'json') return parseJsonSource(text);
  if (format === 'yaml') return parseYamlSource(text, 0, limits.maxYamlNodes);
  return parseMarkdownSource(text, limits.maxYamlNodes);
}

const DIRECTIVE = /\{\{\{?\s*resource:/g;

/** The template strings of a definition's messages, with their pointers. */
function* templates(definition: PromptDefinition): Generator<[string, string]> {
  const messages = definition.messages ?? [];
  for (let i = 0; i < messages.length; i++) {
    const content = messages[i]!.content;
    if (typeof content === 'string') {
      yield [`/messages/${i}/content`, content];
      continue;
    }
    for (const [key, value] of Object.entries(content)) {
      if (typeof value === 'string' && key !== 'type') yield [`/messages/${i}/content/${key}`, value];
    }
  }
}

function checkStaticLimits(
  parsed: ParsedPromptFile,
  definition: PromptDefinition,
  limits: PromptFileLimits,
  locate: Locate,
): void {
  let directives = 0;
  for (const [pointer, text] of templates(definition)) {
    if (text.length > limits.maxTemplateBytes / 3 && Buffer.byteLength(text) > limits.maxTemplateBytes) {
      parsed.diagnostics.push(
        diagnostic(
          parsed.file,
          `template is ${Buffer.byteLength(text)} bytes, over the ${limits.maxTemplateBytes}-byte rendered-size limit`,
          locateNearest(locate, pointer),
          pointer,
        ),
      );
    }
    directives += text.match(DIRECTIVE)?.length ?? 0;
  }
  if (directives > limits.maxResourceDirectives) {
    parsed.diagnostics.push(
      diagnostic(
        parsed.file,
        `prompt has ${directives} resource directives, over the limit of ${limits.maxResourceDirectives}`,
        locateNearest(locate, '/messages'),
        '/messages',
      ),
    );
  }
}

/**
 * Makes image/audio paths relative to the directory; a static one must exist inside it, a templated one is checked on
 * read.
 */
async function resolveAssetPaths(
  parsed: ParsedPromptFile,
  definition: PromptDefinition,
  root: string,
  locate: Locate,
): Promise<PromptDefinition> {
  const messages = definition.messages;
  if (messages === undefined || !messages.some((m) => typeof m.content === 'object' && 'path' in m.content))
    return definition;
  const base = posix.dirname(parsed.rel);
  const rewritten = await Promise.all(
    messages.map(async (message, i) => {
      const content = message.content;
      if (typeof content !== 'object' || !('path' in content) || typeof content.path !== 'string') {
        return message;
      }
      const pointer = `/messages/${i}/content/path`;
      const given = content.path;
      let path: string;
      if (given.includes('{{')) {
        path = base === '.' ? given : `${base}/${given}`;
      } else {
        path = posix.join(base, given);
        const outside = given.startsWith('/') || path === '..' || path.startsWith('../');
        const found = outside ? undefined : await resolveConfined(root, path);
        if (found === undefined || !found.ok) {
          const why =
            found === undefined || found.reason === 'denied'
              ? `${content.type} path '${given}' leads outside the prompt directory${found !== undefined && !found.ok && found.reason === 'denied' ? ` (${found.detail})` : ''}`
              : `${content.type} file not found: '${given}' (relative to this file)`;
          parsed.diagnostics.push(diagnostic(parsed.file, why, locateNearest(locate, pointer), pointer));
        }
      }
      return Object.freeze({ ...message, content: Object.freeze({ ...content, path }) });
    }),
  );
  return Object.freeze({ ...definition, messages: Object.freeze(rewritten) }) as PromptDefinition;
}

/** @internal Reads and checks one file; never throws for its problems (diagnostics; no definition on any error). */
export async function readPromptFile(scanned: ScannedFile, context: PromptFileContext): Promise<ParsedPromptFile> {
  const file = posix.join(context.dir.split('\\').join('/'), scanned.rel);
  const parsed: ParsedPromptFile = { rel: scanned.rel, file, diagnostics: [] };
  const format = promptFileFormat(scanned.rel);
  if (format === undefined) return parsed;
  const { maxFileBytes } = context.limits;
  if (scanned.stats.size > maxFileBytes) {
    parsed.diagnostics.push(
      diagnostic(file, `file is ${scanned.stats.size} bytes, over the ${maxFileBytes}-byte limit for a prompt file`),
    );
    return parsed;
  }
  let read: StableRead;
  try {
    // A symlinked prompt file (a ConfigMap's) is opened through its link: the prompt directory is trusted.
    const handle = await openForReading(scanned.path, true);
    try {
      read = await readStable(handle, maxFileBytes);
    } finally {
      await handle.close().catch(() => undefined);
    }
  } catch (error) {
    parsed.diagnostics.push(
      diagnostic(file, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`),
    );
    return parsed;
  }
  if (!read.ok) {
    const why =
      read.reason === 'too-large'
        ? `file is ${read.size} bytes, over the ${maxFileBytes}-byte limit for a prompt file`
        : 'the file kept changing while it was read (a write in progress): not read this time';
    parsed.diagnostics.push(diagnostic(file, why));
    return parsed;
  }
  parsed.version = fingerprint(read.stats);
  return parseInto(parsed, format, read.bytes.toString('utf8'), context, scanned.path);
}

/**
 * @internal Checks the text of a prompt file that is not read from the directory (a version from git): the same
 * diagnostics as {@link readPromptFile}, named after `rel` under the directory.
 */
export async function parsePromptText(
  rel: string,
  text: string,
  context: PromptFileContext,
): Promise<ParsedPromptFile> {
  const file = posix.join(context.dir.split('\\').join('/'), rel);
  const parsed: ParsedPromptFile = { rel, file, diagnostics: [] };
  const format = promptFileFormat(rel);
  if (format === undefined) return parsed;
  const size = Buffer.byteLength(text, 'utf8');
  if (size > context.limits.maxFileBytes) {
    parsed.diagnostics.push(
      diagnostic(file, `file is ${size} bytes, over the ${context.limits.maxFileBytes}-byte limit for a prompt file`),
    );
    return parsed;
  }
  return parseInto(parsed, format, text, context, undefined);
}

async function parseInto(
  parsed: ParsedPromptFile,
  format: PromptFileFormat,
  given: string,
  context: PromptFileContext,
  /** The file on disk (its cases files lie beside it); undefined for text from elsewhere: no cases are read. */
  path: string | undefined,
): Promise<ParsedPromptFile> {
  const file = parsed.file;
  const text = given.charCodeAt(0) === 0xfeff ? given.slice(1) : given;
  const source = parseByFormat(format, text, context.limits);
  if ('noFrontMatter' in source) {
    parsed.diagnostics.push({
      ...diagnostic(file, 'no YAML front matter (--- at the first line): not a prompt file, skipped'),
      severity: 'warning',
    });
    return parsed;
  }
  if (!('value' in source)) {
    parsed.diagnostics.push(diagnostic(file, source.message, { line: source.line, column: source.column }));
    return parsed;
  }
  parsed.locate = source.locate;
  if (isRecord(source.value) && typeof source.value['name'] === 'string') parsed.rawName = source.value['name'];
  // Example cases are the file's, not the prompt's: taken out before the definition is read, never served.
  let value = source.value;
  let inline: InlineCases | undefined;
  if (isRecord(value) && Object.hasOwn(value, 'cases')) {
    const { cases, ...rest } = value;
    inline = { value: cases, locate: source.locate };
    parsed.rawCases = cases;
    value = rest;
  }
  const withCases = async (definition: PromptDefinition | undefined): Promise<ParsedPromptFile> => {
    if (path === undefined) return parsed;
    const read = await readCases(path, file, inline, definition, context.limits, context.casesNames);
    parsed.diagnostics.push(...read.diagnostics);
    const name = definition?.name ?? parsed.rawName;
    if (read.cases.length > 0 && name !== undefined) parsed.cases = { prompt: name, file, cases: read.cases };
    return parsed;
  };
  let definition: PromptDefinition;
  try {
    const options: { source: string; locate: Locate; systemRole?: SystemRolePolicy } = {
      source: file,
      locate: source.locate,
    };
    if (context.systemRole !== undefined) options.systemRole = context.systemRole;
    definition = parsePromptDefinition(value, options);
  } catch (error) {
    parsed.diagnostics.push(...definitionDiagnostics(file, error, source.locate));
    return withCases(undefined);
  }
  checkStaticLimits(parsed, definition, context.limits, source.locate);
  definition = await resolveAssetPaths(parsed, definition, context.dir, source.locate);
  // Problems with cases come after: they fail `check` and `test`, never what the prompt serves.
  if (!parsed.diagnostics.some((d) => d.severity === 'error')) parsed.definition = definition;
  return withCases(definition);
}
