/**
 * The parts of `@opentelemetry/api` the server telemetry uses, typed structurally: the library never imports the API
 * (an optional peer dependency); the caller hands it over (`import * as api from '@opentelemetry/api'`).
 *
 * @module
 */

/** A span or metric attribute value (the scalar kinds the library records). */
export type TelemetryAttributeValue = string | number | boolean;

/** Span and metric attributes. */
export type TelemetryAttributes = Record<string, TelemetryAttributeValue>;

/** An OpenTelemetry `Context` (opaque here). */
export type TelemetryContext = object;

/** The part of an OpenTelemetry `Span` the server telemetry uses. */
export interface TelemetrySpan {
  setAttribute(key: string, value: TelemetryAttributeValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  isRecording(): boolean;
  spanContext(): { traceId: string; spanId: string };
  end(): void;
}

/** The part of an OpenTelemetry `Tracer` the server telemetry uses. */
export interface TelemetryTracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: TelemetryAttributes },
    context?: TelemetryContext,
  ): TelemetrySpan;
}

/** An OpenTelemetry `TracerProvider` (the SDK's, or `api.trace` for the global one). */
export interface TelemetryTracerProvider {
  getTracer(name: string, version?: string): TelemetryTracer;
}

/** An OpenTelemetry `Histogram`. */
export interface TelemetryHistogram {
  record(value: number, attributes?: TelemetryAttributes): void;
}

/** An OpenTelemetry `Counter`. */
export interface TelemetryCounter {
  add(value: number, attributes?: TelemetryAttributes): void;
}

/** What an observable instrument's callback is given. */
export interface TelemetryObservableResult {
  observe(value: number, attributes?: TelemetryAttributes): void;
}

/** An OpenTelemetry `ObservableGauge`. */
export interface TelemetryObservableGauge {
  addCallback(callback: (result: TelemetryObservableResult) => void): void;
  removeCallback(callback: (result: TelemetryObservableResult) => void): void;
}

/** Options of an instrument (`advice.explicitBucketBoundaries` for histograms). */
export interface TelemetryInstrumentOptions {
  description?: string;
  unit?: string;
  advice?: { explicitBucketBoundaries?: number[] };
}

/** The part of an OpenTelemetry `Meter` the server telemetry uses. */
export interface TelemetryMeter {
  createHistogram(name: string, options?: TelemetryInstrumentOptions): TelemetryHistogram;
  createCounter(name: string, options?: TelemetryInstrumentOptions): TelemetryCounter;
  createObservableGauge(name: string, options?: TelemetryInstrumentOptions): TelemetryObservableGauge;
}

/** An OpenTelemetry `MeterProvider` (the SDK's, or `api.metrics` for the global one). */
export interface TelemetryMeterProvider {
  getMeter(name: string, version?: string): TelemetryMeter;
}

/** Reads one propagation field (`traceparent`, `tracestate`, `baggage`) from a carrier. */
export interface TelemetryGetter<Carrier> {
  get(carrier: Carrier, key: string): undefined | string | string[];
  keys(carrier: Carrier): string[];
}

/**
 * The parts of the `@opentelemetry/api` module the server telemetry uses: pass the module itself
 * (`import * as api from '@opentelemetry/api'`). Its global tracer and meter providers, propagator and context
 * manager are the ones the application registered (`NodeSDK.start()` and friends).
 */
export interface OpenTelemetryApi {
  trace: TelemetryTracerProvider & {
    setSpan(context: TelemetryContext, span: TelemetrySpan): TelemetryContext;
    /** The global provider: a proxy whose delegate is the API's no-op provider until an SDK registers one. */
    getTracerProvider?(): TelemetryTracerProvider & { getDelegate?(): unknown };
  };
  metrics: TelemetryMeterProvider;
  context: {
    active(): TelemetryContext;
    with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
      context: TelemetryContext,
      fn: F,
      thisArg?: ThisParameterType<F>,
      ...args: A
    ): ReturnType<F>;
  };
  propagation: {
    extract<Carrier>(context: TelemetryContext, carrier: Carrier, getter?: TelemetryGetter<Carrier>): TelemetryContext;
  };
  /** The API's no-op meter (what `api.metrics` hands out while no SDK is registered). */
  createNoopMeter?(): unknown;
  /** The API's proxy provider class: a fresh one's delegate is the API's no-op tracer provider. */
  ProxyTracerProvider?: new () => { getDelegate(): unknown };
}
