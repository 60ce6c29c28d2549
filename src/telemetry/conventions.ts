/**
 * Names from the OpenTelemetry GenAI semantic conventions' MCP section (development status), and the library's own
 * namespaced names where the conventions have none. docs/telemetry.md lists them.
 *
 * @module
 * @internal
 */

/** `SpanKind.SERVER` and `SpanStatusCode.ERROR` of `@opentelemetry/api`. */
export const SPAN_KIND_SERVER = 1;
export const STATUS_ERROR = 2;

/** The instrumentation scope's name (tracer and meter). */
export const SCOPE_NAME = 'mcp-prompt-kit';

export const ATTR = Object.freeze({
  method: 'mcp.method.name',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  transport: 'network.transport',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
  httpStatus: 'http.response.status_code',
  promptName: 'gen_ai.prompt.name',
  promptVersion: 'gen_ai.prompt.version',
  toolName: 'gen_ai.tool.name',
  promptLabel: 'mcp_prompt_kit.prompt.label',
  errorCode: 'mcp_prompt_kit.error.code',
  storeLabel: 'mcp_prompt_kit.store.label',
});

export const METRIC = Object.freeze({
  duration: 'mcp.server.operation.duration',
  validationFailures: 'mcp_prompt_kit.validation.failures',
  syncLag: 'mcp_prompt_kit.store.sync.lag',
});

/** The explicit bucket boundaries the conventions give `mcp.server.operation.duration` (seconds). */
export const DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
]);

/** The propagation fields read from `params._meta` and from HTTP headers. */
export const PROPAGATION_KEYS: readonly string[] = Object.freeze(['traceparent', 'tracestate', 'baggage']);

/** The error codes of argument validation: counted per prompt (or function) and code. */
export const VALIDATION_CODES: ReadonlySet<string> = new Set([
  'PROMPT_ARGUMENT_MISSING',
  'PROMPT_ARGUMENT_INVALID',
  'PROMPT_ARGUMENT_TOO_LONG',
  'FUNCTION_ARGUMENT_MISSING',
  'FUNCTION_ARGUMENT_INVALID',
  'FUNCTION_ARGUMENT_TOO_LONG',
]);
