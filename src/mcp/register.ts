/**
 * Registering one request handler on an SDK v1 or v2 low-level server, without importing either SDK.
 *
 * Both registrations hand our handler the request's params untouched: the SDKs' own request schemas would turn a
 * malformed request (say `name: 5`) into -32603, while our protocol handlers answer every client mistake with
 * -32602, and accept `arguments` omitted (typescript-sdk#1869).
 *
 * @module
 */
import type { PromptMethod } from '../protocol.js';
import type { McpRequestInfo } from './request-info.js';
import { requestInfoFromV1, requestInfoFromV2 } from './request-info.js';
import type { LowLevelServer, SdkVersion } from './server-shape.js';
import { PASS_THROUGH_PARAMS, v1MethodSchema } from '../sdk/method-schemas.js';

/** @internal One request as handed over by the SDK: params as sent by the client, plus what the SDK told us. */
export interface SdkRequest {
  params: unknown;
  info: McpRequestInfo;
}

/**
 * @internal Serves one request. `read()` reads the SDK's request and handler extra; the handler calls it inside its
 * own error handling, so that an SDK handing over something unexpected is answered (and logged) like any other fault.
 */
export type RequestHandler = (method: PromptMethod, read: () => SdkRequest) => Promise<unknown>;

function paramsOf(request: unknown): unknown {
  return typeof request === 'object' && request !== null ? (request as { params?: unknown }).params : undefined;
}

/** Registers `handle` for `method` on a server of the given SDK major. */
export function registerRequestHandler(
  sdk: SdkVersion,
  server: LowLevelServer,
  method: PromptMethod,
  handle: RequestHandler,
): void {
  registerMethod(sdk, server, method, (params, extra) =>
    handle(method, () => ({
      params,
      info: sdk === 'v1' ? requestInfoFromV1(method, extra) : requestInfoFromV2(method, extra),
    })),
  );
}

/**
 * @internal Registers `handle` for any request method: it gets the params as sent and the SDK's handler extra
 * (v1) or context (v2).
 */
export function registerMethod(
  sdk: SdkVersion,
  server: LowLevelServer,
  method: string,
  handle: (params: unknown, extra: unknown) => Promise<unknown>,
): void {
  if (sdk === 'v1') {
    try {
      server.setRequestHandler(v1MethodSchema(method), (request: unknown, extra: unknown) =>
        handle(paramsOf(request), extra),
      );
    } catch (cause) {
      throw new Error(shapeChanged(method, V1_SHAPE, cause), { cause });
    }
  } else {
    try {
      server.setRequestHandler(method, { params: PASS_THROUGH_PARAMS }, (params: unknown, ctx: unknown) =>
        handle(params, ctx),
      );
    } catch (cause) {
      throw new Error(shapeChanged(method, V2_SHAPE, cause), { cause });
    }
  }
}

const V1_SHAPE =
  'SDK v1 (@modelcontextprotocol/sdk) refused setRequestHandler(schema, handler) with a Zod-3-shaped request schema ' +
  '(`shape.method` literal, `safeParse`)';
const V2_SHAPE =
  'SDK v2 (@modelcontextprotocol/server) refused the 3-argument setRequestHandler(method, { params }, handler) with a ' +
  'Standard Schema for params';

function shapeChanged(method: string, shape: string, cause: unknown): string {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return (
    `mcp-prompt-kit: registering ${method} failed: ${shape}. This SDK release changed how request handlers are ` +
    `registered; mcp-prompt-kit supports the installed major's documented shape — please report it. (${reason})`
  );
}
