/** `createNodeHandler`: the HTTP routes for node:http, Express, Fastify and Koa. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PromptError } from '../errors.js';
import { BodyBuffer, bodyTimedOut, checkDeclaredLength } from './body.js';
import type { RequestBody } from './body.js';
import type { BodyLease } from './budget.js';
import { isLoopbackAddress } from './gate.js';
import { transportError } from './core-response.js';
import type { CoreResponse } from './core-response.js';
import { createHttpCore } from './router.js';
import type { HttpHandlerOptions } from './router.js';
import type { HttpSource } from './sources.js';

/** A request as Express hands it over (node's IncomingMessage plus what Express and its body parsers add). */
type ExpressishRequest = IncomingMessage & { baseUrl?: string; body?: unknown };

/**
 * Serves prompts and functions for `node:http` (`createServer(handler)`) and Express (`app.use('/api', handler)`):
 * the same routes, bodies and statuses as {@link createFetchHandler}. Paths are read below Express's mount path;
 * given `next`, a path that is not one of the routes goes to it.
 *
 * A body parser in front (`express.json()`, `express.text()`, `express.raw()`) is fine: once the request stream has
 * been read, the handler takes `req.body` (a Buffer, a string, or the parsed value, which goes through the same
 * checks serialized again; its numbers were already rounded by that parser) and never waits on the stream. In
 * Fastify, pass `request.raw` with `body: request.body` after `reply.hijack()`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 *
 * createServer(createNodeHandler(registry)).listen(3000, '127.0.0.1');
 * ```
 */
export function createNodeHandler(
  source: HttpSource,
  options: HttpHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void> {
  const core = createHttpCore(source, options);
  return async (req, res, next) => {
    let reply: CoreResponse;
    try {
      const target = req.url ?? '/';
      const q = target.indexOf('?');
      const pathname = q === -1 ? target : target.slice(0, q);
      if (next !== undefined && !core.owns(pathname)) {
        next();
        return;
      }
      reply = await core.handle({
        method: (req.method ?? 'GET').toUpperCase(),
        path: pathname,
        query: new URLSearchParams(q === -1 ? '' : target.slice(q + 1)),
        contentType: req.headers['content-type'],
        host: req.headers.host,
        origin: req.headers.origin,
        loopback: isLoopbackAddress(req.socket?.localAddress),
        header: (name) => {
          const value = req.headers[name];
          return Array.isArray(value) ? value.join(',') : value;
        },
        mountPath: (req as ExpressishRequest).baseUrl ?? '',
        readBody: (limit, timeoutMs, lease) => readBody(req, limit, timeoutMs, lease),
      });
    } catch (error) {
      reply = transportError(error);
    }
    if (res.headersSent) return;
    res.writeHead(reply.status, reply.headers);
    res.end(reply.body);
  };
}

/** The body: what a parser in front already read (the stream is spent), or the stream read within the limits. */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number, lease: BodyLease): Promise<RequestBody> {
  if (!req.readableEnded && req.readable)
    return readNodeBody(req, limit, timeoutMs, lease).then((bytes) => ({ bytes }));
  try {
    checkDeclaredLength(req.headers['content-length'], limit); // before serializing what a parser made of it
  } catch (error) {
    return Promise.reject(error);
  }
  const parsed = (req as ExpressishRequest).body;
  if (parsed instanceof Uint8Array) return Promise.resolve({ bytes: parsed });
  if (typeof parsed === 'string') return Promise.resolve({ text: parsed });
  if (parsed !== undefined) return Promise.resolve({ value: parsed });
  // Read by something that kept nothing: a server set-up fault, not the client's.
  return Promise.reject(
    new PromptError('INTERNAL_ERROR', 'The request body was read before the handler and no req.body was left'),
  );
}

/** Reads a node request body within the limits (events, one timer); a body stopped early is drained and dropped. */
function readNodeBody(req: IncomingMessage, limit: number, timeoutMs: number, lease: BodyLease): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const buffer = new BodyBuffer(limit, lease);
    const finish = (error: unknown): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', finish);
      if (error === undefined) return resolve(buffer.bytes());
      req.resume(); // discard the rest; the answer goes out at once
      reject(error);
    };
    const onData = (chunk: Uint8Array): void => {
      try {
        buffer.push(chunk);
      } catch (error) {
        finish(error);
      }
    };
    const onEnd = (): void => finish(undefined);
    const timer = setTimeout(() => finish(bodyTimedOut()), timeoutMs);
    try {
      checkDeclaredLength(req.headers['content-length'], limit);
    } catch (error) {
      finish(error);
      return;
    }
    req.on('data', onData).on('end', onEnd).on('error', finish); // an aborted request errors (or times out)
  });
}
