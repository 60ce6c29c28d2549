/**
 * Telemetry cost (`BENCH_ONLY=telemetry`): prompts/get through attachPrompts' SDK v1 handler (no transport: the
 * adapter's own work is all that is timed) and through the fetch handler, without telemetry, with telemetry wired
 * but no OpenTelemetry SDK registered (the API's no-op), and with the SDK recording every span into an in-memory
 * exporter and every duration into a metric reader; each variant in fresh processes of its own.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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

/** One variant's µs per call (sdk handler, fetch handler), measured alone in this process. */
async function measureVariant(variant: number, quick: boolean): Promise<[number, number]> {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = [
    undefined,
    core.createTelemetry({ api }),
    core.createTelemetry({ api, tracerProvider, meterProvider }),
  ][variant];
  const request = { method: 'prompts/get', params: { name: 'review_code', arguments: REVIEW_ARGS } };
  const extra = {
    signal: new AbortController().signal,
    requestId: 1,
    sendNotification: async () => {},
    sendRequest: async () => ({}),
  };
  const body = JSON.stringify(REVIEW_ARGS);
  const sdk = sdkHandler(telemetry);
  const fetch = fetchHandler(telemetry);
  const samples: [number, number][] = [];
  for (let pass = 0; pass < (quick ? 1 : 2); pass++) {
    const bench = new Bench({ time: quick ? 300 : 800, warmupTime: 200 });
    bench.add('sdk', async () => {
      for (let k = 0; k < SDK_BATCH; k++) await sdk(request, extra);
      exporter.reset();
    });
    bench.add('fetch', async () => {
      for (let k = 0; k < FETCH_BATCH; k++) {
        await fetch(
          new Request('http://127.0.0.1/prompts/review_code', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          }),
        );
      }
      exporter.reset();
    });
    await bench.run();
    await reader.collect(); // the metric reader drains what was recorded, as an exporter would
    const [a, b] = bench.tasks.map((t) => (t.result?.latency.p50 ?? Number.NaN) * 1000);
    samples.push([a! / SDK_BATCH, b! / FETCH_BATCH]);
  }
  return [median(samples.map((x) => x[0])), median(samples.map((x) => x[1]))];
}

const SDK_BATCH = 64;
const FETCH_BATCH = 8;
const VARIANTS = ['without telemetry', 'telemetry, no SDK', 'telemetry, SDK + in-memory exporter'] as const;

/**
 * Each variant in fresh processes of its own (in production a process runs one of them; sharing a process would let
 * V8's type feedback of one variant slow another), seven rounds of all three in turn. The times shown are the fastest
 * process per variant; the gate is the median of each round's ratio (one process's time here moves 2x between
 * processes, and the processes of a round run side by side in time).
 */
export async function benchTelemetry(record: RecordRow, quick: boolean): Promise<void> {
  const results: [number, number][][] = [[], [], []];
  for (let round = 0; round < (quick ? 1 : 7); round++) {
    for (let v = 0; v < VARIANTS.length; v++) {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url)],
        {
          env: { ...process.env, BENCH_TELEMETRY_CHILD: String(v), BENCH_QUICK: quick ? '1' : '0' },
          maxBuffer: 1 << 20,
        },
      );
      results[v]!.push(JSON.parse(stdout.trim().split('\n').pop()!) as [number, number]);
    }
  }
  const per = results.map((r) => [Math.min(...r.map((x) => x[0])), Math.min(...r.map((x) => x[1]))] as const);
  for (const [i, where] of ['attachPrompts (SDK v1 handler)', 'createFetchHandler'].entries()) {
    const base = per[0]![i]!;
    const ratio = median(results[1]!.map((r, round) => r[i]! / results[0]![round]![i]!));
    record(
      `prompts/get via ${where}, telemetry without an SDK`,
      base * ratio,
      base,
      'µs',
      '<= 1.05x without telemetry (paired)',
      ratio <= 1.05,
      'without telemetry',
    );
    record(
      `prompts/get via ${where}, telemetry with the SDK (in-memory exporter)`,
      per[2]![i]!,
      base,
      'µs',
      'info: cost of recording',
      true,
      'without telemetry',
    );
  }
  console.log(
    'telemetry µs per call [sdk handler, fetch handler] per process:',
    Object.fromEntries(VARIANTS.map((name, v) => [name, results[v]!.map((x) => x.map((n) => +n.toFixed(3)))])),
  );
}

if (process.env['BENCH_TELEMETRY_CHILD'] !== undefined) {
  const variant = Number(process.env['BENCH_TELEMETRY_CHILD']);
  console.log(JSON.stringify(await measureVariant(variant, process.env['BENCH_QUICK'] === '1')));
  process.exit(0);
}
