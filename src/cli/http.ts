/** `serve --http`: node:http in front of SDK v2's fetch-shaped handler at /mcp, Host and Origin checked first. */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { PromptError } from '../errors.js';
import { listenOn } from './hosts.js';

/** Checks a request before it reaches the handler: a Response refuses it. */
export type RequestGate = (request: Request) => Response | undefined;

/** Options of {@link startHttpServer}. */
export interface HttpServerOptions {
  fetch: (request: Request) => Promise<Response>;
  gate: RequestGate;
  host: string;
  port: number;
  log: (message: string) => void;
}

/** A running HTTP server. */
export interface RunningHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  close(): Promise<void>;
}

const BODYLESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (!BODYLESS.has(method)) {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  // The URL's host is fixed: the client's Host header is checked by the gate, never trusted to build URLs.
  return new Request(new URL(req.url ?? '/', 'http://localhost'), init);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  // An event stream may stay silent for long: the client gets its status and headers now, not with the first event.
  res.flushHeaders();
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
    if (res.destroyed) break;
  }
  res.end();
}

/** A JSON-RPC error response; status and error come from the one error table. */
function fail(res: ServerResponse, error: PromptError): void {
  res.writeHead(error.httpStatus, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: error.toJsonRpcError() }));
}

/** The same JSON-RPC error as a fetch Response (for handlers in front of the SDK's). */
export function errorResponse(error: PromptError, headers: Record<string, string> = {}): Response {
  return Response.json(
    { jsonrpc: '2.0', id: null, error: error.toJsonRpcError() },
    { status: error.httpStatus, headers },
  );
}

/** Starts the server; resolves once it listens. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/mcp') {
      fail(res, new PromptError('METHOD_NOT_FOUND', 'Not found: the MCP endpoint is /mcp'));
      return;
    }
    const controller = new AbortController();
    res.once('close', () => controller.abort());
    let request: Request;
    try {
      request = toRequest(req, controller.signal);
    } catch {
      fail(res, new PromptError('INVALID_REQUEST', 'Invalid request'));
      return;
    }
    const refused = options.gate(request);
    const answer = refused !== undefined ? Promise.resolve(refused) : options.fetch(request);
    answer
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        options.log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) fail(res, new PromptError('INTERNAL_ERROR', 'Internal error'));
        else res.destroy();
      });
  });
  const address = await listenOn(server, options.port, options.host);
  return {
    url: `http://${address.urlHost}:${address.port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
