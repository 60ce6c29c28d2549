import * as api from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { PromptRegistry, createTelemetry } from 'mcp-prompt-kit';
import { createFetchHandler } from 'mcp-prompt-kit/http';

// What the application's OpenTelemetry set-up registers (NodeSDK.start() does the same): a propagator, a provider.
api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const spans = new InMemorySpanExporter(); // an OTLP exporter in production
api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));

const prompts = new PromptRegistry();
prompts.add({
  name: 'greet',
  arguments: [{ name: 'who', required: true }],
  messages: [{ role: 'user', content: 'Say hello to {{who}}.' }],
});
const telemetry = createTelemetry({ api }); // once the SDK is set up: its global providers
const handle = createFetchHandler(prompts, { telemetry }); // attachPrompts(server, prompts, { telemetry }) alike

const response = await handle(
  new Request('http://localhost/prompts/greet', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    },
    body: JSON.stringify({ who: 'Ada' }),
  }),
);
const [span] = spans.getFinishedSpans();
console.log(response.status, span?.name, span?.spanContext().traceId); // 200 prompts/get greet 4bf92f35…

// What docs/telemetry.md promises (run by test/readme.test.ts): one SERVER span in the caller's trace.
import assert from 'node:assert/strict';

assert.equal(response.status, 200);
assert.equal(span?.name, 'prompts/get greet');
assert.equal(span?.kind, api.SpanKind.SERVER);
assert.equal(span?.spanContext().traceId, '4bf92f3577b34da6a3ce929d0e0e4736');
assert.equal(span?.parentSpanContext?.spanId, '00f067aa0ba902b7');
assert.equal(span?.attributes['http.response.status_code'], 200);
api.trace.disable();
api.propagation.disable();
