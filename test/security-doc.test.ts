/**
 * SECURITY.md's limit tables against the code: every default the tables state is the value the code uses, every
 * numeric option of every options type is either in the table or named here as not a limit (a type error otherwise),
 * every fixed bound is the exported constant of the file the table names, and the policy's links hold.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIEVAL_LIMITS } from '../src/agent/tool.js';
import type { PromptRetrievalToolOptions } from '../src/agent/tool.js';
import { MAX_LISTED_ARGUMENTS, MAX_LISTED_PROMPTS, MAX_LIST_PAGES, MAX_PROMPT_NAME } from '../src/agent/listing.js';
import { MAX_DETAILS } from '../src/arguments/failures.js';
import { MAX_ARGUMENTS, MAX_ARGUMENTS_TEXT, MAX_PARAMS_TEXT } from '../src/agent/params.js';
import { DEFAULT_MAX_LENGTH } from '../src/arguments/plan.js';
import { limitsOf } from '../src/arguments/request-limits.js';
import {
  MAX_CHECK_STEPS,
  MAX_COMPILED_KEYWORDS,
  MAX_EXPANDED_SUBSCHEMAS,
  MAX_SCHEMA_PROPERTIES,
} from '../src/arguments/schema-limits.js';
import type { ArgumentValidationOptions } from '../src/arguments/types.js';
import { MAX_BODY_BYTES } from '../src/cli/endpoint.js';
import { MAX_DIFF_WORK } from '../src/cases/diff.js';
import { MAX_STREAMS } from '../src/cli/preview/events.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_SESSIONS } from '../src/cli/serve.js';
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from '../src/definition/keywords.js';
import { MAX_NAME_LENGTH } from '../src/definition/names.js';
import { MAX_CLIENT_TEXT, MAX_ECHOED } from '../src/errors.js';
import { DEFAULT_MAX_ASSET_BYTES } from '../src/fs/assets.js';
import type { FileAssetLoaderOptions } from '../src/fs/assets.js';
import type { DirectoryPromptStoreOptions } from '../src/fs/directory-store.js';
import { DEFAULT_MAX_SNAPSHOT_BYTES } from '../src/fs/snapshot-file.js';
import type { FileSnapshotOptions } from '../src/fs/snapshot-file.js';
import { fileContext } from '../src/fs/load.js';
import type { PromptFileLimits } from '../src/fs/prompt-file.js';
import { DEFAULT_RESOLVER_LIMITS } from '../src/fs/resolver-limits.js';
import type { FileResourceResolverOptions } from '../src/fs/resolver.js';
import type { WatchPromptDirectoryOptions } from '../src/fs/watch.js';
import { MAX_ALIAS_COUNT, MAX_DEPTH } from '../src/fs/yaml-source.js';
import { MAX_FLOW_PLAIN_LINES, MAX_KEY } from '../src/fs/yaml-shape.js';
import { MAX_SUBSET_DEPTH } from '../src/fs/yaml-subset-cursor.js';
import type { FunctionRegistryOptions } from '../src/functions/registry.js';
import { DEFAULT_FUNCTION_TIMEOUT_MS } from '../src/functions/registry.js';
import { DEFAULT_HTTP_LIMITS } from '../src/http/router.js';
import type { HttpHandlerOptions } from '../src/http/router.js';
import { DEFAULT_CALLBACK_TIMEOUT_MS } from '../src/mcp/attach.js';
import type { AttachPromptsOptions } from '../src/mcp/attach.js';
import { MAX_REQUEST_STATE_CHARS, MIN_SECRET_BYTES } from '../src/mcp/request-state.js';
import { MAX_CACHE_TTL_MS } from '../src/mcp/cache-hints.js';
import { MAX_SUBSCRIBED_CHARACTERS, MAX_SUBSCRIPTIONS } from '../src/mcp/resource-subscriptions.js';
import { DEFAULT_RESOURCES_OPTIONS, MAX_URI_LENGTH } from '../src/mcp/resources.js';
import type { AttachResourcesOptions } from '../src/mcp/resources.js';
import {
  MAX_COMPLETION_BYTES,
  MAX_COMPLETION_CONTEXT,
  MAX_COMPLETION_INPUT,
  MAX_COMPLETION_VALUES,
} from '../src/registry/completion.js';
import { DEFAULT_COMPLETION_TIMEOUT_MS, renderLimits } from '../src/registry/options.js';
import type { PromptRegistryOptions } from '../src/registry/options.js';
import { MAX_VALUE_DEPTH } from '../src/render/limits.js';
import { MAX_PARTIAL_DEPTH, MAX_PARTIAL_INCLUSIONS, MAX_SECTION_DEPTH } from '../src/render/parse.js';
import type { RenderLimits } from '../src/render/limits.js';
import { DEFAULT_STORE_TIMING } from '../src/stores/postgres/store-options.js';
import { DEFAULT_READ_TIMEOUT_MS } from '../src/stores/sync.js';
import type { PostgresPromptStoreOptions } from '../src/stores/postgres/store-options.js';
import type { SyncRegistryOptions } from '../src/stores/sync.js';
import { anchors, links, section } from './readme-blocks.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PAGE = 'SECURITY.md';
const TEXT = readFileSync(join(ROOT, PAGE), 'utf8');

/** The options of `T` that take a number. */
type NumericKeys<T> = { [K in keyof T]-?: NonNullable<T[K]> extends number ? K : never }[keyof T];

/** A delay or paging choice rather than a bound on a request's work or memory: not in the limits table. */
const NOT_A_LIMIT = 'not a limit';

/**
 * One entry per numeric option of `T` (a missing or unknown option is a type error): the default the code resolves
 * it to, or {@link NOT_A_LIMIT}.
 */
function options<T>(
  values: Record<NumericKeys<T>, number | typeof NOT_A_LIMIT>,
): Record<string, number | typeof NOT_A_LIMIT> {
  return values;
}

/** Keys `prefix.key` of an object. */
function prefixed<T extends object>(prefix: string, values: T): { [K in keyof T & string as `${string}.${K}`]: T[K] } {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [`${prefix}.${k}`, v])) as never;
}

const resolvedRender = renderLimits(undefined);
const resolvedArguments = limitsOf({});
const resolvedFiles = fileContext('prompts', {}, 'loadPromptDirectory').limits;

/** By the table's "of" column: each option and the default the code uses. */
const SETTABLE: Record<string, Record<string, number | typeof NOT_A_LIMIT>> = {
  PromptRegistry: {
    ...options<PromptRegistryOptions>({
      maxArgumentLength: DEFAULT_MAX_LENGTH,
      completionTimeoutMs: DEFAULT_COMPLETION_TIMEOUT_MS,
      // No default: every prompt in one page unless the caller asks for pages.
      pageSize: NOT_A_LIMIT,
    }),
    ...prefixed('limits', {
      maxResources: resolvedRender.maxResources,
      maxRenderedBytes: resolvedRender.maxRenderedBytes,
      maxRenderSteps: resolvedRender.maxRenderSteps,
      resourceTimeoutMs: resolvedRender.resourceTimeoutMs,
      renderTimeoutMs: resolvedRender.renderTimeoutMs,
    } satisfies Record<keyof RenderLimits, number>),
  },
  validatePromptArguments: options<ArgumentValidationOptions>({
    maxLength: DEFAULT_MAX_LENGTH,
    maxDepth: resolvedArguments.maxDepth,
    maxItems: resolvedArguments.maxItems,
    maxBytes: resolvedArguments.maxBytes,
    maxArguments: resolvedArguments.maxArguments,
    maxPatternWork: resolvedArguments.maxPatternWork,
  }),
  FunctionRegistry: options<FunctionRegistryOptions>({
    maxArgumentLength: DEFAULT_MAX_LENGTH,
    timeoutMs: DEFAULT_FUNCTION_TIMEOUT_MS,
  }),
  attachPrompts: options<AttachPromptsOptions>({
    callbackTimeoutMs: DEFAULT_CALLBACK_TIMEOUT_MS,
    // How long list_changed notifications are gathered before one is sent.
    debounceMs: NOT_A_LIMIT,
  }),
  attachResources: options<AttachResourcesOptions>({
    pageSize: DEFAULT_RESOURCES_OPTIONS.pageSize,
    timeoutMs: DEFAULT_RESOURCES_OPTIONS.timeoutMs,
  }),
  'HTTP handlers, CGI': options<HttpHandlerOptions>({ ...DEFAULT_HTTP_LIMITS }),
  createFileResourceResolver: options<FileResourceResolverOptions>({ ...DEFAULT_RESOLVER_LIMITS }),
  createFileAssetLoader: options<FileAssetLoaderOptions>({ maxBytes: DEFAULT_MAX_ASSET_BYTES }),
  createFileSnapshot: options<FileSnapshotOptions>({ maxBytes: DEFAULT_MAX_SNAPSHOT_BYTES }),
  'prompt files': prefixed('limits', {
    maxFileBytes: resolvedFiles.maxFileBytes,
    maxTemplateBytes: resolvedFiles.maxTemplateBytes,
    maxResourceDirectives: resolvedFiles.maxResourceDirectives,
    maxFiles: resolvedFiles.maxFiles,
    maxYamlNodes: resolvedFiles.maxYamlNodes,
  } satisfies Record<keyof PromptFileLimits, number>),
  // Delays before a reload: how soon a change is served, not a bound on a request.
  watchPromptDirectory: options<WatchPromptDirectoryOptions>({ debounceMs: NOT_A_LIMIT, pollIntervalMs: NOT_A_LIMIT }),
  createDirectoryPromptStore: options<DirectoryPromptStoreOptions>({ debounceMs: NOT_A_LIMIT }),
  syncRegistry: options<SyncRegistryOptions>({
    batchMs: NOT_A_LIMIT,
    snapshotAfterMs: NOT_A_LIMIT,
    snapshotIntervalMs: NOT_A_LIMIT,
    reconcileMs: NOT_A_LIMIT,
    readTimeoutMs: DEFAULT_READ_TIMEOUT_MS,
  }),
  createPromptRetrievalTool: options<PromptRetrievalToolOptions>({ ...DEFAULT_RETRIEVAL_LIMITS }),
  createPostgresPromptStore: {
    ...options<PostgresPromptStoreOptions>({ heartbeatMs: DEFAULT_STORE_TIMING.heartbeatMs }),
    ...prefixed('reconnect', {
      minMs: DEFAULT_STORE_TIMING.reconnectMinMs,
      maxMs: DEFAULT_STORE_TIMING.reconnectMaxMs,
    } satisfies Record<NumericKeys<NonNullable<PostgresPromptStoreOptions['reconnect']>>, number>),
  },
  // The CLI's numeric flags, listed by hand (parseArgs options have no type to read); `--debounce` is a delay and
  // `--http` the port.
  'serve --http': {
    '--max-sessions': DEFAULT_MAX_SESSIONS,
    '--idle-timeout': DEFAULT_IDLE_TIMEOUT_MS,
    '--debounce': NOT_A_LIMIT,
    '--http': NOT_A_LIMIT,
  },
};

/** By the constant's name: its value and the file that exports it. */
const FIXED: Record<string, { value: number; file: string }> = {
  MAX_NAME_LENGTH: { value: MAX_NAME_LENGTH, file: 'src/definition/names.ts' },
  MAX_SCHEMA_DEPTH: { value: MAX_SCHEMA_DEPTH, file: 'src/definition/keywords.ts' },
  MAX_SCHEMA_NODES: { value: MAX_SCHEMA_NODES, file: 'src/definition/keywords.ts' },
  MAX_SCHEMA_PROPERTIES: { value: MAX_SCHEMA_PROPERTIES, file: 'src/arguments/schema-limits.ts' },
  MAX_COMPILED_KEYWORDS: { value: MAX_COMPILED_KEYWORDS, file: 'src/arguments/schema-limits.ts' },
  MAX_EXPANDED_SUBSCHEMAS: { value: MAX_EXPANDED_SUBSCHEMAS, file: 'src/arguments/schema-limits.ts' },
  MAX_CHECK_STEPS: { value: MAX_CHECK_STEPS, file: 'src/arguments/schema-limits.ts' },
  MAX_SECTION_DEPTH: { value: MAX_SECTION_DEPTH, file: 'src/render/parse.ts' },
  MAX_PARTIAL_DEPTH: { value: MAX_PARTIAL_DEPTH, file: 'src/render/parse.ts' },
  MAX_PARTIAL_INCLUSIONS: { value: MAX_PARTIAL_INCLUSIONS, file: 'src/render/parse.ts' },
  MAX_DETAILS: { value: MAX_DETAILS, file: 'src/arguments/failures.ts' },
  MAX_VALUE_DEPTH: { value: MAX_VALUE_DEPTH, file: 'src/render/limits.ts' },
  MAX_COMPLETION_VALUES: { value: MAX_COMPLETION_VALUES, file: 'src/registry/completion.ts' },
  MAX_COMPLETION_BYTES: { value: MAX_COMPLETION_BYTES, file: 'src/registry/completion.ts' },
  MAX_COMPLETION_INPUT: { value: MAX_COMPLETION_INPUT, file: 'src/registry/completion.ts' },
  MAX_COMPLETION_CONTEXT: { value: MAX_COMPLETION_CONTEXT, file: 'src/registry/completion.ts' },
  MAX_URI_LENGTH: { value: MAX_URI_LENGTH, file: 'src/mcp/resources.ts' },
  MAX_SUBSCRIPTIONS: { value: MAX_SUBSCRIPTIONS, file: 'src/mcp/resource-subscriptions.ts' },
  MAX_SUBSCRIBED_CHARACTERS: { value: MAX_SUBSCRIBED_CHARACTERS, file: 'src/mcp/resource-subscriptions.ts' },
  MAX_CACHE_TTL_MS: { value: MAX_CACHE_TTL_MS, file: 'src/mcp/cache-hints.ts' },
  MAX_REQUEST_STATE_CHARS: { value: MAX_REQUEST_STATE_CHARS, file: 'src/mcp/request-state.ts' },
  MIN_SECRET_BYTES: { value: MIN_SECRET_BYTES, file: 'src/mcp/request-state.ts' },
  MAX_BODY_BYTES: { value: MAX_BODY_BYTES, file: 'src/cli/endpoint.ts' },
  MAX_STREAMS: { value: MAX_STREAMS, file: 'src/cli/preview/events.ts' },
  MAX_DIFF_WORK: { value: MAX_DIFF_WORK, file: 'src/cases/diff.ts' },
  MAX_ALIAS_COUNT: { value: MAX_ALIAS_COUNT, file: 'src/fs/yaml-source.ts' },
  MAX_DEPTH: { value: MAX_DEPTH, file: 'src/fs/yaml-source.ts' },
  MAX_SUBSET_DEPTH: { value: MAX_SUBSET_DEPTH, file: 'src/fs/yaml-subset-cursor.ts' },
  MAX_KEY: { value: MAX_KEY, file: 'src/fs/yaml-shape.ts' },
  MAX_FLOW_PLAIN_LINES: { value: MAX_FLOW_PLAIN_LINES, file: 'src/fs/yaml-shape.ts' },
  MAX_PARAMS_TEXT: { value: MAX_PARAMS_TEXT, file: 'src/agent/params.ts' },
  MAX_ARGUMENTS: { value: MAX_ARGUMENTS, file: 'src/agent/params.ts' },
  MAX_ARGUMENTS_TEXT: { value: MAX_ARGUMENTS_TEXT, file: 'src/agent/params.ts' },
  MAX_LISTED_PROMPTS: { value: MAX_LISTED_PROMPTS, file: 'src/agent/listing.ts' },
  MAX_LIST_PAGES: { value: MAX_LIST_PAGES, file: 'src/agent/listing.ts' },
  MAX_LISTED_ARGUMENTS: { value: MAX_LISTED_ARGUMENTS, file: 'src/agent/listing.ts' },
  MAX_PROMPT_NAME: { value: MAX_PROMPT_NAME, file: 'src/agent/listing.ts' },
  MAX_ECHOED: { value: MAX_ECHOED, file: 'src/errors.ts' },
  MAX_CLIENT_TEXT: { value: MAX_CLIENT_TEXT, file: 'src/errors.ts' },
};

/**
 * Exported bounds that shape an answer or a setting rather than bound a request's work, so not in the table: how many
 * allowed values and problems a message lists, how many problems an error carries, how much of a name the agent tool
 * shows, the largest timer a timeout option accepts, and how often a steady stream of changes still notifies.
 */
const NOT_LISTED = new Set([
  'MAX_LISTED_VALUES',
  'MAX_LISTED_PROBLEMS',
  'MAX_CARRIED_PROBLEMS',
  'MAX_SHOWN_NAME',
  'MAX_TIMER_MS',
  'MAX_WAIT_FACTOR',
]);

/** Every `export const MAX_…` / `MIN_…` under src/, by name, with its file. */
function exportedBounds(): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(join(ROOT, 'src', file), 'utf8');
    for (const m of text.matchAll(/^export const ((?:MAX|MIN)_[A-Z0-9_]+) =/gm)) {
      out.set(m[1]!, `src/${file.split('\\').join('/')}`);
    }
  }
  return out;
}

/** The body rows of the first table under a heading, as trimmed cells. */
function tableRows(heading: string): string[][] {
  const lines = section(heading, TEXT)
    .split('\n')
    .filter((l) => l.startsWith('|'));
  return lines.slice(2).map((l) =>
    l
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim()),
  );
}

/** The first number of a cell (`1,048,576 bytes (1 MiB)` -> 1048576). */
function firstNumber(cell: string): number | undefined {
  const match = /\d[\d,]*/.exec(cell);
  return match === null ? undefined : Number(match[0].replaceAll(',', ''));
}

/** The text between the first pair of backticks of a cell. */
function code(cell: string): string | undefined {
  return /`([^`]+)`/.exec(cell)?.[1];
}

const settableRows = tableRows('Limits you can set').map(
  ([of = '', option = '', value = '', file = '', past = '']) => ({
    of: code(of) ?? of,
    option: code(option) ?? option,
    value,
    file,
    past,
  }),
);
const fixedRows = tableRows('Fixed bounds').map(([bound = '', value = '', file = '', past = '']) => ({
  name: code(bound) ?? bound,
  value,
  file,
  past,
}));

describe('SECURITY.md', () => {
  it('has a row for every option that bounds a request, with the default the code resolves it to', () => {
    const expected = Object.entries(SETTABLE).flatMap(([of, values]) =>
      Object.entries(values).flatMap(([option, value]) =>
        value === NOT_A_LIMIT ? [] : [{ key: `${of} ${option}`, value }],
      ),
    );
    const stated = new Map(settableRows.map((r) => [`${r.of} ${r.option}`, firstNumber(r.value)]));
    expect(expected.length).toBeGreaterThan(35);
    for (const { key, value } of expected) {
      expect(stated.has(key), `no row for ${key}`).toBe(true);
      expect(stated.get(key), `the default of ${key}`).toBe(value);
    }
  });

  it('lists no option the code does not have, or that is not a limit, and each only once', () => {
    const keys = settableRows.map((r) => `${r.of} ${r.option}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const row of settableRows) {
      const value = SETTABLE[row.of]?.[row.option];
      expect(value, `${row.of} ${row.option}`).toBeDefined();
      expect(value, `${row.of} ${row.option}`).not.toBe(NOT_A_LIMIT);
    }
  });

  it('names for every settable limit a file of the repository that reads the option or exports its default', () => {
    for (const row of settableRows) {
      const [path = '', constant] = [row.file.split(' ')[0], code(row.file)];
      const file = join(ROOT, path);
      expect(existsSync(file), `${row.of} ${row.option}: ${path}`).toBe(true);
      const source = readFileSync(file, 'utf8');
      if (constant !== undefined) {
        expect(source, `${path} exports ${constant}`).toMatch(new RegExp(`export const ${constant} =`));
      } else {
        const name = row.option.replace(/^[a-z]+\./, '');
        expect(source.includes(name), `${path} does not mention ${row.option}`).toBe(true);
      }
    }
  });

  it('states every fixed bound as the constant its file exports', () => {
    expect(fixedRows.map((r) => r.name).sort()).toEqual(Object.keys(FIXED).sort());
    for (const row of fixedRows) {
      const fixed = FIXED[row.name]!;
      expect(firstNumber(row.value), row.name).toBe(fixed.value);
      expect(row.file, row.name).toBe(fixed.file);
      expect(readFileSync(join(ROOT, row.file), 'utf8')).toMatch(new RegExp(`export const ${row.name} =`));
    }
  });

  it('lists every bound src/ exports as a constant, unless it is named here as not bounding a request', () => {
    const listed = new Set(fixedRows.map((r) => r.name));
    const missing = [...exportedBounds()]
      .filter(([name]) => !listed.has(name) && !NOT_LISTED.has(name))
      .map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
    for (const name of NOT_LISTED) expect(exportedBounds().has(name), `${name} is still exported`).toBe(true);
  });

  it('quotes in what a client gets past a limit only the limit itself', () => {
    // A number a message shows (`exceeds 1048576 bytes`) is the default of its row, so a changed default shows.
    const rows = [
      ...settableRows.map((r) => ({ key: `${r.of} ${r.option}`, value: firstNumber(r.value), past: r.past })),
      ...fixedRows.map((r) => ({ key: r.name, value: firstNumber(r.value), past: r.past })),
    ];
    for (const { key, value, past } of rows) {
      const shown = [...past.matchAll(/`[^`]*`/g)].flatMap((m) =>
        [...m[0].matchAll(/\d{2,}/g)].map((n) => Number(n[0])),
      );
      for (const number of shown) expect(number, `${key}: ${past}`).toBe(value);
    }
  });

  it('asks for a private report through GitHub and says what to include and when we answer', () => {
    const policy = section('Reporting a vulnerability', TEXT);
    expect(policy).toContain("GitHub's private vulnerability reporting on this repository");
    expect(policy).not.toMatch(/@|example\.com|TODO/i);
    expect(policy).toMatch(/Include:/);
    expect(policy).toMatch(/within \d+ working days/);
  });

  it('links only to files the repository has and to headings their pages have', () => {
    const problems = links(TEXT).flatMap(({ line, target }) => {
      if (/^[a-z]+:/i.test(target)) return [];
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? PAGE : normalize(join(dirname(PAGE), decodeURIComponent(path)));
      if (!existsSync(join(ROOT, file))) return [`line ${line}: ${target}: no file ${file}`];
      if (anchor === undefined) return [];
      return anchors(readFileSync(join(ROOT, file), 'utf8')).has(anchor) ? [] : [`line ${line}: no #${anchor}`];
    });
    expect(problems).toEqual([]);
  });
});
