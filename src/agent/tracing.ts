/** OpenTelemetry client spans for prompt retrievals (MCP semantic conventions), without importing the API. */

/** The part of an OpenTelemetry `Span` the tool uses. */
export interface SpanLike {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  spanContext(): { traceId: string; spanId: string; traceFlags: number };
  end(): void;
}

/** The part of an OpenTelemetry `Tracer` (`trace.getTracer(name)` from `@opentelemetry/api`) the tool uses. */
export interface TracerLike {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: Record<string, string | number | boolean> },
  ): SpanLike;
}

/** `SpanKind.CLIENT` and `SpanStatusCode.ERROR` of `@opentelemetry/api`. */
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;

/** @internal One retrieval's span: `meta` carries the W3C `traceparent` to send in `params._meta`. */
export interface RetrievalSpan {
  meta: Readonly<Record<string, string>> | undefined;
  /** Ends the span; `errorType` (a JSON-RPC code or the tool's own code) marks it failed. */
  end(errorType: string | undefined): void;
}

/** @internal No tracer, or nothing sent yet. */
export const NO_SPAN: RetrievalSpan = { meta: undefined, end: () => {} };

/** @internal Starts the client span `prompts/get <promptName>` when a tracer is given. */
export function startRetrievalSpan(
  tracer: TracerLike | undefined,
  promptName: string | undefined,
  integrationId: string | undefined,
): RetrievalSpan {
  if (tracer === undefined) return NO_SPAN;
  const attributes: Record<string, string> = { 'mcp.method.name': 'prompts/get' };
  if (promptName !== undefined) attributes['gen_ai.prompt.name'] = promptName;
  if (integrationId !== undefined) attributes['mcp.integration.id'] = integrationId;
  let span: SpanLike;
  try {
    span = tracer.startSpan(promptName === undefined ? 'prompts/get' : `prompts/get ${promptName}`, {
      kind: SPAN_KIND_CLIENT,
      attributes,
    });
  } catch {
    return NO_SPAN; // a broken tracer never breaks a retrieval
  }
  const ctx = span.spanContext();
  const meta =
    /^[0-9a-f]{32}$/.test(ctx.traceId) && /^[0-9a-f]{16}$/.test(ctx.spanId)
      ? { traceparent: `00-${ctx.traceId}-${ctx.spanId}-${(ctx.traceFlags & 0xff).toString(16).padStart(2, '0')}` }
      : undefined;
  return {
    meta,
    end(errorType) {
      try {
        if (errorType !== undefined) {
          span.setAttribute('error.type', errorType);
          if (/^-?\d+$/.test(errorType)) span.setAttribute('rpc.response.status_code', errorType);
          span.setStatus({ code: STATUS_ERROR, message: errorType });
        }
        span.end();
      } catch {
        /* a broken tracer never breaks a retrieval */
      }
    },
  };
}
