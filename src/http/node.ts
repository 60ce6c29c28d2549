/** `createNodeHandler`: the HTTP routes for node:http and Express. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyBuffer, bodyTimedOut, checkDeclaredLength } from './body.js';
import { createHttpCore, transportError } from './router.js';
import type { CoreResponse, HttpHandlerOptions } from './router.js';
import type { HttpSource } from './sources.js';

/** A request as Express hands it over (node's IncomingMessage plus what Express adds). */
type ExpressishRequest = IncomingMessage & { baseUrl?: string; body?: unknown; _body?: boolean };

/**
 * Serves prompts and functions for `node:http` (`createServer(handler)`) and Express (`app.use('/api', handler)`):
 * the same routes, bodies and statuses as {@link createFetchHandler}. Paths are read below Express's mount path;
 * given `next`, a path that is not one of the routes goes to it.
 *
 * @example
 * ```ts
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
      const parsed = (req as ExpressishRequest)._body === true ? (req as ExpressishRequest).body : undefined;
      reply = await core.handle({
        method: (req.method ?? 'GET').toUpperCase(),
        path: pathname,
        query: new URLSearchParams(q === -1 ? '' : target.slice(q + 1)),
        contentType: req.headers['content-type'],
        mountPath: (req as ExpressishRequest).baseUrl ?? '',
        readBody: (limit, timeoutMs) =>
          parsed !== undefined ? Promise.resolve(new TextEncoder().encode(JSON.stringify(parsed))) : readNodeBody(req, limit, timeoutMs),
      });
    } catch (error) {
      reply = transportError(error);
    }
    if (res.headersSent) return;
    res.writeHead(reply.status, reply.headers);
    res.end(reply.body);
  };
}

/** Reads a node request body within the limits (events, one timer); a body stopped early is drained and dropped. */
function readNodeBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const buffer = new BodyBuffer(limit);
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
