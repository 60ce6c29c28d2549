/**
 * What the server telemetry reads from an SDK request: the JSON-RPC id, the session, the protocol version, the
 * transport, and the propagation fields of `params._meta`, from either SDK's handler extra.
 *
 * @module
 * @internal
 */
import type { FieldReader, OperationInfo, Operations, OutcomeOf } from '../telemetry/telemetry.js';
import type { LowLevelServer, SdkVersion } from './server-shape.js';

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The request headers SDK v1 hands over for HTTP transports (`extra.requestInfo.headers`). */
function v1Header(extra: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = record(record(extra?.['requestInfo'])?.['headers'])?.[name];
  return Array.isArray(value) ? text(value[0]) : text(value);
}

/** @internal The request-level fields of an operation (everything but what it targets). */
export function requestFields(
  sdk: SdkVersion,
  server: LowLevelServer,
  raw: unknown,
): Pick<OperationInfo, 'requestId' | 'sessionId' | 'protocolVersion' | 'transport'> {
  const extra = record(raw);
  let requestId: unknown;
  let http: boolean;
  let protocolVersion: unknown;
  if (sdk === 'v1') {
    requestId = extra?.['requestId'];
    http = record(extra?.['requestInfo']) !== undefined;
    protocolVersion = v1Header(extra, 'mcp-protocol-version');
  } else {
    requestId = record(extra?.['mcpReq'])?.['id'];
    http = record(extra?.['http']) !== undefined;
    protocolVersion = server.getNegotiatedProtocolVersion?.();
  }
  const fields: Pick<OperationInfo, 'requestId' | 'sessionId' | 'protocolVersion' | 'transport'> = {};
  if (typeof requestId === 'string' || (typeof requestId === 'number' && Number.isFinite(requestId))) {
    fields.requestId = requestId;
  }
  const sessionId = extra?.['sessionId'];
  if (typeof sessionId === 'string') fields.sessionId = sessionId;
  if (typeof protocolVersion === 'string') fields.protocolVersion = protocolVersion;
  const transport = http ? 'tcp' : stdioTransport(server) ? 'pipe' : undefined;
  if (transport !== undefined) fields.transport = transport;
  return fields;
}

/** Whether the server is connected over stdio (the SDKs' `StdioServerTransport`). */
function stdioTransport(server: LowLevelServer): boolean {
  const transport = record(server.transport);
  const name = transport === undefined ? undefined : (transport.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && /stdio/i.test(name);
}

/**
 * @internal Reads `traceparent`, `tracestate` and `baggage` from the request's `params._meta` (SDK v2 also lifts it to
 * `ctx.mcpReq._meta`); undefined when there is no `_meta`.
 */
export function metaFields(sdk: SdkVersion, params: unknown, raw: unknown): FieldReader | undefined {
  let meta = record(record(params)?.['_meta']);
  if (meta === undefined && sdk === 'v2') meta = record(record(record(raw)?.['mcpReq'])?.['_meta']);
  if (meta === undefined) return undefined;
  const found = meta;
  return (key) => text(found[key]);
}

/** @internal The name a request names: `params.name`, or `params.ref.name` for a completion of a prompt. */
export function namedTarget(method: string, params: unknown): string | undefined {
  const p = record(params);
  if (method === 'completion/complete') {
    const ref = record(p?.['ref']);
    return ref?.['type'] === 'ref/prompt' ? text(ref['name']) : undefined;
  }
  return text(p?.['name']);
}

/**
 * @internal Runs one SDK request handler inside a telemetry operation (when there is telemetry): `describe` names what
 * the request targets, from its params.
 */
export function tracedHandler(
  ops: Operations | undefined,
  sdk: SdkVersion,
  server: LowLevelServer,
  method: string,
  describe: (params: unknown) => Partial<OperationInfo>,
  handle: (params: unknown, extra: unknown) => Promise<unknown>,
  outcome?: OutcomeOf<unknown>,
): (params: unknown, extra: unknown) => Promise<unknown> {
  if (ops === undefined) return handle;
  return (params, extra) => {
    if (!ops.live()) return handle(params, extra);
    let info: OperationInfo;
    let fields: FieldReader | undefined;
    try {
      info = { ...describe(params), method };
      fields = metaFields(sdk, params, extra);
    } catch {
      return handle(params, extra);
    }
    return ops.run(
      info,
      fields,
      () => handle(params, extra),
      outcome,
      () => requestFields(sdk, server, extra),
    );
  };
}
