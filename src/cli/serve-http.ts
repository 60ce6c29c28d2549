/**
 * `serve --http`: both protocol eras at one `/mcp` endpoint behind the Host and Origin checks. 2026-07-28 requests are
 * served per request (SDK v2's createMcpHandler; subscriptions/listen streams hear of changes through its notifier);
 * 2025-11-25 clients get sessions, whose servers send list_changed on the session's GET stream.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { PromptRegistry } from '../registry/registry.js';
import { ServeFailure } from './args.js';
import { createEndpoint } from './endpoint.js';
import type { HttpPlan } from './hosts.js';
import { startHttpServer } from './http.js';
import { SessionTable } from './sessions.js';

type ServerSdk = typeof import('@modelcontextprotocol/server');

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  sdk: ServerSdk;
  /** A fresh server with the prompts (and documents) attached. */
  factory: () => McpServer;
  registry: PromptRegistry;
  /** Long-lived servers (here: one per session), told of document changes by the caller. */
  live: Set<McpServer>;
  plan: HttpPlan;
  /** `--allowed-origin` names, besides the localhost ones. */
  origins: readonly string[];
  maxSessions: number;
  idleTimeoutMs: number;
  log: (line: string) => void;
}

/** A running `serve --http`. */
export interface ServingHttp {
  url: string;
  /** Publishes changes to the 2026-era subscriptions/listen streams. */
  notify: { promptsChanged(): void; resourcesChanged(): void; resourceUpdated(uri: string): void };
  close(): Promise<void>;
}

/** Starts listening; resolves once it does (a ServeFailure when it cannot). */
export async function serveHttp(options: ServeHttpOptions): Promise<ServingHttp> {
  const { sdk, factory, registry, live, plan, log } = options;
  const modern = sdk.createMcpHandler(factory, {
    legacy: 'reject',
    onerror: (error) => log(`request error: ${error.message}`),
  });
  const sessions = new SessionTable({
    sdk,
    createServer: () => {
      const server = factory();
      live.add(server);
      return server;
    },
    onClosed: (server) => live.delete(server),
    maxSessions: options.maxSessions,
    idleTimeoutMs: options.idleTimeoutMs,
    log,
  });
  // One notification per burst of registry changes for the 2026-era streams (sessions' servers debounce their own).
  let pending: ReturnType<typeof setTimeout> | undefined;
  const off = registry.onChange(() => {
    pending ??= setTimeout(() => {
      pending = undefined;
      modern.notify.promptsChanged();
    }, 50);
  });
  const hosts = plan.hosts(sdk.localhostAllowedHostnames());
  const origins = [...sdk.localhostAllowedOrigins(), ...options.origins];
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    http = await startHttpServer({
      fetch: createEndpoint({ sdk, modern, sessions }),
      gate: (request) =>
        sdk.hostHeaderValidationResponse(request, hosts) ?? sdk.originValidationResponse(request, origins),
      host: plan.host,
      port: plan.port,
      log,
    });
  } catch (error) {
    off();
    throw new ServeFailure(
      `cannot listen on ${plan.host}:${plan.port} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  return {
    url: http.url,
    notify: modern.notify,
    close: async () => {
      off();
      if (pending !== undefined) clearTimeout(pending);
      await sessions.close();
      await modern.close();
      await http.close();
    },
  };
}
