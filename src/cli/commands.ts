/** The `check`, `list`, `render` and `openapi` commands. */
import type { PromptCaseSuite } from '../cases/types.js';
import { isPromptError } from '../errors.js';
import { PromptRegistry } from '../registry/registry.js';
import { formatPromptResult } from '../response.js';
import type { ResourceResolver } from '../resources.js';
import { parseJsonBody } from '../json-body.js';
import { escapeControlCharacters } from '../encoding.js';
import { isRecord } from '../json.js';
import { createFileAssetLoader } from '../fs/assets.js';
import { formatDiagnostic } from '../fs/diagnostics.js';
import type { PromptFileDiagnostic } from '../fs/diagnostics.js';
import { loadPromptDirectoryInto } from '../fs/directory-state.js';
import type { LeftOutFile } from '../fs/directory-state.js';
import { parseJsonSource } from '../fs/json-source.js';
import { createFileResourceResolver } from '../fs/resolver.js';
import type { FileResourceResolver } from '../fs/resolver.js';
import { checkReferences } from './references.js';
import { createOpenApiDocument } from '../http/openapi.js';
import type { OpenApiOptions } from '../http/openapi.js';
import { UsageError, docsRoots, parseCommand, positionals } from './args.js';
import type { OptionToken } from './args.js';
import type { Output } from './output.js';

/** Stands in for documents when none are given: templates still compile; embedding finds nothing. */
const NO_DOCUMENTS: ResourceResolver = { read: () => undefined, list: () => [] };

/** A registry loaded from a directory, with its diagnostics. */
export interface OpenedDirectory {
  registry: PromptRegistry;
  /** The documents of --docs (undefined without --docs). */
  resolver: FileResourceResolver | undefined;
  diagnostics: PromptFileDiagnostic[];
  files: number;
  /** Each served prompt's file. */
  sources: Map<string, string>;
  /** Files with an error that serve no prompt. */
  leftOut: LeftOutFile[];
  /** The example cases of the served prompts, in file order. */
  cases: PromptCaseSuite[];
}

/**
 * Loads `dir` into a fresh registry (assets from the directory, documents from --docs); an unreadable directory is a
 * usage mistake.
 */
export async function openDirectory(
  command: string,
  dir: string,
  docs: Record<string, string> | undefined,
): Promise<OpenedDirectory> {
  const resolver = docs === undefined ? undefined : createFileResourceResolver({ roots: docs });
  const resources = resolver ?? NO_DOCUMENTS;
  const registry = new PromptRegistry({ assets: createFileAssetLoader(dir), resources });
  try {
    const loaded = await loadPromptDirectoryInto(registry, dir);
    return { registry, resolver, ...loaded };
  } catch (error) {
    if (isPromptError(error)) throw new UsageError(`${command}: ${error.message}`);
    throw error;
  }
}

/** Diagnostics of the documents the served prompts embed that nothing under --docs serves. */
export function referenceDiagnostics(opened: OpenedDirectory): Promise<PromptFileDiagnostic[]> {
  const prompts = opened.registry.definitions().map((definition) => ({
    name: definition.name,
    file: opened.sources.get(definition.name) ?? definition.name,
    definition,
  }));
  return checkReferences(prompts, opened.resolver);
}

/** Errors of a directory on stderr (warnings are for `check`). */
export function reportErrors(diagnostics: readonly PromptFileDiagnostic[], out: Output): void {
  for (const d of diagnostics) if (d.severity === 'error') out.stderr(formatDiagnostic(d));
}

const DOCS_OPTION = { docs: { type: 'string', multiple: true } } as const;

/** `check <dir>`: every problem, one line each; exit 1 on any error. */
export async function check(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals: given } = parseCommand('check', args, { json: { type: 'boolean' }, ...DOCS_OPTION });
  const [dir] = positionals('check', given, ['dir']) as [string];
  const opened = await openDirectory('check', dir, docsRoots('check', values['docs'] as string[] | undefined));
  const diagnostics = [...opened.diagnostics, ...(await referenceDiagnostics(opened))];
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  if (values['json'] === true) {
    out.json({ files: opened.files, prompts: opened.registry.size, errors, warnings, diagnostics });
  } else {
    // The report is the command's result: diagnostics and the summary line both go to stdout.
    for (const d of diagnostics) out.stdout(formatDiagnostic(d));
    out.stdout(
      `${opened.files} file(s), ${opened.registry.size} prompt(s): ${errors} error(s), ${warnings} warning(s)`,
    );
  }
  return errors > 0 ? 1 : 0;
}

/** `list <dir>`: name, arguments and description of each prompt. */
export async function list(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals: given } = parseCommand('list', args, { json: { type: 'boolean' }, ...DOCS_OPTION });
  const [dir] = positionals('list', given, ['dir']) as [string];
  const opened = await openDirectory('list', dir, docsRoots('list', values['docs'] as string[] | undefined));
  reportErrors(opened.diagnostics, out);
  const listing = opened.registry.list();
  if (values['json'] === true) {
    out.json(listing);
    return 0;
  }
  const rows = listing.prompts.map((p) =>
    [
      p.name,
      (p.arguments ?? []).map((a) => `${a.name}${a.required === true ? '*' : ''}`).join(', '),
      p.description?.split('\n', 1)[0] ?? '',
    ].map(escapeControlCharacters),
  );
  const widths = [0, 1].map((i) => Math.max(0, ...rows.map((r) => r[i]!.length)));
  for (const [name, args, description] of rows) {
    out.stdout(`${name!.padEnd(widths[0]!)}  ${args!.padEnd(widths[1]!)}  ${description}`.trimEnd());
  }
  return 0;
}

/** `--args-json` text as an object; a syntax error names its line and column. */
function argsJson(json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseJsonBody(json);
  } catch {
    const parsed = parseJsonSource(json);
    const place = 'message' in parsed ? parsed : { line: 1, column: 1, message: 'invalid JSON' };
    throw new UsageError(
      `render: --args-json is not valid JSON: line ${place.line}, column ${place.column}: ${place.message.replace(/^invalid JSON: /, '')}`,
    );
  }
  if (!isRecord(value)) throw new UsageError('render: --args-json must be a JSON object');
  return value;
}

/** The prompt arguments: `--arg` and `--args-json` applied left to right, so a later one overrides the keys it sets. */
function renderArguments(given: readonly OptionToken[]): Record<string, unknown> {
  const args: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const { name, value } of given) {
    if (value === undefined) continue;
    if (name === 'args-json') {
      Object.assign(args, argsJson(value));
    } else if (name === 'arg') {
      const at = value.indexOf('=');
      if (at <= 0) throw new UsageError(`render: --arg expects key=value, got '${value}'`);
      args[value.slice(0, at)] = value.slice(at + 1);
    }
  }
  return args;
}

/** `render <dir> <name>`: the prompt as prompts/get returns it. */
export async function render(args: readonly string[], out: Output): Promise<number> {
  const {
    values,
    positionals: given,
    options,
  } = parseCommand('render', args, {
    arg: { type: 'string', multiple: true },
    'args-json': { type: 'string', multiple: true },
    json: { type: 'boolean' },
    ...DOCS_OPTION,
  });
  const [dir, name] = positionals('render', given, ['dir', 'name']) as [string, string];
  const promptArgs = renderArguments(options);
  const opened = await openDirectory('render', dir, docsRoots('render', values['docs'] as string[] | undefined));
  reportErrors(opened.diagnostics, out);
  try {
    const result = await opened.registry.getPrompt(name, promptArgs);
    if (values['json'] === true) out.json(result);
    else out.stdout(formatPromptResult(result, name));
    return 0;
  } catch (error) {
    if (!isPromptError(error)) throw error;
    const data = isRecord(error.data) ? error.data : {};
    const missing = Array.isArray(data['missing_arguments'])
      ? `: ${(data['missing_arguments'] as string[]).join(', ')}`
      : '';
    const details = Array.isArray(data['details'])
      ? `: ${(data['details'] as { argument: string; message: string }[]).map((d) => `${d.argument} ${d.message}`).join('; ')}`
      : '';
    const reason = error.exposed ? `${error.message}${missing}${details}` : `${error.message.split('\n', 1)[0]}`;
    out.stderr(`mcp-prompt-kit render: ${reason}`);
    return 1;
  }
}

/** `openapi <dir>`: the OpenAPI 3.1 document of the prompts served over HTTP (mcp-prompt-kit/http). */
export async function openapi(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals: given } = parseCommand('openapi', args, {
    title: { type: 'string' },
    version: { type: 'string' },
    'server-url': { type: 'string' },
    'base-path': { type: 'string' },
    ...DOCS_OPTION,
  });
  const [dir] = positionals('openapi', given, ['dir']) as [string];
  const opened = await openDirectory('openapi', dir, docsRoots('openapi', values['docs'] as string[] | undefined));
  reportErrors(opened.diagnostics, out);
  const options: OpenApiOptions = {
    title: (values['title'] as string | undefined) ?? 'Prompts',
    version: (values['version'] as string | undefined) ?? '1.0.0',
  };
  if (values['server-url'] !== undefined) options.serverUrl = values['server-url'] as string;
  if (values['base-path'] !== undefined) options.basePath = values['base-path'] as string;
  out.json(createOpenApiDocument(opened.registry, options));
  return opened.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}
