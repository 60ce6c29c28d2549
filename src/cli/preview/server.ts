/**
 * The preview page's HTTP server (node:http): the page and its script and style, the JSON requests, and the event
 * stream, every request through the gate (Host, Origin, token) first. No CORS headers are ever sent.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PromptError, toPromptError } from '../../errors.js';
import { parseJsonBody } from '../../json-body.js';
import { BodyBudget } from '../../http/budget.js';
import { checkDeclaredLength, collectBody } from '../../http/body.js';
import { completeRequest, diffRequest, promptRequest, renderRequest } from './api.js';
import { EventHub } from './events.js';
import { checkRequest, createPreviewGate, tokenCookie } from './guard.js';
import type { PreviewGate } from './guard.js';
import { PAGE_CSS, PAGE_HTML, PAGE_SCRIPT } from './page.js';
import { listenOn } from '../hosts.js';
import type { PreviewState } from './state.js';

/** Largest JSON body (a form's values). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Bodies in flight across all requests. */
const BODY_BUDGET_BYTES = 16 * 1024 * 1024;
/** How long a body may take to arrive. */
const BODY_TIMEOUT_MS = 10_000;

/** Extra JSON routes (the cases panel): `POST /api/<name>` with the parsed body. */
export type ExtraRoutes = Readonly<Record<string, (body: unknown) => Promise<unknown>>>;

/** Options of {@link startPreviewServer}. */
export interface PreviewServerOptions {
  state: PreviewState;
  host: string;
  port: number;
  /** Whether `host` is a loopback address (then the localhost names are accepted in Host too). */
  loopback: boolean;
  log: (line: string) => void;
  routes?: ExtraRoutes;
  /** A fixed token (tests); a fresh random one by default. */
  token?: string;
}

/** A running preview server. */
export interface PreviewServer {
  /** The page's URL with its token: the one way in. */
  url: string;
  /** The origin (`http://127.0.0.1:port`). */
  origin: string;
  token: string;
  events: EventHub;
  close(): Promise<void>;
}

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

/** The page may load only its own script and style, images and audio from data: URIs, and talk only to itself. */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function reply(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}) {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, ...extra });
  res.end(body);
}

function replyJson(res: ServerResponse, status: number, value: unknown): void {
  reply(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function replyError(res: ServerResponse, error: PromptError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  replyJson(res, error.httpStatus, { error: error.toJsonRpcError() });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

async function readJson(req: IncomingMessage, budget: BodyBudget): Promise<unknown> {
  const type = header(req, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new PromptError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  }
  checkDeclaredLength(header(req, 'content-length'), MAX_BODY_BYTES);
  const iterator = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const lease = budget.lease();
  try {
    const bytes = await collectBody(
      async () => {
        const { done, value } = await iterator.next();
        return done === true ? undefined : new Uint8Array(value);
      },
      () => req.destroy(),
      MAX_BODY_BYTES,
      BODY_TIMEOUT_MS,
      lease,
    );
    try {
      return parseJsonBody(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    } catch {
      throw new PromptError('PARSE_ERROR');
    }
  } finally {
    lease.release();
  }
}

/** Starts listening on `host:port`; resolves once it does. */
export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const { state } = options;
  const events = new EventHub();
  const budget = new BodyBudget(BODY_BUDGET_BYTES, Math.ceil(BODY_TIMEOUT_MS / 1000));
  let gate: PreviewGate | undefined;
  const posts: Record<string, (body: unknown) => Promise<unknown>> = {
    ...options.routes,
    render: (body) => renderRequest(state, body),
    diff: (body) => diffRequest(state, body),
    complete: (body) => completeRequest(state, body),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = req.url ?? '/';
    const method = req.method ?? 'GET';
    const at = target.indexOf('?');
    const path = at === -1 ? target : target.slice(0, at);
    const query = new URLSearchParams(at === -1 ? '' : target.slice(at + 1));
    if (gate === undefined) throw new PromptError('SERVER_BUSY', 'Server starting');
    checkRequest(gate, { method, url: target, header: (n) => header(req, n), stream: path === '/api/events' });
    if (method === 'GET') {
      switch (path) {
        case '/':
          return reply(res, 200, 'text/html; charset=utf-8', PAGE_HTML, {
            'content-security-policy': PAGE_POLICY,
            'set-cookie': tokenCookie(gate),
          });
        case '/app.js':
          return reply(res, 200, 'text/javascript; charset=utf-8', PAGE_SCRIPT);
        case '/app.css':
          return reply(res, 200, 'text/css; charset=utf-8', PAGE_CSS);
        case '/api/listing':
          return replyJson(res, 200, state.listing());
        case '/api/prompt':
          return replyJson(res, 200, promptRequest(state, query));
        case '/api/events':
          if (events.full) throw new PromptError('SERVER_BUSY', 'Too many open event streams');
          events.open(res, SECURITY_HEADERS, { type: 'hello', version: state.version });
          return;
      }
    } else if (method === 'POST' && path.startsWith('/api/')) {
      const route = path.slice('/api/'.length);
      if (Object.hasOwn(posts, route)) {
        const body = await readJson(req, budget);
        return replyJson(res, 200, await posts[route]!(body));
      }
    } else {
      throw new PromptError('METHOD_NOT_ALLOWED', `Method not allowed: ${method}`);
    }
    throw new PromptError('METHOD_NOT_FOUND', `Not found: ${path}`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const e = toPromptError(error);
      if (!e.exposed) options.log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      replyError(res, e);
    });
  });
  const address = await listenOn(server, options.port, options.host);
  gate = createPreviewGate(address.address, address.port, options.loopback, options.token);
  const origin = `http://${address.urlHost}:${address.port}`;
  return {
    url: `${origin}/?token=${gate.token}`,
    origin,
    token: gate.token,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        events.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
