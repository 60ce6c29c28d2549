/**
 * Telemetry cost (`BENCH_ONLY=telemetry`): prompts/get through attachPrompts' SDK v1 handler (no transport: the
 * adapter's own work is all that is timed) and through the fetch handler, without telemetry, with telemetry wired
 * but no OpenTelemetry SDK registered (the API's no-op), and with the SDK recording every span into an in-memory
 * exporter and every duration into a metric reader.
 */
import * as api from '@opentelemetry/api';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Bench } from 'tinybench';
import { REVIEW_ARGS, reviewCodeDefinition } from './fixtures.js';
import { median } from './fs.js';
import type { RecordRow } from './fs.js';

const core = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof import('../src/index.js');
const mcp = (await import(new URL('../dist/mcp.js', import.meta.url).href)) as typeof import('../src/mcp/index.js');
const http = (await import(new URL('../dist/http.js', import.meta.url).href)) as typeof import('../src/http/index.js');

type Telemetry = import('../src/index.js').Telemetry;
type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

class PullReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

function sdkHandler(telemetry: Telemetry | undefined): Handler {
  const registry = new core.PromptRegistry();
  registry.add(reviewCodeDefinition());
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  mcp.attachPrompts(server, registry, telemetry === undefined ? {} : { telemetry });
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  return handlers.get('prompts/get')!;
}

function fetchHandler(telemetry: Telemetry | undefined): (request: Request) => Promise<Response> {
  const registry = new core.PromptRegistry();
  registry.add(reviewCodeDefinition());
  return http.createFetchHandler(registry, { allowedHosts: ['*'], ...(telemetry === undefined ? {} : { telemetry }) });
}

export async function benchTelemetry(record: RecordRow, quick: boolean): Promise<void> {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const variants: [string, Telemetry | undefined][] = [
    ['without telemetry', undefined],
    ['telemetry, no SDK', core.createTelemetry({ api })],
    ['telemetry, SDK + in-memory exporter', core.createTelemetry({ api, tracerProvider, meterProvider })],
  ];
  const request = { method: 'prompts/get', params: { name: 'review_code', arguments: REVIEW_ARGS } };
  const extra = {
    signal: new AbortController().signal,
    requestId: 1,
    sendNotification: async () => {},
    sendRequest: async () => ({}),
  };
  const body = JSON.stringify(REVIEW_ARGS);
  const BATCH = 64;
  const passes: Map<string, number>[] = [];
  for (let pass = 0; pass < (quick ? 1 : 5); pass++) {
    const bench = new Bench({ time: quick ? 300 : 800, warmupTime: 200 });
    for (const [name, telemetry] of variants) {
      const handle = sdkHandler(telemetry);
      bench.add(`sdk handler: ${name}`, async () => {
        for (let k = 0; k < BATCH; k++) await handle(request, extra);
        exporter.reset();
      });
    }
    for (const [name, telemetry] of variants) {
      const handle = fetchHandler(telemetry);
      bench.add(`fetch handler: ${name}`, async () => {
        for (let k = 0; k < 8; k++) {
          await handle(
            new Request('http://127.0.0.1/prompts/review_code', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body,
            }),
          );
        }
        exporter.reset();
      });
    }
    await bench.run();
    passes.push(
      new Map(bench.tasks.map((t) => [t.name, (t.result?.latency.p50 ?? Number.NaN) * 1000] as [string, number])),
    );
    await reader.collect(); // the metric reader drains what was recorded, as an exporter would
  }
  const t = new Map([...passes[0]!.keys()].map((name) => [name, median(passes.map((p) => p.get(name)!))]));
  for (const [where, perCall] of [
    ['sdk handler', BATCH],
    ['fetch handler', 8],
  ] as const) {
    const base = t.get(`${where}: without telemetry`)! / perCall;
    const noSdk = t.get(`${where}: telemetry, no SDK`)! / perCall;
    const sdk = t.get(`${where}: telemetry, SDK + in-memory exporter`)! / perCall;
    record(
      `prompts/get via ${where === 'sdk handler' ? 'attachPrompts (SDK v1 handler)' : 'createFetchHandler'}, telemetry without an SDK`,
      noSdk,
      base,
      'µs',
      '<= 1.05x without telemetry',
      noSdk <= 1.05 * base,
      'without telemetry',
    );
    record(
      `prompts/get via ${where === 'sdk handler' ? 'attachPrompts (SDK v1 handler)' : 'createFetchHandler'}, telemetry with the SDK (in-memory exporter)`,
      sdk,
      base,
      'µs',
      'info: cost of recording',
      true,
      'without telemetry',
    );
  }
  console.log(
    'telemetry µs per call:',
    Object.fromEntries([...t].map(([k, v]) => [k, +(v / (k.startsWith('sdk') ? BATCH : 8)).toFixed(3)])),
  );
}
