/**
 * `npm run example:http [-- --port 3000 --host 127.0.0.1]`: serves examples/prompts over streamable HTTP with
 * MCP SDK v1 (`@modelcontextprotocol/sdk`), one McpServer per session, at http://127.0.0.1:3000/mcp.
 *
 * Try it: `npx @modelcontextprotocol/inspector` and connect to the URL it prints.
 * Also used by examples/conformance (import {@link startMcpHttpServer}).
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
}

export interface RunningMcpHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

interface Session {
  transport: StreamableHTTPServerTransport;
  detach: () => void;
}

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RangeError('body too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** Starts a streamable-HTTP MCP server (SDK v1) serving `registry`'s prompts at `/mcp`. */
export async function startMcpHttpServer(options: McpHttpServerOptions): Promise<RunningMcpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const sessions = new Map<string, Session>();
  let allowedHosts: Set<string> = new Set();

  // One McpServer per session: an SDK server serves one connection.
  const openSession = (): StreamableHTTPServerTransport => {
    const server = new McpServer({ name: options.name ?? 'mcp-prompt-kit-example', version: '1.0.0' });
    const detach = attachPrompts(server, options.registry);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, detach });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      detach();
    };
    void server.connect(transport);
    return transport;
  };

  const http = createServer((req, res) => {
    void (async () => {
      // DNS-rebinding protection: a page in a browser must not reach this loopback server under another host name.
      if (!allowedHosts.has(req.headers.host ?? '')) return sendJsonRpcError(res, 403, -32000, 'Forbidden host');
      if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') {
        return sendJsonRpcError(res, 404, -32601, 'Not found: the MCP endpoint is /mcp');
      }
      const sessionId = req.headers['mcp-session-id'];
      const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (req.method === 'POST') {
        let body: unknown;
        try {
          body = await readJson(req);
        } catch {
          return sendJsonRpcError(res, 400, -32700, 'Invalid JSON body');
        }
        if (session !== undefined) return session.transport.handleRequest(req, res, body);
        if (sessionId === undefined && isInitializeRequest(body)) return openSession().handleRequest(req, res, body);
        return sendJsonRpcError(res, 400, -32000, 'Bad request: unknown or missing mcp-session-id');
      }
      if (req.method === 'GET' || req.method === 'DELETE') {
        if (session === undefined) return sendJsonRpcError(res, 400, -32000, 'Bad request: unknown or missing mcp-session-id');
        return session.transport.handleRequest(req, res);
      }
      res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
    })().catch((error: unknown) => {
      process.stderr.write(`mcp-http-server: ${error instanceof Error ? error.stack : String(error)}\n`);
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'Internal error');
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 3000, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  allowedHosts = new Set([`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((s) => s.transport.close()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: process.env['PORT'] ?? '3000' }, host: { type: 'string', default: '127.0.0.1' } },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`--port must be 0..65535, got ${values.port}`);
  const running = await startMcpHttpServer({ registry: createExampleRegistry(), host: values.host, port });
  console.log(`MCP prompts served at ${running.url} (Ctrl+C to stop)`);
  const stop = (): void => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
