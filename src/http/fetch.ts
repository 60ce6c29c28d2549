/** `createFetchHandler`: the HTTP routes as a web-standard `(Request) => Promise<Response>` (any runtime). */
import { checkDeclaredLength, collectBody } from './body.js';
import type { RequestBody } from './body.js';
import type { BodyLease } from './budget.js';
import { isLoopbackAddress } from './gate.js';
import { transportError } from './core-response.js';
import type { CoreResponse } from './core-response.js';
import { createHttpCore } from './router.js';
import type { HttpHandlerOptions } from './router.js';
import type { HttpSource } from './sources.js';

/**
 * Serves prompts and functions as a fetch handler (Hono, Bun, Deno, Next.js route handlers, edge runtimes):
 * `GET /prompts`, `GET|POST /prompts/{name}`, `GET /functions`, `POST /functions/{name}`, `GET /openapi.json`
 * (HEAD too on every GET route). Every answer is JSON; errors go through the one error table.
 *
 * The second argument is what the runtime passes along: from `@hono/node-server` (`{ incoming }`) the handler reads
 * the address the connection arrived at, so a server on loopback refuses foreign Host headers by default; elsewhere
 * set `allowedHosts`.
 *
 * @example
 * ```ts
 * import { serve } from '@hono/node-server';
 *
 * const handle = createFetchHandler({ prompts: registry, functions });
 * serve({ fetch: handle, port: 3000, hostname: '127.0.0.1' });
 * // Bun, Deno and Cloudflare Workers take it as it is: export default { fetch: handle };
 * ```
 */
export function createFetchHandler(
  source: HttpSource,
  options: HttpHandlerOptions = {},
): (request: Request, env?: unknown) => Promise<Response> {
  const core = createHttpCore(source, options);
  return async (request, env) => {
    let reply: CoreResponse;
    try {
      const url = new URL(request.url);
      reply = await core.handle({
        method: request.method.toUpperCase(),
        path: url.pathname,
        query: url.searchParams,
        contentType: request.headers.get('content-type') ?? undefined,
        host: request.headers.get('host') ?? url.host,
        origin: request.headers.get('origin') ?? undefined,
        loopback: isLoopbackAddress(localAddressOf(env)),
        header: (name) => request.headers.get(name) ?? undefined,
        readBody: (limit, timeoutMs, lease) => readStream(request, limit, timeoutMs, lease),
      });
    } catch (error) {
      reply = transportError(error);
    }
    return new Response(request.method.toUpperCase() === 'HEAD' ? null : reply.body, {
      status: reply.status,
      headers: reply.headers,
    });
  };
}

/** The local address of the connection, from `@hono/node-server`'s bindings (`{ incoming: IncomingMessage }`). */
function localAddressOf(env: unknown): string | undefined {
  if (typeof env !== 'object' || env === null) return undefined;
  const incoming = (env as { incoming?: { socket?: { localAddress?: unknown } } }).incoming;
  const address = incoming?.socket?.localAddress;
  return typeof address === 'string' ? address : undefined;
}

/** Reads a web request body within the limits. */
async function readStream(request: Request, limit: number, timeoutMs: number, lease: BodyLease): Promise<RequestBody> {
  checkDeclaredLength(request.headers.get('content-length'), limit);
  if (request.body === null) return { bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const bytes = await collectBody(
    async () => {
      const { done, value } = await reader.read();
      return done ? undefined : value;
    },
    () => void reader.cancel().catch(() => undefined),
    limit,
    timeoutMs,
    lease,
  );
  return { bytes };
}
