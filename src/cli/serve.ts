/** `serve <dir>`: an MCP server over stdio or streamable HTTP with SDK v2 (an optional peer, loaded only here). */
import type { McpServer as McpServerType } from '@modelcontextprotocol/server';
import { isPromptError } from '../errors.js';
import { PromptRegistry } from '../registry/registry.js';
import { attachPrompts } from '../mcp/attach.js';
import { attachResources } from '../mcp/resources.js';
import type { AttachedResources } from '../mcp/resources.js';
import { MAX_CACHE_TTL_MS } from '../mcp/cache-hints.js';
import type { CacheHints, CacheScope } from '../mcp/cache-hints.js';
import { createFileAssetLoader } from '../fs/assets.js';
import { watchPromptDirectory } from '../fs/watch.js';
import type { PromptDirectoryChange } from '../fs/directory-state.js';
import { openDirectory, referenceDiagnostics, reportErrors } from './commands.js';
import type { OpenedDirectory } from './commands.js';
import type { PromptFileDiagnostic } from '../fs/diagnostics.js';
import { ServeFailure, UsageError, docsRoots, integerOption, parseCommand, positionals } from './args.js';
import { planHttp } from './hosts.js';
import { serveHttp } from './serve-http.js';
import type { Output } from './output.js';
import { VERSION } from './version.js';

type ServerSdk = typeof import('@modelcontextprotocol/server');
type StdioSdk = typeof import('@modelcontextprotocol/server/stdio');

/** Sessions of 2025-era HTTP clients held at once (`--max-sessions`). */
export const DEFAULT_MAX_SESSIONS = 100;
/** A session without requests or open streams for this long is closed (`--idle-timeout`, ms). */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
/**
 * The TTL of what never changes while serve runs (prompts without --watch, server/discover): a restart with other
 * files is announced to nobody, so an hour bounds how long a client keeps the old listing.
 */
const STATIC_TTL_MS = 3_600_000;

async function loadSdk(): Promise<{ server: ServerSdk; stdio: StdioSdk }> {
  try {
    const [server, stdio] = await Promise.all([
      import('@modelcontextprotocol/server'),
      import('@modelcontextprotocol/server/stdio'),
    ]);
    return { server, stdio };
  } catch {
    throw new ServeFailure(
      'serve needs the MCP SDK v2, which is not installed: npm install @modelcontextprotocol/server (check, list and render work without it)',
    );
  }
}

/** Resolves when the process is asked to stop (SIGINT, SIGTERM) or, over stdio, when stdin ends. */
function stopped(stdio: boolean): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    if (stdio) process.stdin.once('end', () => resolve('stdin closed'));
  });
}

/** Options that only mean something with --http. */
const HTTP_ONLY = ['host', 'allowed-host', 'allowed-origin', 'max-sessions', 'idle-timeout'] as const;

/** `serve <dir>`. Resolves (exit code) when the server stops. */
export async function serve(args: readonly string[], out: Output): Promise<number> {
  const { values, positionals: given } = parseCommand('serve', args, {
    docs: { type: 'string', multiple: true },
    watch: { type: 'boolean' },
    debounce: { type: 'string' },
    http: { type: 'string' },
    host: { type: 'string' },
    'allowed-host': { type: 'string', multiple: true },
    'allowed-origin': { type: 'string', multiple: true },
    'max-sessions': { type: 'string' },
    'idle-timeout': { type: 'string' },
    name: { type: 'string' },
    'no-elicitation': { type: 'boolean' },
    'cache-ttl': { type: 'string' },
    'cache-scope': { type: 'string' },
  });
  const [dir] = positionals('serve', given, ['dir']) as [string];
  const docs = docsRoots('serve', values['docs'] as string[] | undefined);
  const debounceMs = integerOption('serve', 'debounce', values['debounce'] as string | undefined, 0, 60_000) ?? 100;
  const port = integerOption('serve', 'http', values['http'] as string | undefined, 0, 65_535);
  if (port === undefined) {
    const misplaced = HTTP_ONLY.find((option) => values[option] !== undefined);
    if (misplaced !== undefined) throw new UsageError(`serve: --${misplaced} needs --http <port>`);
  }
  const maxSessions =
    integerOption('serve', 'max-sessions', values['max-sessions'] as string | undefined, 1, 100_000) ??
    DEFAULT_MAX_SESSIONS;
  const idleTimeoutMs =
    integerOption('serve', 'idle-timeout', values['idle-timeout'] as string | undefined, 1, 2 ** 31 - 1) ??
    DEFAULT_IDLE_TIMEOUT_MS;
  const name = (values['name'] as string | undefined) ?? 'mcp-prompt-kit';
  const cacheTtlMs = integerOption(
    'serve',
    'cache-ttl',
    values['cache-ttl'] as string | undefined,
    0,
    MAX_CACHE_TTL_MS,
  );
  const cacheScope = cacheScopeOption(values['cache-scope'] as string | undefined);
  const watching = values['watch'] === true;
  const elicitation = values['no-elicitation'] !== true;
  const plan =
    port === undefined
      ? undefined
      : await planHttp(
          port,
          (values['host'] as string | undefined) ?? '127.0.0.1',
          (values['allowed-host'] as string[] | undefined) ?? [],
        );
  const sdk = await loadSdk();

  const log = (line: string): void => out.stderr(`mcp-prompt-kit: ${line}`);
  if (plan?.warning !== undefined) log(plan.warning);
  // Everything is checked before anything is served: a prompt left out, or embedding documents nothing serves, stops
  // the start.
  const opened = await openDirectory('serve', dir, docs);
  const problems = [...opened.diagnostics, ...(await referenceDiagnostics(opened))];
  reportErrors(problems, out);
  const refused = refusedPrompts(opened, problems);
  if (refused.length > 0) {
    throw new ServeFailure(
      `not starting: ${refused.length} prompt(s) would be left out or fail (errors above): ${refused.join(', ')}; ` +
        'fix them, or pass the --docs scheme=dir their documents need',
    );
  }
  const resolver = opened.resolver;
  let registry = opened.registry;
  /** Servers that live as long as a connection (stdio) or a session (2025-era HTTP): told of document changes. */
  const live = new Set<McpServerType>();
  let notifyHttp: { promptsChanged(): void; resourcesChanged(): void; resourceUpdated(uri: string): void } | undefined;

  /** With --watch, each server's resources: `resources/subscribe` is served, changed documents are reported. */
  const subscribable = new WeakMap<McpServerType, AttachedResources>();
  const resourcesChanged = (uris: readonly string[]): void => {
    notifyHttp?.resourcesChanged();
    for (const uri of uris) notifyHttp?.resourceUpdated(uri);
    for (const server of live) {
      if (!server.isConnected()) {
        live.delete(server);
        continue;
      }
      server.sendResourceListChanged();
      subscribable.get(server)?.updated(uris);
    }
  };

  let watcher: ReturnType<typeof watchPromptDirectory> | undefined;
  if (watching) {
    // The watcher loads the directory again into the registry it keeps in step (a later broken edit keeps the last good
    // version).
    registry = new PromptRegistry({
      assets: createFileAssetLoader(dir),
      ...(resolver === undefined ? {} : { resources: resolver }),
    });
    const known = new Set<string>();
    watcher = watchPromptDirectory(dir, registry, {
      debounceMs,
      ...(resolver === undefined ? {} : { resources: resolver }),
      onDiagnostic: (d) => reportErrors([d], out),
      onChange: (c) => log(`reloaded: ${describeChange(c, known)}`),
      onResourcesChanged: resourcesChanged,
    });
    try {
      await watcher.ready;
    } catch (error) {
      if (isPromptError(error)) throw new UsageError(`serve: ${error.message}`);
      throw error;
    }
    for (const definition of registry.definitions()) known.add(definition.name);
  }

  // Cache hints (docs/mcp.md, "Cache hints"): what never changes while serving may be kept for STATIC_TTL_MS; with
  // --watch, attachPrompts derives the prompts' TTL from the watcher, and a document change is announced within two
  // windows; without it, documents are read as they are on disk and no change is announced (TTL 0).
  const hints = (derivedTtlMs: number | undefined): CacheHints => {
    const ttlMs = cacheTtlMs ?? derivedTtlMs;
    return { ...(ttlMs === undefined ? {} : { ttlMs }), ...(cacheScope === undefined ? {} : { cacheScope }) };
  };
  const promptHints = hints(watching ? undefined : STATIC_TTL_MS);
  const resourceHints = hints(watching ? 2 * debounceMs : 0);
  const discoverHint = { ttlMs: cacheTtlMs ?? STATIC_TTL_MS, cacheScope: cacheScope ?? 'public' } as const;

  const factory = (): McpServerType => {
    const server = new sdk.server.McpServer(
      { name, version: VERSION },
      { cacheHints: { 'server/discover': discoverHint } },
    );
    // Without --watch nothing changes: no list_changed is ever sent, so none is promised.
    attachPrompts(server, registry, { listChanged: watching, elicitation, cacheHints: promptHints });
    if (resolver !== undefined) {
      // A subscription promises resources/updated: only --watch notices changes, so only it serves subscribe.
      const attached = attachResources(server, resolver, {
        listChanged: watching,
        subscriptions: watching,
        cacheHints: resourceHints,
      });
      if (watching) subscribable.set(server, attached);
    }
    return server;
  };

  const closers: (() => Promise<void>)[] = [];
  if (plan === undefined) {
    const handle = sdk.stdio.serveStdio(() => {
      const server = factory();
      live.add(server);
      return server;
    });
    closers.push(() => handle.close());
    log(
      `serving ${registry.size} prompt(s) from ${dir} over stdio${watcher === undefined ? '' : ', watching for changes'}`,
    );
  } else {
    const http = await serveHttp({
      sdk: sdk.server,
      factory,
      registry,
      live,
      plan,
      origins: (values['allowed-origin'] as string[] | undefined) ?? [],
      maxSessions,
      idleTimeoutMs,
      log,
    });
    notifyHttp = http.notify;
    closers.push(() => http.close());
    out.stdout(http.url);
    log(
      `serving ${registry.size} prompt(s) from ${dir} at ${http.url}${watcher === undefined ? '' : ', watching for changes'}`,
    );
  }

  const why = await stopped(plan === undefined);
  log(`stopping (${why})`);
  await watcher?.close();
  for (const close of closers) await close().catch(() => {});
  return 0;
}

/** `--cache-scope`: public or private. */
function cacheScopeOption(value: string | undefined): CacheScope | undefined {
  if (value === undefined || value === 'public' || value === 'private') return value;
  throw new UsageError(`serve: --cache-scope must be public or private, got '${value}'`);
}

function isCasePointer(pointer: string | undefined): boolean {
  return pointer === '/cases' || pointer?.startsWith('/cases/') === true;
}

/** The prompts that would not be served as they are: files left out, and prompts embedding documents nothing serves. */
function refusedPrompts(opened: OpenedDirectory, problems: readonly PromptFileDiagnostic[]): string[] {
  const refused = opened.leftOut.map((f) => (f.name === undefined ? f.file : `${f.name} (${f.file})`));
  // A problem with a file's example cases fails check and test, never what is served.
  const failing = new Set(
    problems.filter((d) => d.severity === 'error' && !isCasePointer(d.pointer)).map((d) => d.file),
  );
  for (const [name, file] of opened.sources) if (failing.has(file)) refused.push(`${name} (${file})`);
  return refused;
}

/** A reload for the log: `+name` added, `~name` changed, `-name` removed (`known` is kept up to date). */
function describeChange(change: PromptDirectoryChange, known: Set<string>): string {
  const words: string[] = [];
  for (const name of change.set) {
    words.push(`${known.has(name) ? '~' : '+'}${name}`);
    known.add(name);
  }
  for (const name of change.removed) {
    words.push(`-${name}`);
    known.delete(name);
  }
  return words.join(' ');
}
