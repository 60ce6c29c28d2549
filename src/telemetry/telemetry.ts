/**
 * `createTelemetry`: OpenTelemetry server spans, metrics and one log event per MCP operation, for the adapters in
 * `mcp-prompt-kit/mcp` and `mcp-prompt-kit/http`. The API module is handed over by the caller: nothing here imports
 * it, and nothing is global to the library.
 *
 * @module
 */
import { ERROR_TABLE, JsonRpcError, echoed, errorClassName, tableCodeOf } from '../errors.js';
import { toSafeLogger } from '../logger.js';
import type { Logger, SafeLogger } from '../logger.js';
import type {
  OpenTelemetryApi,
  TelemetryAttributes,
  TelemetryContext,
  TelemetryCounter,
  TelemetryGetter,
  TelemetryHistogram,
  TelemetryMeterProvider,
  TelemetryObservableResult,
  TelemetryTracer,
  TelemetryTracerProvider,
} from './api.js';
import {
  ATTR,
  DURATION_BUCKETS,
  METRIC,
  PROPAGATION_KEYS,
  SCOPE_NAME,
  SPAN_KIND_SERVER,
  STATUS_ERROR,
  VALIDATION_CODES,
} from './conventions.js';

/** Options of {@link createTelemetry}. */
export interface TelemetryOptions {
  /** The `@opentelemetry/api` module (`import * as api from '@opentelemetry/api'`). */
  api: OpenTelemetryApi;
  /** Where spans go (default: the global one the application registered, through `api.trace`). */
  tracerProvider?: TelemetryTracerProvider;
  /**
   * Where metrics go (default: the global one, through `api.metrics`, read when `createTelemetry` is called: create
   * the telemetry after the OpenTelemetry SDK has started).
   */
  meterProvider?: TelemetryMeterProvider;
  /** pino-style logger: one `mcp_operation` event per operation served (docs/telemetry.md, "Log events"). */
  logger?: Logger;
}

/** What a synced store exposes for the lag gauge: `RegistrySync` from `syncRegistry`. */
export interface SyncLagSource {
  /** The label followed (undefined: the store's default). */
  readonly label: string | undefined;
  /** Milliseconds the oldest change seen but not yet applied has waited (0 when caught up). */
  readonly lagMs: number;
}

/** The telemetry of one or more adapters; see {@link createTelemetry}. */
export interface Telemetry {
  /**
   * Reports `mcp_prompt_kit.store.sync.lag` (seconds, a gauge) for a running `syncRegistry`, labelled with the label
   * it follows. Returns the function that stops reporting it.
   */
  observeSync(sync: SyncLagSource): () => void;
}

/** @internal What one MCP operation is, as an adapter read it from the request. */
export interface OperationInfo {
  /** `mcp.method.name`. */
  method: string;
  /** A low-cardinality target for the span name and the metric (a prompt or tool the server has); else none. */
  target?: string | undefined;
  promptName?: string | undefined;
  toolName?: string | undefined;
  resourceUri?: string | undefined;
  requestId?: string | number | undefined;
  sessionId?: string | undefined;
  protocolVersion?: string | undefined;
  transport?: string | undefined;
  /** The store version and label of the prompt served, when it came from a store. */
  version?: string | number | undefined;
  label?: string | undefined;
  /** Served over the HTTP routes: the span carries `http.response.status_code` from the error table. */
  http?: boolean;
}

/** @internal Reads a propagation field (`traceparent`, ...) from where the request carries it. */
export type FieldReader = (key: string) => string | undefined;

/** @internal How an operation failed: `error.type`, the JSON-RPC code, the table code, the HTTP status. */
export interface Failure {
  errorType: string;
  rpcCode?: string | undefined;
  code?: string | undefined;
  httpStatus?: number | undefined;
}

/** @internal How an operation that did not throw still failed (a tool result with `isError`). */
export type OutcomeOf<T> = (result: T) => Failure | undefined;

/** @internal What an adapter runs its operations through. */
export interface Operations {
  /**
   * Serves one operation inside its span. `details` adds what only a recorded operation needs (request id, session,
   * store version, ...): it is not called while the API is a no-op.
   */
  run<T>(
    info: OperationInfo,
    fields: FieldReader | undefined,
    serve: () => Promise<T>,
    outcome?: OutcomeOf<T>,
    details?: () => Partial<OperationInfo>,
  ): Promise<T>;
  /**
   * Whether anything would be recorded now: false while no OpenTelemetry SDK is registered (and no logger given),
   * when adapters serve without describing the operation at all.
   */
  live(): boolean;
}

const GETTER: TelemetryGetter<FieldReader> = {
  get: (read, key) => read(key),
  keys: (read) => PROPAGATION_KEYS.filter((key) => read(key) !== undefined),
};

const now: () => number =
  typeof performance !== 'undefined' && typeof performance.now === 'function'
    ? () => performance.now()
    : () => Date.now();

/** The operations of each telemetry made by createTelemetry (adapters refuse anything else). */
const operations = new WeakMap<Telemetry, Operations>();

/** @internal The operations of a telemetry option; a TypeError naming the owner when it was not made here. */
export function operationsOf(owner: string, telemetry: unknown): Operations | undefined {
  if (telemetry === undefined) return undefined;
  const found =
    typeof telemetry === 'object' && telemetry !== null ? operations.get(telemetry as Telemetry) : undefined;
  if (found === undefined) throw new TypeError(`${owner}: options.telemetry must come from createTelemetry()`);
  return found;
}

/** Which failure an error is, for `error.type`, `rpc.response.status_code` and the library's own code. */
function describeError(error: unknown): Failure {
  const code = tableCodeOf(error);
  if (code !== undefined && Object.hasOwn(ERROR_TABLE, code)) {
    const rpc = String(ERROR_TABLE[code].rpcCode);
    return { errorType: rpc, rpcCode: rpc, code, httpStatus: ERROR_TABLE[code].httpStatus };
  }
  const wire = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (error instanceof JsonRpcError || (typeof wire === 'number' && Number.isInteger(wire))) {
    const rpc = String(wire);
    return { errorType: rpc, rpcCode: rpc, code: undefined };
  }
  return { errorType: errorClassName(error), rpcCode: undefined, code: undefined };
}

class OperationRecorder implements Operations {
  readonly #api: OpenTelemetryApi;
  readonly #tracer: TelemetryTracer;
  readonly #duration: TelemetryHistogram;
  readonly #failures: TelemetryCounter;
  readonly #log: SafeLogger;
  readonly #logs: boolean;
  /** Whether durations are measured: a meter that records, or a logger. */
  readonly #timed: boolean;
  /** Whether the tracer may record (an SDK's provider is registered, or one was given). */
  readonly #tracing: () => boolean = () => true;

  constructor(options: TelemetryOptions, meter: ReturnType<TelemetryMeterProvider['getMeter']>) {
    this.#api = options.api;
    const api = options.api;
    const provider = options.tracerProvider ?? api.trace.getTracerProvider?.() ?? api.trace;
    this.#tracer = provider.getTracer(SCOPE_NAME);
    // The global provider is a proxy: while its delegate is the API's no-op provider, no span can record.
    const proxy = provider as { getDelegate?: () => unknown };
    if (options.tracerProvider === undefined && typeof proxy.getDelegate === 'function') {
      const Proxy = api.ProxyTracerProvider;
      const noop = typeof Proxy === 'function' ? new Proxy().getDelegate() : undefined;
      if (noop !== undefined) this.#tracing = () => proxy.getDelegate!() !== noop;
    }
    this.#duration = meter.createHistogram(METRIC.duration, {
      description: 'MCP request duration as observed on the receiver, from receipt until the result is sent.',
      unit: 's',
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
    });
    this.#failures = meter.createCounter(METRIC.validationFailures, {
      description: 'Requests refused by argument validation, per prompt or function and error code.',
      unit: '{failure}',
    });
    this.#log = toSafeLogger(options.logger);
    this.#logs = options.logger !== undefined;
    // The API hands out its no-op meter while no SDK is registered: then nothing is timed or counted.
    const noop = typeof options.api.createNoopMeter === 'function' ? options.api.createNoopMeter() : undefined;
    this.#timed = meter !== noop || this.#logs;
  }

  live(): boolean {
    return this.#timed || this.#tracing();
  }

  run<T>(
    info: OperationInfo,
    fields: FieldReader | undefined,
    serve: () => Promise<T>,
    outcome?: OutcomeOf<T>,
    details?: () => Partial<OperationInfo>,
  ): Promise<T> {
    const started = this.#timed ? now() : 0;
    const api = this.#api;
    let span: ReturnType<TelemetryTracer['startSpan']> | undefined;
    let parent: TelemetryContext | undefined;
    let recording = false;
    try {
      parent = api.context.active();
      if (fields !== undefined && hasPropagation(fields)) parent = api.propagation.extract(parent, fields, GETTER);
      const target = info.target;
      span = this.#tracer.startSpan(
        target === undefined ? info.method : `${info.method} ${target}`,
        { kind: SPAN_KIND_SERVER, attributes: { [ATTR.method]: info.method } },
        parent,
      );
      recording = span.isRecording();
    } catch {
      span = undefined; // a broken tracer never breaks a request
    }
    if (!recording && !this.#timed) {
      // The API's no-op (no SDK registered, or a span sampled out and no meter): nothing to wait for.
      try {
        span?.end();
      } catch {
        /* a broken tracer never breaks a request */
      }
      return serve();
    }
    let context: TelemetryContext | undefined;
    try {
      if (details !== undefined) Object.assign(info, details());
      if (recording && span !== undefined && parent !== undefined) {
        setSpanAttributes(span, info);
        context = api.trace.setSpan(parent, span);
      }
    } catch {
      /* a broken SDK never breaks a request */
    }
    let pending: Promise<T>;
    try {
      pending = context === undefined ? serve() : this.#api.context.with(context, serve);
    } catch (error) {
      pending = Promise.reject(error);
    }
    return pending.then(
      (result) => {
        let failed: ReturnType<OutcomeOf<T>>;
        try {
          failed = outcome?.(result);
        } catch {
          failed = undefined;
        }
        this.#finish(info, span, started, failed);
        return result;
      },
      (error: unknown) => {
        this.#finish(info, span, started, describeError(error));
        throw error;
      },
    );
  }

  #finish(
    info: OperationInfo,
    span: ReturnType<TelemetryTracer['startSpan']> | undefined,
    started: number,
    failure: Failure | undefined,
  ): void {
    const seconds = this.#timed ? (now() - started) / 1000 : 0;
    try {
      if (span !== undefined) {
        if (info.http === true && span.isRecording()) {
          span.setAttribute(ATTR.httpStatus, failure === undefined ? 200 : (failure.httpStatus ?? 500));
        }
        if (failure !== undefined && span.isRecording()) {
          span.setAttribute(ATTR.errorType, failure.errorType);
          if (failure.rpcCode !== undefined) span.setAttribute(ATTR.statusCode, failure.rpcCode);
          if (failure.code !== undefined) span.setAttribute(ATTR.errorCode, failure.code);
          span.setStatus({ code: STATUS_ERROR, message: failure.code ?? failure.errorType });
        }
        span.end();
      }
      const attributes: TelemetryAttributes = { [ATTR.method]: info.method };
      if (info.target !== undefined) {
        if (info.toolName !== undefined) attributes[ATTR.toolName] = info.target;
        else attributes[ATTR.promptName] = info.target;
      }
      if (info.transport !== undefined) attributes[ATTR.transport] = info.transport;
      if (info.protocolVersion !== undefined) attributes[ATTR.protocolVersion] = echoed(info.protocolVersion);
      if (failure !== undefined) {
        attributes[ATTR.errorType] = failure.errorType;
        if (failure.rpcCode !== undefined) attributes[ATTR.statusCode] = failure.rpcCode;
      }
      if (this.#timed) this.#duration.record(seconds, attributes);
      // Counted for targets the server has only: unknown names sent by a client never become metric series.
      if (failure?.code !== undefined && VALIDATION_CODES.has(failure.code) && info.target !== undefined) {
        this.#failures.add(1, {
          [info.toolName !== undefined ? ATTR.toolName : ATTR.promptName]: info.target,
          [ATTR.errorType]: failure.code,
        });
      }
      if (this.#logs) this.#logOperation(info, span, seconds, failure);
    } catch {
      /* a broken SDK never breaks a request */
    }
  }

  #logOperation(
    info: OperationInfo,
    span: ReturnType<TelemetryTracer['startSpan']> | undefined,
    seconds: number,
    failure: Failure | undefined,
  ): void {
    const fields: Record<string, unknown> = {
      event: 'mcp_operation',
      method: info.method,
      target: info.target ?? null,
      durationMs: Math.round(seconds * 1e6) / 1e3,
      status: failure === undefined ? 'ok' : 'error',
    };
    if (failure !== undefined) {
      fields['errorType'] = failure.errorType;
      if (failure.code !== undefined) fields['code'] = failure.code;
    }
    if (info.requestId !== undefined) fields['requestId'] = info.requestId;
    if (info.sessionId !== undefined) fields['sessionId'] = info.sessionId;
    if (info.version !== undefined) fields['version'] = info.version;
    const ids = span?.spanContext();
    if (ids !== undefined && /^[0-9a-f]{32}$/.test(ids.traceId) && !/^0+$/.test(ids.traceId)) {
      fields['traceId'] = ids.traceId;
      fields['spanId'] = ids.spanId;
    }
    this.#log.info(fields, 'MCP operation');
  }
}

function hasPropagation(read: FieldReader): boolean {
  return read('traceparent') !== undefined || read('baggage') !== undefined;
}

function setSpanAttributes(span: ReturnType<TelemetryTracer['startSpan']>, info: OperationInfo): void {
  if (info.promptName !== undefined) span.setAttribute(ATTR.promptName, echoed(info.promptName));
  if (info.toolName !== undefined) span.setAttribute(ATTR.toolName, echoed(info.toolName));
  if (info.resourceUri !== undefined) span.setAttribute(ATTR.resourceUri, echoed(info.resourceUri));
  if (info.requestId !== undefined)
    span.setAttribute(
      ATTR.requestId,
      typeof info.requestId === 'string' ? echoed(info.requestId) : String(info.requestId),
    );
  if (info.sessionId !== undefined) span.setAttribute(ATTR.sessionId, echoed(info.sessionId));
  if (info.protocolVersion !== undefined) span.setAttribute(ATTR.protocolVersion, echoed(info.protocolVersion));
  if (info.transport !== undefined) span.setAttribute(ATTR.transport, info.transport);
  if (info.version !== undefined) span.setAttribute(ATTR.promptVersion, String(info.version));
  if (info.label !== undefined) span.setAttribute(ATTR.promptLabel, echoed(info.label));
}

/**
 * OpenTelemetry for the server side: pass the result as `telemetry` to `attachPrompts`, `attachResources`,
 * `attachFunctions` and the HTTP handlers. Each operation (prompts/get, prompts/list, completion/complete,
 * resources/read, tools/call) gets a SERVER span named by the MCP semantic conventions, joined to the caller's
 * trace from `params._meta` (or the HTTP `traceparent` header) through the registered propagator; its duration goes
 * to `mcp.server.operation.duration`, argument validation failures to `mcp_prompt_kit.validation.failures`. Argument
 * values are never recorded. Without an OpenTelemetry SDK registered, every call is a no-op of the API.
 *
 * @example
 * ```ts
 * import * as api from '@opentelemetry/api';
 * import { PromptRegistry, createTelemetry } from 'mcp-prompt-kit';
 * import { createFetchHandler } from 'mcp-prompt-kit/http';
 *
 * const telemetry = createTelemetry({ api }); // the providers the application registered
 * const handle = createFetchHandler({ prompts: new PromptRegistry() }, { telemetry });
 * ```
 */
export function createTelemetry(options: TelemetryOptions): Telemetry {
  const api = (options as Partial<TelemetryOptions> | undefined)?.api;
  if (
    typeof api !== 'object' ||
    api === null ||
    typeof api.trace?.getTracer !== 'function' ||
    typeof api.context?.with !== 'function' ||
    typeof api.propagation?.extract !== 'function' ||
    typeof api.metrics?.getMeter !== 'function'
  ) {
    throw new TypeError(
      "createTelemetry: options.api must be the @opentelemetry/api module (import * as api from '@opentelemetry/api')",
    );
  }
  if (options.logger !== undefined && (typeof options.logger !== 'object' || options.logger === null)) {
    throw new TypeError('createTelemetry: options.logger must be a pino-style logger object');
  }
  const meter = (options.meterProvider ?? api.metrics).getMeter(SCOPE_NAME);
  const recorder = new OperationRecorder(options, meter);
  let lag: ReturnType<typeof meter.createObservableGauge> | undefined;
  const telemetry: Telemetry = {
    observeSync(sync) {
      if (typeof sync !== 'object' || sync === null || typeof sync.lagMs !== 'number') {
        throw new TypeError('telemetry.observeSync: sync must be what syncRegistry() returned');
      }
      lag ??= meter.createObservableGauge(METRIC.syncLag, {
        description: 'How long the oldest store change seen but not yet served has waited (0 when caught up).',
        unit: 's',
      });
      const gauge = lag;
      const attributes: TelemetryAttributes = sync.label === undefined ? {} : { [ATTR.storeLabel]: echoed(sync.label) };
      const callback = (result: TelemetryObservableResult): void => {
        result.observe(sync.lagMs / 1000, attributes);
      };
      gauge.addCallback(callback);
      let observed = true;
      return () => {
        if (!observed) return;
        observed = false;
        gauge.removeCallback(callback);
      };
    },
  };
  operations.set(telemetry, recorder);
  return telemetry;
}
