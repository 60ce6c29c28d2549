/**
 * Server telemetry (OpenTelemetry spans, metrics and log events) without importing `@opentelemetry/api`.
 *
 * @module
 */
export { createTelemetry } from './telemetry.js';
export type { SyncLagSource, Telemetry, TelemetryOptions } from './telemetry.js';
export type {
  OpenTelemetryApi,
  TelemetryAttributeValue,
  TelemetryAttributes,
  TelemetryContext,
  TelemetryCounter,
  TelemetryGetter,
  TelemetryHistogram,
  TelemetryInstrumentOptions,
  TelemetryMeter,
  TelemetryMeterProvider,
  TelemetryObservableGauge,
  TelemetryObservableResult,
  TelemetrySpan,
  TelemetryTracer,
  TelemetryTracerProvider,
} from './api.js';
