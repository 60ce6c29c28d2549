/** The real OpenTelemetry SDK wired for tests: in-memory spans, a pull metric reader, a recording logger. */
import * as api from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { DataPoint, MetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createTelemetry } from '../../src/telemetry/index.js';
import type { Telemetry } from '../../src/telemetry/index.js';

/** A reader the test pulls from (`collect()`), as an exporter would on its interval. */
class PullReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** Registers the W3C trace-context and baggage propagators globally; returns the function that removes them. */
export function registerPropagators(): () => void {
  api.propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  return () => api.propagation.disable();
}

export interface LoggedLine {
  level: string;
  fields: Record<string, unknown>;
  message: string;
}

export interface Otel {
  telemetry: Telemetry;
  tracerProvider: BasicTracerProvider;
  spans(): ReadableSpan[];
  metrics(): Promise<MetricData[]>;
  /** The data points of one metric by name ([] when it recorded nothing). */
  points(name: string): Promise<DataPoint<unknown>[]>;
  logs: LoggedLine[];
}

export function otel(): Otel {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const logs: LoggedLine[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) =>
    void logs.push({ level, fields, message });
  const logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  const telemetry = createTelemetry({ api, tracerProvider, meterProvider, logger });
  const metrics = async (): Promise<MetricData[]> => {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
  };
  return {
    telemetry,
    tracerProvider,
    spans: () => exporter.getFinishedSpans(),
    metrics,
    points: async (name) => (await metrics()).find((m) => m.descriptor.name === name)?.dataPoints ?? [],
    logs,
  };
}

/** The single finished span named `name`. */
export function spanNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`expected one span '${name}', got ${spans.map((s) => s.name).join(', ')}`);
  return found[0]!;
}

export const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
export const PARENT_SPAN_ID = '00f067aa0ba902b7';
export const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;
