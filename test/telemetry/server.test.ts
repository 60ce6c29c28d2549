import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import * as api from '@opentelemetry/api';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPromptRetrievalTool } from '../../src/agent/index.js';
import { FunctionRegistry, defineFunction } from '../../src/functions/index.js';
import { createNodeHandler, runCgi } from '../../src/http/index.js';
import { attachFunctions, attachPrompts, attachResources } from '../../src/mcp/index.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import { PromptError } from '../../src/errors.js';
import type { ResourceSource } from '../../src/mcp/index.js';
import { createMemoryPromptStore, syncRegistry } from '../../src/stores/index.js';
import type { PromptStore } from '../../src/stores/index.js';
import { createTelemetry } from '../../src/telemetry/index.js';
import type { Telemetry } from '../../src/telemetry/index.js';
import { waitFor } from '../support/wait.js';
import { PARENT_SPAN_ID, TRACEPARENT, TRACE_ID, otel, registerPropagators, spanNamed } from './fixtures.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});
let unregister: () => void = () => {};
beforeAll(() => {
  unregister = registerPropagators();
});
afterAll(() => unregister());

const SECRET = 'S3CRET-value-never-recorded';

function registry(): PromptRegistry {
  const r = new PromptRegistry();
  r.add([
    {
      name: 'greet',
      arguments: [
        { name: 'who', required: true },
        { name: 'token', pattern: '^[a-z]+$', maxLength: 40 },
        { name: 'tone', enum: ['dry', 'warm'] },
      ],
      messages: [{ role: 'user', content: 'Say hello to {{who}}{{#token}} ({{token}}){{/token}}.' }],
    },
    {
      name: 'broken',
      render: () => {
        throw new Error(`render failed near ${SECRET}`);
      },
    },
  ]);
  return r;
}

function functions(): FunctionRegistry {
  return new FunctionRegistry().add(
    defineFunction({
      name: 'Add',
      arguments: [
        { name: 'x', type: 'number', required: true },
        { name: 'y', type: 'number', required: true },
      ],
      run: ({ x, y }) => x + y,
    }),
  );
}

type AnyClient = ClientV1 | ClientV2;

/** A real SDK client connected in memory to a server serving prompts, resources and functions with telemetry. */
async function connected(kind: 'v1' | 'v2', telemetry: Telemetry, prompts = registry()): Promise<AnyClient> {
  const info = { name: 'telemetry-test', version: '1.0.0' };
  const resources: ResourceSource = {
    listResources: () => [{ uri: 'docs://adr/1', name: 'adr-1' }],
    readResource: (uri) => {
      if (uri !== 'docs://adr/1') throw new PromptError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}`);
      return { contents: [{ uri, text: 'Use PostgreSQL.' }] };
    },
  };
  if (kind === 'v1') {
    const server = new McpServerV1(info);
    attachPrompts(server, prompts, { debounceMs: 0, telemetry });
    attachResources(server, resources, { telemetry });
    attachFunctions(server, functions(), { telemetry });
    const client = new ClientV1(info);
    const [c, s] = InMemoryV1.createLinkedPair();
    await server.connect(s);
    await client.connect(c);
    cleanup.push(() => client.close());
    return client;
  }
  const server = new McpServerV2(info);
  attachPrompts(server, prompts, { debounceMs: 0, telemetry });
  attachResources(server, resources, { telemetry });
  attachFunctions(server, functions(), { telemetry });
  const client = new ClientV2(info);
  const [c, s] = InMemoryV2.createLinkedPair();
  await server.connect(s);
  await client.connect(c);
  cleanup.push(() => client.close());
  return client;
}

describe.each(['v1', 'v2'] as const)('server spans through SDK %s', (kind) => {
  it('opens a SERVER span "prompts/get <name>" with the MCP attributes, the store version and label, as a child of params._meta', async () => {
    const o = otel();
    const prompts = registry();
    prompts.set(
      { name: 'stored', messages: [{ role: 'user', content: 'From the store.' }] },
      { version: 7, label: 'production' },
    );
    const client = await connected(kind, o.telemetry, prompts);
    await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' }, _meta: { traceparent: TRACEPARENT } });
    await client.getPrompt({ name: 'stored' });
    const span = spanNamed(o.spans(), 'prompts/get greet');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(span.attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'greet' });
    expect(typeof span.attributes['jsonrpc.request.id']).toBe('string');
    expect(span.attributes['gen_ai.prompt.version']).toBeUndefined();
    expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    if (kind === 'v2') expect(span.attributes['mcp.protocol.version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const stored = spanNamed(o.spans(), 'prompts/get stored');
    expect(stored.attributes).toMatchObject({
      'gen_ai.prompt.version': '7',
      'mcp_prompt_kit.prompt.label': 'production',
    });
    expect(stored.parentSpanContext).toBeUndefined();
  });

  it('names prompts/list, completion/complete, resources/read and tools/call spans by the conventions', async () => {
    const o = otel();
    const client = await connected(kind, o.telemetry);
    await client.listPrompts();
    await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'tone', value: 'd' } });
    await client.readResource({ uri: 'docs://adr/1' });
    await client.callTool({ name: 'Add', arguments: { x: 1, y: 2 } });
    const spans = o.spans();
    expect(spanNamed(spans, 'prompts/list').attributes['mcp.method.name']).toBe('prompts/list');
    expect(spanNamed(spans, 'completion/complete greet').attributes).toMatchObject({
      'mcp.method.name': 'completion/complete',
      'gen_ai.prompt.name': 'greet',
    });
    expect(spanNamed(spans, 'resources/read').attributes).toMatchObject({
      'mcp.method.name': 'resources/read',
      'mcp.resource.uri': 'docs://adr/1',
    });
    expect(spanNamed(spans, 'tools/call Add').attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'Add',
    });
    for (const span of spans) expect(span.kind).toBe(SpanKind.SERVER);
  });

  it('marks failures with error.type and rpc.response.status_code, and never names an unknown prompt in the span name', async () => {
    const o = otel();
    const client = await connected(kind, o.telemetry);
    await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow();
    await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toThrow();
    await expect(client.getPrompt({ name: 'broken' })).rejects.toThrow();
    await expect(client.readResource({ uri: 'docs://adr/999' })).rejects.toThrow();
    const tool = await client.callTool({ name: 'Add', arguments: { x: 'one' } });
    expect(tool.isError).toBe(true);
    const spans = o.spans();
    const unknown = spanNamed(spans, 'prompts/get');
    expect(unknown.attributes).toMatchObject({
      'gen_ai.prompt.name': 'nope',
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
      'mcp_prompt_kit.error.code': 'PROMPT_NOT_FOUND',
    });
    expect(unknown.status).toEqual({ code: SpanStatusCode.ERROR, message: 'PROMPT_NOT_FOUND' });
    expect(spanNamed(spans, 'prompts/get greet').attributes).toMatchObject({
      'error.type': '-32602',
      'mcp_prompt_kit.error.code': 'PROMPT_ARGUMENT_MISSING',
    });
    expect(spanNamed(spans, 'prompts/get broken').attributes).toMatchObject({
      'error.type': '-32603',
      'rpc.response.status_code': '-32603',
    });
    expect(spanNamed(spans, 'resources/read').attributes['error.type']).toBe('-32602');
    const call = spanNamed(spans, 'tools/call Add');
    expect(call.attributes).toMatchObject({
      'error.type': 'tool_error',
      'mcp_prompt_kit.error.code': 'FUNCTION_ARGUMENT_MISSING',
    });
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('server metrics', () => {
  it('records mcp.server.operation.duration with the conventions buckets and counts validation failures per prompt and code', async () => {
    const o = otel();
    const client = await connected('v2', o.telemetry);
    await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toThrow();
    await expect(client.getPrompt({ name: 'greet', arguments: { who: 'Ada', token: 'UPPER' } })).rejects.toThrow();
    await expect(client.getPrompt({ name: 'greet', arguments: { who: 'Ada', token: 'UPPER' } })).rejects.toThrow();
    await expect(client.getPrompt({ name: 'unknown-1' })).rejects.toThrow();
    await expect(client.getPrompt({ name: 'unknown-2', arguments: {} })).rejects.toThrow();
    const metrics = await o.metrics();
    const duration = metrics.find((m) => m.descriptor.name === 'mcp.server.operation.duration')!;
    expect(duration.descriptor.unit).toBe('s');
    const points = duration.dataPoints as {
      attributes: Record<string, unknown>;
      value: { count: number; buckets: { boundaries: number[] } };
    }[];
    const ok = points.find(
      (p) => p.attributes['gen_ai.prompt.name'] === 'greet' && p.attributes['error.type'] === undefined,
    )!;
    expect(ok.value.count).toBe(1);
    expect(ok.value.buckets.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    expect(ok.attributes).toMatchObject({ 'mcp.method.name': 'prompts/get' });
    // Unknown names sent by a client never become series: one point for both, without a prompt name.
    const unknown = points.filter(
      (p) => p.attributes['gen_ai.prompt.name'] === undefined && p.attributes['mcp.method.name'] === 'prompts/get',
    );
    expect(unknown.map((p) => p.value.count)).toEqual([2]);
    const failures = (await o.points('mcp_prompt_kit.validation.failures')) as {
      attributes: Record<string, unknown>;
      value: number;
    }[];
    expect(
      failures.map((p) => [p.attributes['gen_ai.prompt.name'], p.attributes['error.type'], p.value]).sort(),
    ).toEqual([
      ['greet', 'PROMPT_ARGUMENT_INVALID', 2],
      ['greet', 'PROMPT_ARGUMENT_MISSING', 1],
    ]);
  });

  it('reports the store sync lag as a gauge: growing while a change waits, 0 once it is served', async () => {
    const o = otel();
    const memory = createMemoryPromptStore();
    await memory.put({ name: 'stored', messages: [{ role: 'user', content: 'v1' }] });
    let release: () => void = () => {};
    let gate: Promise<void> | undefined;
    const store: PromptStore = {
      get: async (name, options) => {
        if (gate !== undefined) await gate;
        return memory.get(name, options);
      },
      list: (options) => memory.list(options),
      put: (d) => memory.put(d),
      delete: (n) => memory.delete(n),
      watch: (cb) => memory.watch(cb),
    };
    const prompts = new PromptRegistry();
    const sync = await syncRegistry(store, prompts, { batchMs: 1 });
    cleanup.push(() => sync.close());
    const stop = o.telemetry.observeSync(sync);
    const lag = async () => ((await o.points('mcp_prompt_kit.store.sync.lag')) as { value: number }[])[0]?.value;
    expect(await lag()).toBe(0);
    gate = new Promise((resolve) => {
      release = resolve;
    });
    await memory.put({ name: 'stored', messages: [{ role: 'user', content: 'v2' }] });
    await waitFor(() => sync.lagMs > 5);
    expect(await lag()).toBeGreaterThan(0.005);
    release();
    gate = undefined;
    await sync.settled();
    expect(sync.lagMs).toBe(0);
    expect(await lag()).toBe(0);
    expect(prompts.servedVersion('stored')).toEqual({ version: 2 });
    stop();
  });

  it('stops reading a sync once its observation is stopped', async () => {
    const o = otel();
    let reads = 0;
    const source = {
      label: 'staging',
      get lagMs() {
        reads++;
        return 1500;
      },
    };
    const stop = o.telemetry.observeSync(source);
    const [point] = (await o.points('mcp_prompt_kit.store.sync.lag')) as { value: number; attributes: object }[];
    expect(point).toMatchObject({ value: 1.5, attributes: { 'mcp_prompt_kit.store.label': 'staging' } });
    const before = reads;
    stop();
    await o.metrics();
    expect(reads).toBe(before);
  });
});

describe('trace propagation', () => {
  it('joins the agent tool client span and the server span in one trace through the real SDK client and server', async () => {
    const o = otel();
    const client = await connected('v2', o.telemetry);
    const tool = createPromptRetrievalTool({
      integrations: { docs: client },
      tracer: o.tracerProvider.getTracer('agent'),
    });
    cleanup.push(() => tool.close());
    const text = await tool.execute({ integrationId: 'docs', promptName: 'greet', arguments: { who: 'Ada' } });
    expect(text).toContain('Say hello to Ada');
    const spans = o.spans().filter((s) => s.name === 'prompts/get greet');
    const clientSpan = spans.find((s) => s.kind === SpanKind.CLIENT)!;
    const serverSpan = spans.find((s) => s.kind === SpanKind.SERVER)!;
    expect(serverSpan.spanContext().traceId).toBe(clientSpan.spanContext().traceId);
    expect(serverSpan.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
  });

  it('takes an HTTP request trace context from its traceparent header and reports the HTTP status', async () => {
    const o = otel();
    const server = createServer(
      createNodeHandler({ prompts: registry(), functions: functions() }, { telemetry: o.telemetry }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: TRACEPARENT, baggage: 'tenant=a' },
        body: JSON.stringify(body),
      });
    expect((await post('/prompts/greet', { who: 'Ada' })).status).toBe(200);
    expect((await post('/prompts/greet', {})).status).toBe(400);
    expect((await post('/functions/Add', { x: 1, y: 2 })).status).toBe(200);
    const [ok, bad] = o.spans().filter((s) => s.name === 'prompts/get greet');
    expect(ok!.spanContext().traceId).toBe(TRACE_ID);
    expect(ok!.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(ok!.attributes).toMatchObject({ 'network.transport': 'tcp', 'http.response.status_code': 200 });
    expect(bad!.attributes).toMatchObject({ 'http.response.status_code': 400, 'error.type': '-32602' });
    expect(spanNamed(o.spans(), 'tools/call Add').parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
  });

  it('takes a CGI request trace context from HTTP_TRACEPARENT', async () => {
    const o = otel();
    const stdin = new PassThrough();
    const body = JSON.stringify({ who: 'Ada' });
    stdin.end(body);
    let out = '';
    const stdout = new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    });
    const status = await runCgi(
      registry(),
      {
        env: {
          REQUEST_METHOD: 'POST',
          PATH_INFO: '/prompts/greet',
          CONTENT_TYPE: 'application/json',
          CONTENT_LENGTH: String(Buffer.byteLength(body)),
          HTTP_TRACEPARENT: TRACEPARENT,
        },
        stdin,
        stdout,
      },
      { telemetry: o.telemetry },
    );
    expect(status).toBe(200);
    expect(out).toContain('Say hello to Ada');
    const span = spanNamed(o.spans(), 'prompts/get greet');
    expect(span.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
  });
});

describe('what telemetry records', () => {
  it('records no argument value in any span attribute, event, status, metric attribute or log line', async () => {
    const o = otel();
    const client = await connected('v1', o.telemetry);
    const v2 = await connected('v2', o.telemetry);
    const handler = createNodeHandler({ prompts: registry(), functions: functions() }, { telemetry: o.telemetry });
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const secretCases: Record<string, unknown>[] = [
      { who: SECRET },
      { who: 'Ada', token: SECRET },
      { who: 'Ada', token: SECRET.repeat(5) },
      { who: 'Ada', tone: SECRET },
      { who: { nested: SECRET } },
    ];
    for (const c of [client, v2]) {
      for (const args of secretCases)
        await c.getPrompt({ name: 'greet', arguments: args as Record<string, string> }).catch(() => {});
      await c.getPrompt({ name: 'broken', arguments: { x: SECRET } }).catch(() => {});
      await c
        .complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'tone', value: SECRET } })
        .catch(() => {});
      await c.callTool({ name: 'Add', arguments: { x: SECRET, y: 1 } });
      await c
        .callTool({ name: 'get_prompt', arguments: { name: 'greet', arguments: { who: SECRET } } })
        .catch(() => {});
    }
    for (const args of secretCases) {
      await fetch(`${base}/prompts/greet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      await fetch(`${base}/functions/Add`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ x: SECRET }),
      });
    }
    const spans = o.spans();
    expect(spans.length).toBe(28);
    const recorded = JSON.stringify({
      spans: spans.map((s) => ({
        name: s.name,
        attributes: s.attributes,
        events: s.events,
        status: s.status,
        links: s.links,
      })),
      metrics: (await o.metrics()).map((m) => m.dataPoints.map((p) => p.attributes)),
      logs: o.logs,
    });
    expect(o.logs.length).toBe(spans.length);
    expect(recorded).toContain('greet');
    expect(recorded).not.toContain('S3CRET');
  });

  it('logs one mcp_operation event per operation with its trace and span ids', async () => {
    const o = otel();
    const client = await connected('v2', o.telemetry);
    await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' }, _meta: { traceparent: TRACEPARENT } });
    await expect(client.getPrompt({ name: 'greet' })).rejects.toThrow();
    const [ok, failed] = o.logs.map((l) => l.fields);
    const span = o.spans()[0]!;
    expect(ok).toMatchObject({
      event: 'mcp_operation',
      method: 'prompts/get',
      target: 'greet',
      status: 'ok',
      traceId: TRACE_ID,
      spanId: span.spanContext().spanId,
    });
    expect(typeof ok!['durationMs']).toBe('number');
    expect(failed).toMatchObject({ status: 'error', errorType: '-32602', code: 'PROMPT_ARGUMENT_MISSING' });
  });

  it('serves every request when the tracer or meter throws', async () => {
    const boom = () => {
      throw new Error('broken SDK');
    };
    const telemetry = createTelemetry({
      api,
      tracerProvider: { getTracer: () => ({ startSpan: boom }) },
      meterProvider: {
        getMeter: () => ({
          createHistogram: () => ({ record: boom }),
          createCounter: () => ({ add: boom }),
          createObservableGauge: () => ({ addCallback: boom, removeCallback: boom }),
        }),
      },
    });
    const client = await connected('v2', telemetry);
    const result = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    expect(JSON.stringify(result.messages)).toContain('Ada');
    await expect(client.getPrompt({ name: 'greet' })).rejects.toThrow(/Missing required/);
  });

  it('does not even read the trace context while no OpenTelemetry SDK is registered', async () => {
    let reads = 0;
    const counted = {
      ...api,
      context: {
        ...api.context,
        active: () => (reads++, api.context.active()),
        with: api.context.with.bind(api.context),
      },
      propagation: {
        extract: (...args: Parameters<typeof api.propagation.extract>) => (reads++, api.propagation.extract(...args)),
      },
    } as typeof api;
    const telemetry = createTelemetry({ api: counted });
    const client = await connected('v1', telemetry);
    const result = await client.getPrompt({
      name: 'greet',
      arguments: { who: 'Ada' },
      _meta: { traceparent: TRACEPARENT },
    });
    expect(JSON.stringify(result.messages)).toContain('Ada');
    expect(reads).toBe(0);
  });

  it('refuses a telemetry option not made by createTelemetry, and an api that is not the OpenTelemetry API', () => {
    expect(() => createTelemetry({} as never)).toThrow(/options.api must be the @opentelemetry\/api module/);
    expect(() =>
      attachPrompts(new McpServerV2({ name: 'x', version: '1' }), registry(), { telemetry: {} as Telemetry }),
    ).toThrow(/attachPrompts: options.telemetry must come from createTelemetry\(\)/);
    expect(() => createNodeHandler(registry(), { telemetry: { observeSync: () => () => {} } })).toThrow(
      /options.telemetry must come from createTelemetry/,
    );
  });
});
