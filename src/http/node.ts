/** `createNodeHandler`: the HTTP routes for node:http and Express. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkDeclaredLength, collectBody } from './body.js';
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
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (next !== undefined && !core.owns(url.pathname)) {
        next();
        return;
      }
      const parsed = (req as ExpressishRequest)._body === true ? (req as ExpressishRequest).body : undefined;
      reply = await core.handle({
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        query: url.searchParams,
        contentType: req.headers['content-type'],
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

/** Reads a node request body within the limits; a request stopped early is drained so the connection can answer. */
function readNodeBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Uint8Array> {
  try {
    checkDeclaredLength(req.headers['content-length'], limit);
  } catch (error) {
    req.resume();
    throw error;
  }
  const chunks = req[Symbol.asyncIterator]();
  return collectBody(
    async () => {
      const { done, value } = await chunks.next();
      return done === true ? undefined : (value as Uint8Array);
    },
    () => {
      req.unpipe();
      req.resume(); // discard the rest; the answer goes out at once
    },
    limit,
    timeoutMs,
  );
}
