/**
 * `npm run example:http [-- --port 3000 --host 127.0.0.1]`: serves examples/prompts over streamable HTTP with
 * MCP SDK v1 (`@modelcontextprotocol/sdk`), one McpServer per session, at http://127.0.0.1:3000/mcp.
 *
 * Try it: `npx @modelcontextprotocol/inspector` and connect to the URL it prints.
 * Also used by examples/conformance (import {@link startMcpHttpServer}).
 *
 * Sessions (streamable HTTP, spec 2025-11-25): `initialize` without an `mcp-session-id` opens one; any other request
 * without the header gets 400; an unknown or expired session id gets 404 (the client then initializes again); a
 * session with no request for `sessionIdleTimeoutMs` is closed. A body over 4 MiB gets 413 (LIMIT_EXCEEDED).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_TABLE, PromptError } from '../src/index.js';
import type { PromptRegistry } from '../src/index.js';
import { attachPrompts } from '../src/mcp/index.js';
import { createExampleRegistry } from './prompts/catalog.js';

export interface McpHttpServerOptions {
  registry: PromptRegistry;
  /** Interface to bind (default 127.0.0.1: reachable from this machine only). */
  host?: string;
  /** Port (default 3000; 0 picks a free one). */
  port?: number;
  /** Server name reported to clients. */
  name?: string;
  /** A session with no HTTP request for this long is closed (default 10 minutes). */
  sessionIdleTimeoutMs?: number;
  /** Largest accepted request body, in bytes (default 4 MiB); larger bodies get 413. */
  maxBodyBytes?: number;
  /**
   * Builds each session's McpServer (add your tools and resources there; don't attach the prompts yourself).
   * Default: a bare McpServer named `name`.
   */
  createMcpServer?: () => McpServer;
  /** Where operational errors go (default: stderr). */
  log?: (message: string) => void;
  /**
   * Browser origins allowed to call the server (default: this server's own loopback origins). A request with an
   * `Origin` header not in the list gets 403 (MCP 2025-11-25 transport rules); a request without one is allowed.
   */
  allowedOrigins?: readonly string[];
}

export interface RunningMcpHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  /** How many sessions are open. */
  sessionCount(): number;
  close(): Promise<void>;
}

export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 10 * 60 * 1000;
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

interface Session {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  idleTimer?: ReturnType<typeof setTimeout>;
}

function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** Sends a PromptError with the status, JSON-RPC code and message of the error table. */
function sendPromptError(res: ServerResponse, error: PromptError, headers: Record<string, string> = {}): void {
  const wire = error.toJsonRpcError();
  sendJsonRpcError(res, error.httpStatus, wire.code, wire.message, headers);
}

const TOO_LARGE = Symbol('too large');
const ABORTED = Symbol('aborted');

/**
 * Reads the whole body, keeping at most `maxBytes`. A larger body is drained (not kept) and reported as TOO_LARGE,
 * so that the client, still sending, gets the 413 instead of a reset connection; past 4 × `maxBytes` the connection
 * is dropped.
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | typeof TOO_LARGE | typeof ABORTED> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
      if (size > 4 * maxBytes) req.destroy();
    });
    req.once('end', () => resolve(size > maxBytes ? TOO_LARGE : Buffer.concat(chunks)));
    req.once('close', () => resolve(ABORTED)); // without 'end' first: the client went away, or we dropped it
    req.once('error', reject);
  });
}

/** Starts a streamable-HTTP MCP server (SDK v1) serving `registry`'s prompts at `/mcp`. */
export async function startMcpHttpServer(options: McpHttpServerOptions): Promise<RunningMcpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const idleMs = options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
  if (!Number.isFinite(idleMs) || idleMs <= 0 || idleMs > 2 ** 31 - 1) {
    throw new RangeError(`sessionIdleTimeoutMs must be 1..${2 ** 31 - 1} ms, got ${idleMs}`);
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = options.log ?? ((message: string) => process.stderr.write(`mcp-http-server: ${message}\n`));
  const createMcpServer =
    options.createMcpServer ??
    (() => new McpServer({ name: options.name ?? 'mcp-prompt-kit-example', version: '1.0.0' }));
  const sessions = new Map<string, Session>();
  let allowedHosts: Set<string> = new Set();
  let allowedOrigins: Set<string> = new Set();

  const closeSession = (session: Session, why: string): void => {
    if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
    session.server.close().catch((error: unknown) => log(`closing a session (${why}) failed: ${String(error)}`));
  };

  /** (Re)starts the session's idle timer: called on each request. */
  const touch = (id: string, session: Session): void => {
    if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
    session.idleTimer = setTimeout(() => {
      sessions.delete(id);
      closeSession(session, 'idle');
    }, idleMs);
    session.idleTimer.unref();
  };

  /** One McpServer per session: an SDK server serves one connection. Undefined when it could not connect. */
  const openSession = async (): Promise<StreamableHTTPServerTransport | undefined> => {
    const server = createMcpServer();
    const detach = attachPrompts(server, options.registry);
    const session: Partial<Session> & { server: McpServer } = { server };
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session.transport = transport;
        sessions.set(id, session as Session);
        touch(id, session as Session);
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && sessions.get(id) === session) sessions.delete(id);
      if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
      detach();
    };
    try {
      await server.connect(transport);
      return transport;
    } catch (error) {
      detach();
      log(
        `could not connect a new session: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return undefined;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // DNS-rebinding protection: a page in a browser must not reach this loopback server under another host name.
    if (!allowedHosts.has(req.headers.host ?? '')) return sendJsonRpcError(res, 403, -32000, 'Forbidden host');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin))
      return sendJsonRpcError(res, 403, -32000, 'Forbidden origin');
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') {
      return sendJsonRpcError(res, 404, -32601, 'Not found: the MCP endpoint is /mcp');
    }
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
      res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
      return;
    }
    const header = req.headers['mcp-session-id'];
    const sessionId = typeof header === 'string' ? header : undefined;
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && session === undefined) {
      // Unknown, closed or expired: 404 tells the client to start a new session (streamable HTTP spec).
      return sendJsonRpcError(res, 404, -32001, 'Session not found');
    }
    if (sessionId !== undefined && session !== undefined) touch(sessionId, session);

    if (req.method !== 'POST') {
      if (session === undefined)
        return sendJsonRpcError(res, 400, -32000, 'Bad request: mcp-session-id header is required');
      return session.transport.handleRequest(req, res);
    }
    const raw = await readBody(req, maxBodyBytes);
    if (raw === ABORTED) {
      res.destroy();
      return;
    }
    if (raw === TOO_LARGE) {
      return sendPromptError(res, new PromptError('LIMIT_EXCEEDED', `Request body exceeds ${maxBodyBytes} bytes`), {
        connection: 'close',
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      const parse = ERROR_TABLE.PARSE_ERROR;
      return sendJsonRpcError(res, parse.httpStatus, parse.rpcCode, parse.clientMessage);
    }
    if (session !== undefined) return session.transport.handleRequest(req, res, body);
    if (!isInitializeRequest(body)) {
      return sendJsonRpcError(
        res,
        400,
        -32000,
        'Bad request: mcp-session-id header is required (except on initialize)',
      );
    }
    const transport = await openSession();
    if (transport === undefined) {
      const internal = ERROR_TABLE.INTERNAL_ERROR;
      return sendJsonRpcError(res, internal.httpStatus, internal.rpcCode, internal.clientMessage);
    }
    return transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(error instanceof Error ? (error.stack ?? error.message) : String(error));
      if (!res.headersSent) {
        const internal = ERROR_TABLE.INTERNAL_ERROR;
        sendJsonRpcError(res, internal.httpStatus, internal.rpcCode, internal.clientMessage);
      } else {
        res.end();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 3000, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  allowedHosts = new Set([`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
  allowedOrigins = new Set(options.allowedOrigins ?? [...allowedHosts].map((h) => `http://${h}`));

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    sessionCount: () => sessions.size,
    close: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      for (const session of open) if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
      await Promise.allSettled(open.map((s) => s.server.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env['PORT'] ?? '3000' },
      host: { type: 'string', default: '127.0.0.1' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`--port must be 0..65535, got ${values.port}`);
  const running = await startMcpHttpServer({ registry: createExampleRegistry(), host: values.host, port });
  console.log(`MCP prompts served at ${running.url} (Ctrl+C to stop)`);
  const stop = (): void => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
