/**
 * The `/mcp` endpoint of `serve --http`: each request goes to the era that speaks it. 2026-07-28 requests (the
 * per-request envelope) go to SDK v2's `createMcpHandler` (legacy: 'reject', so it never serves 2025 statelessly);
 * 2025-era requests (initialize, then Mcp-Session-Id) go to the session table. The body is read once, bounded, and
 * handed to either as `parsedBody`.
 */
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { PromptError } from '../errors.js';
import { errorResponse } from './http.js';
import type { SessionTable } from './sessions.js';

type ServerSdk = typeof import('@modelcontextprotocol/server');

/** Largest request body read (the SDK's own default, 4 MiB). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

const METHODS = ['GET', 'POST', 'DELETE'];

/** Options of {@link createEndpoint}. */
export interface EndpointOptions {
  sdk: ServerSdk;
  modern: McpHttpHandler;
  sessions: SessionTable;
}

/** The fetch-shaped handler of `/mcp`. */
export function createEndpoint({ sdk, modern, sessions }: EndpointOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    if (!METHODS.includes(request.method)) {
      return errorResponse(
        new PromptError(
          'METHOD_NOT_ALLOWED',
          `Method not allowed: ${request.method} (the MCP endpoint takes GET, POST and DELETE)`,
        ),
        {
          allow: METHODS.join(', '),
        },
      );
    }
    let parsedBody: unknown;
    if (request.method === 'POST') {
      if (!sdk.isJsonContentType(request.headers.get('content-type')))
        return errorResponse(new PromptError('UNSUPPORTED_MEDIA_TYPE'));
      const body = await sdk.readRequestBody(request, MAX_BODY_BYTES);
      if (body.tooLarge)
        return errorResponse(new PromptError('LIMIT_EXCEEDED', `Request body exceeds ${MAX_BODY_BYTES} bytes`));
      try {
        parsedBody = JSON.parse(body.text);
      } catch {
        return errorResponse(new PromptError('PARSE_ERROR'));
      }
    }
    if (await sdk.isLegacyRequest(request, parsedBody)) return sessions.handle(request, parsedBody);
    return modern.fetch(request, parsedBody === undefined ? undefined : { parsedBody });
  };
}
