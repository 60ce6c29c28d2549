/** `createFetchHandler`: the HTTP routes as a web-standard `(Request) => Promise<Response>` (any runtime). */
import { checkDeclaredLength, collectBody } from './body.js';
import { createHttpCore, transportError } from './router.js';
import type { CoreResponse, HttpHandlerOptions } from './router.js';
import type { HttpSource } from './sources.js';

/**
 * Serves prompts and functions as a fetch handler (Hono, Bun, Deno, Next.js route handlers, edge runtimes):
 * `GET /prompts`, `GET|POST /prompts/{name}`, `GET /functions`, `POST /functions/{name}`, `GET /openapi.json`.
 * Every answer is JSON; errors go through the one error table.
 *
 * @example
 * ```ts
 * const handle = createFetchHandler({ prompts: registry, functions });
 * Bun.serve({ fetch: handle });
 * ```
 */
export function createFetchHandler(source: HttpSource, options: HttpHandlerOptions = {}): (request: Request) => Promise<Response> {
  const core = createHttpCore(source, options);
  return async (request) => {
    let reply: CoreResponse;
    try {
      const url = new URL(request.url);
      reply = await core.handle({
        method: request.method.toUpperCase(),
        path: url.pathname,
        query: url.searchParams,
        contentType: request.headers.get('content-type') ?? undefined,
        readBody: (limit, timeoutMs) => readStream(request, limit, timeoutMs),
      });
    } catch (error) {
      reply = transportError(error);
    }
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
}

/** Reads a web request body within the limits. */
async function readStream(request: Request, limit: number, timeoutMs: number): Promise<Uint8Array> {
  checkDeclaredLength(request.headers.get('content-length'), limit);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  return collectBody(
    async () => {
      const { done, value } = await reader.read();
      return done ? undefined : value;
    },
    () => void reader.cancel().catch(() => undefined),
    limit,
    timeoutMs,
  );
}
