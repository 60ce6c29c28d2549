/** `serve <dir>`: an MCP server over stdio or streamable HTTP with SDK v2 (an optional peer, loaded only here). */
import type { McpServer as McpServerType } from '@modelcontextprotocol/server';
import { PromptRegistry, isPromptError } from '../index.js';
import { attachPrompts, attachResources } from '../mcp/index.js';
import { createFileAssetLoader } from '../fs/assets.js';
import { loadPromptDirectoryInto } from '../fs/directory-state.js';
import { createFileResourceResolver } from '../fs/resolver.js';
import { watchPromptDirectory } from '../fs/watch.js';
import { reportErrors } from './commands.js';
import { UsageError, docsRoots, integerOption, parseCommand, positionals } from './args.js';
import { startHttpServer } from './http.js';
import type { Output } from './output.js';
import { VERSION } from './version.js';

type ServerSdk = typeof import('@modelcontextprotocol/server');
type StdioSdk = typeof import('@modelcontextprotocol/server/stdio');

/** A failure that is not a usage mistake: one line, exit 1. */
export class ServeFailure extends Error {}

async function loadSdk(): Promise<{ server: ServerSdk; stdio: StdioSdk }> {
  try {
    const [server, stdio] = await Promise.all([import('@modelcontextprotocol/server'), import('@modelcontextprotocol/server/stdio')]);
    return { server, stdio };
  } catch {
    throw new ServeFailure(
      'serve needs the MCP SDK v2, which is not installed: npm install @modelcontextprotocol/server (check, list and render work without it)',
    );
  }
}

/** Host names the HTTP server answers to: localhost names, the bound host, and --allowed-host ones. */
function allowedHostnames(sdk: ServerSdk, host: string, extra: readonly string[]): string[] {
  const names = new Set([...sdk.localhostAllowedHostnames(), ...extra]);
  if (host !== '0.0.0.0' && host !== '::') names.add(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  return [...names];
}

/** Resolves when the process is asked to stop (SIGINT, SIGTERM) or, over stdio, when stdin ends. */
function stopped(stdio: boolean): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    if (stdio) process.stdin.once('end', () => resolve('stdin closed'));
  });
}

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
    name: { type: 'string' },
  });
  const [dir] = positionals('serve', given, ['dir']) as [string];
  const docs = docsRoots('serve', values['docs'] as string[] | undefined);
  const debounceMs = integerOption('serve', 'debounce', values['debounce'] as string | undefined, 0, 60_000) ?? 100;
  const port = integerOption('serve', 'http', values['http'] as string | undefined, 0, 65_535);
  const host = (values['host'] as string | undefined) ?? '127.0.0.1';
  if (values['host'] !== undefined && port === undefined) throw new UsageError('serve: --host needs --http <port>');
  const name = (values['name'] as string | undefined) ?? 'mcp-prompt-kit';
  const sdk = await loadSdk();

  const log = (line: string): void => out.stderr(`mcp-prompt-kit: ${line}`);
  const resolver = docs === undefined ? undefined : createFileResourceResolver({ roots: docs });
  const registry = new PromptRegistry({ assets: createFileAssetLoader(dir), ...(resolver === undefined ? {} : { resources: resolver }) });
  const live = new Set<McpServerType>();
  let notifyHttp: { promptsChanged(): void; resourcesChanged(): void } | undefined;

  const resourcesChanged = (): void => {
    notifyHttp?.resourcesChanged();
    for (const server of live) {
      if (server.isConnected()) server.sendResourceListChanged();
      else live.delete(server);
    }
  };

  let watcher: ReturnType<typeof watchPromptDirectory> | undefined;
  try {
    if (values['watch'] === true) {
      watcher = watchPromptDirectory(dir, registry, {
        debounceMs,
        ...(resolver === undefined ? {} : { resources: resolver }),
        onDiagnostic: (d) => reportErrors([d], out),
        onChange: (c) => log(`reloaded: ${[...c.set.map((n) => `+${n}`), ...c.removed.map((n) => `-${n}`)].join(' ')}`),
        onResourcesChanged: resourcesChanged,
      });
      await watcher.ready;
    } else {
      const loaded = await loadPromptDirectoryInto(registry, dir);
      reportErrors(loaded.diagnostics, out);
      if (resolver === undefined && loaded.diagnostics.some((d) => d.message.includes('{{resource:'))) {
        log('hint: prompts embed documents ({{resource:...}}): pass --docs scheme=dir');
      }
    }
  } catch (error) {
    if (isPromptError(error)) throw new UsageError(`serve: ${error.message}`);
    throw error;
  }

  const factory = (): McpServerType => {
    const server = new sdk.server.McpServer({ name, version: VERSION });
    attachPrompts(server, registry);
    if (resolver !== undefined) attachResources(server, resolver);
    // Over stdio a server lives as long as its connection; over HTTP one serves one request (notified via the handler).
    if (port === undefined) live.add(server);
    return server;
  };

  const closers: (() => Promise<void>)[] = [];
  if (port === undefined) {
    const handle = sdk.stdio.serveStdio(factory);
    closers.push(() => handle.close());
    log(`serving ${registry.size} prompt(s) from ${dir} over stdio${watcher === undefined ? '' : ', watching for changes'}`);
  } else {
    const handler = sdk.server.createMcpHandler(factory, { onerror: (error) => log(`request error: ${error.message}`) });
    notifyHttp = handler.notify;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const off = registry.onChange(() => {
      // The 2026-07-28 era's subscriptions/listen streams hear of changes through the handler (one per burst).
      pending ??= setTimeout(() => {
        pending = undefined;
        handler.notify.promptsChanged();
      }, 50);
    });
    const hosts = allowedHostnames(sdk.server, host, (values['allowed-host'] as string[] | undefined) ?? []);
    const origins = [...sdk.server.localhostAllowedOrigins(), ...((values['allowed-origin'] as string[] | undefined) ?? [])];
    let http;
    try {
      http = await startHttpServer({
        fetch: (request) => handler.fetch(request),
        gate: (request) => sdk.server.hostHeaderValidationResponse(request, hosts) ?? sdk.server.originValidationResponse(request, origins),
        host,
        port,
        log,
      });
    } catch (error) {
      throw new ServeFailure(`cannot listen on ${host}:${port} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    closers.push(async () => {
      off();
      if (pending !== undefined) clearTimeout(pending);
      await handler.close();
      await http.close();
    });
    out.stdout(http.url);
    log(`serving ${registry.size} prompt(s) from ${dir} at ${http.url}${watcher === undefined ? '' : ', watching for changes'}`);
  }

  const why = await stopped(port === undefined);
  log(`stopping (${why})`);
  await watcher?.close();
  for (const close of closers) await close().catch(() => {});
  return 0;
}
