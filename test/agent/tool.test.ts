import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { generateText, jsonSchema, stepCountIs, tool as aiTool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPromptRetrievalTool,
  toAiSdkTool,
  toAnthropicMessages,
  toAnthropicTool,
  toOpenAiMessages,
  toOpenAiTool,
} from '../../src/agent/index.js';
import type { PromptSource, SpanLike, TracerLike } from '../../src/agent/index.js';
import { attachPrompts } from '../../src/mcp/index.js';
import { PromptRegistry } from '../../src/registry.js';
import type { GetPromptResult } from '../../src/types.js';
import { createTestRegistry, simplePrompt } from '../mcp/fixtures/prompts.js';
import { STARTS_CHILD_PROCESSES } from '../support/processes.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** A real SDK client (v1 or v2) connected over InMemoryTransport to an SDK server serving `registry`. */
async function connectedClient(kind: 'v1' | 'v2', registry: PromptRegistry): Promise<{ client: ClientV1 | ClientV2; closeServer: () => Promise<void> }> {
  const info = { name: 'agent-test', version: '1.0.0' };
  if (kind === 'v1') {
    const server = new McpServerV1(info);
    attachPrompts(server, registry, { debounceMs: 0 });
    const client = new ClientV1(info);
    const [c, s] = InMemoryV1.createLinkedPair();
    await server.connect(s);
    await client.connect(c);
    cleanup.push(() => client.close());
    return { client, closeServer: () => server.close() };
  }
  const server = new McpServerV2(info);
  attachPrompts(server, registry, { debounceMs: 0 });
  const client = new ClientV2(info);
  const [c, s] = InMemoryV2.createLinkedPair();
  await server.connect(s);
  await client.connect(c);
  cleanup.push(() => client.close());
  return { client, closeServer: () => server.close() };
}

function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = { info: (f: Record<string, unknown>) => void lines.push(f), warn: (f: Record<string, unknown>) => void lines.push(f) };
  return { lines, logger };
}

async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(['v1', 'v2'] as const)('retrieve_mcp_prompt over a real SDK %s client', (kind) => {
  it('retrieves a prompt with arguments as numbered, role-labelled text', async () => {
    const { client } = await connectedClient(kind, createTestRegistry());
    const tool = createPromptRetrievalTool({ integrations: { code: client } });
    cleanup.push(() => tool.close());
    await tool.refresh();
    const text = await tool.execute({ integrationId: 'code', promptName: 'review_code', arguments: { code: 'let x = 1', language: 'typescript' } });
    expect(text).toBe('Prompt: review_code\nDescription: Review a snippet of code\n\nMessages:\n1. User: Review this typescript code:\nlet x = 1\n');
  });

  it('retrieves a prompt without arguments', async () => {
    const { client } = await connectedClient(kind, createTestRegistry());
    const tool = createPromptRetrievalTool({ integrations: { code: client } });
    await tool.refresh();
    expect(await tool.execute({ integrationId: 'code', promptName: 'optional_only' })).toContain('1. User: Write something.');
  });

  it('returns a remote error as text, naming the missing arguments from the -32602 data', async () => {
    const { client } = await connectedClient(kind, createTestRegistry());
    // Not refreshed: the listing is unknown, so the server answers.
    const tool = createPromptRetrievalTool({ integrations: { code: client } });
    expect(await tool.execute({ integrationId: 'code', promptName: 'review_code' })).toBe('Prompt retrieval failed: missing required arguments: code');
    expect(await tool.execute({ integrationId: 'code', promptName: 'nope' })).toBe('Prompt retrieval failed: Unknown prompt: nope');
  });

  it('names the argument that failed its check, from the remote error data', async () => {
    const { client } = await connectedClient(kind, createTestRegistry());
    const tool = createPromptRetrievalTool({ integrations: { code: client } });
    await tool.refresh();
    expect(await tool.execute({ integrationId: 'code', promptName: 'review_code', arguments: { code: 'x', language: 'cobol' } })).toBe(
      'Prompt retrieval failed: Prompt arguments do not conform to schema: language must be one of: typescript, python, go',
    );
  });

  it('updates its description after the server announces list_changed', async () => {
    const registry = createTestRegistry();
    const { client } = await connectedClient(kind, registry);
    const tool = createPromptRetrievalTool({ integrations: { code: client } });
    cleanup.push(() => tool.close());
    await tool.refresh();
    expect(tool.definition?.description).not.toContain('brand_new');
    registry.add(simplePrompt('brand_new'));
    await waitFor(() => tool.definition?.description.includes('brand_new') === true);
  });

  it('answers a closed connection with a failure message, never a throw', async () => {
    const { client, closeServer } = await connectedClient(kind, createTestRegistry());
    const tool = createPromptRetrievalTool({ integrations: { code: client }, timeoutMs: 2000 });
    await closeServer();
    const text = await tool.execute({ integrationId: 'code', promptName: 'optional_only' });
    expect(text).toBe('Prompt retrieval failed: Not connected');
  });
});

describe('retrieve_mcp_prompt definition', () => {
  it('is null without integrations', () => {
    expect(createPromptRetrievalTool({ integrations: {} }).definition).toBeNull();
  });

  it('lists each integration with its prompts and arguments, and names one that cannot list as unavailable', async () => {
    const failing: PromptSource = { getPrompt: () => Promise.reject(new Error('down')), listPrompts: () => Promise.reject(new Error('down')) };
    const tool = createPromptRetrievalTool({ integrations: { local: createTestRegistry(), broken: failing } });
    await tool.refresh();
    const definition = tool.definition!;
    expect(definition.name).toBe('retrieve_mcp_prompt');
    expect(definition.inputSchema).toMatchObject({
      required: ['integrationId', 'promptName'],
      properties: { integrationId: { enum: ['local', 'broken'] }, promptName: { type: 'string' }, arguments: { type: 'object' } },
    });
    expect(definition.description).toContain("Integration 'local':");
    expect(definition.description).toContain('- review_code(code (required), language, focus) — Review a snippet of code');
    expect(definition.description).toContain("Integration 'broken': unavailable");
  });

  it('says which integrations cannot list their prompts and which are not listed yet', async () => {
    const byName: PromptSource = { getPrompt: () => Promise.resolve({ messages: [] }) };
    const tool = createPromptRetrievalTool({ integrations: { local: createTestRegistry(), byName } });
    expect(tool.definition!.description).toContain("Integration 'local': prompts not listed yet");
    await tool.refresh();
    expect(tool.definition!.description).toContain("Integration 'local':\n- ");
    expect(tool.definition!.description).toContain("Integration 'byName': does not list its prompts (ask by name)");
  });

  it('keeps the newest listing when an older one finishes last', async () => {
    const answers: ((prompts: { name: string }[]) => void)[] = [];
    const source: PromptSource = {
      getPrompt: () => Promise.reject(new Error('unused')),
      listPrompts: () => new Promise((resolve) => answers.push((prompts) => resolve({ prompts }))),
    };
    const tool = createPromptRetrievalTool({ integrations: { svc: source } });
    const refreshed = Promise.all([tool.refresh(), tool.refresh()]);
    await waitFor(() => answers.length === 2);
    // The newer listing answers first, the older one last.
    answers[1]!([{ name: 'new_prompt' }]);
    answers[0]!([{ name: 'old_prompt' }]);
    await refreshed;
    expect(tool.definition!.description).toContain('- new_prompt');
    expect(tool.definition!.description).not.toContain('old_prompt');
  });

  it('follows nextCursor and caps the description with "… and N more"', async () => {
    const registry = new PromptRegistry({ pageSize: 7 });
    registry.add(Array.from({ length: 300 }, (_, i) => simplePrompt(`p${String(i).padStart(3, '0')}`)));
    const tool = createPromptRetrievalTool({ integrations: { many: registry }, maxDescriptionLength: 2000 });
    await tool.refresh();
    const description = tool.definition!.description;
    expect(description.length).toBeLessThan(2100);
    const shown = description.split('\n').filter((l) => l.startsWith('- p')).length;
    expect(description).toContain(`… and ${300 - shown} more`);
    // Known through every page: the last prompt is answered locally as existing.
    expect(await tool.execute({ integrationId: 'many', promptName: 'p299' })).toContain('This is p299.');
  });
});

describe('retrieve_mcp_prompt parameters', () => {
  const calls: string[] = [];
  const source: PromptSource = {
    getPrompt: (name, args) => {
      calls.push(name);
      return Promise.resolve({ messages: [{ role: 'user', content: { type: 'text', text: `${name} ${JSON.stringify(args)}` } }] });
    },
    listPrompts: () => Promise.resolve({ prompts: [{ name: 'greet', arguments: [{ name: 'who', required: true }, { name: 'times' }] }] }),
  };

  it.each([
    [null, 'parameters must be an object with integrationId and promptName'],
    [{ promptName: 'greet' }, 'integrationId is required'],
    [{ integrationId: 'svc' }, 'promptName is required'],
    [{ integrationId: 'elsewhere', promptName: 'greet' }, "unknown integration 'elsewhere' (known: svc)"],
    [{ integrationId: 'svc', promptName: 'greet', arguments: 'who=me' }, 'arguments must be an object of strings'],
    [{ integrationId: 'svc', promptName: 'greet', arguments: { who: { name: 'x' } } }, "argument 'who' must be a string (MCP prompt arguments are strings)"],
    [{ integrationId: 'svc', promptName: 'greet', arguments: {} }, 'missing required arguments: who'],
    [{ integrationId: 'svc', promptName: 'wave' }, "unknown prompt 'wave' in integration 'svc' (available: greet)"],
  ])('refuses %j without a round trip', async (params, message) => {
    const tool = createPromptRetrievalTool({ integrations: { svc: source } });
    await tool.refresh();
    calls.length = 0;
    expect(await tool.execute(params)).toBe(`Prompt retrieval failed: ${message}`);
    expect(calls).toEqual([]);
  });

  it('takes the parameters as the JSON string OpenAI-style APIs hand over', async () => {
    const tool = createPromptRetrievalTool({ integrations: { svc: source } });
    await tool.refresh();
    const json = JSON.stringify({ integrationId: 'svc', promptName: 'greet', arguments: { who: 'Ada' } });
    expect(await tool.execute(json)).toContain('greet {"who":"Ada"}');
    expect(await tool.execute('{"integrationId": "svc", ')).toBe(
      'Prompt retrieval failed: parameters must be a JSON object with integrationId and promptName',
    );
    expect(await tool.execute('"svc"')).toBe('Prompt retrieval failed: parameters must be a JSON object with integrationId and promptName');
  });

  it('coerces numbers and booleans to strings, as MCP prompt arguments are', async () => {
    const tool = createPromptRetrievalTool({ integrations: { svc: source } });
    await tool.refresh();
    expect(await tool.execute({ integrationId: 'svc', promptName: 'greet', arguments: { who: 42, times: true } })).toContain(
      'greet {"who":"42","times":"true"}',
    );
  });

  it('refuses a number in the JSON string that JSON.parse would change, instead of sending the rounded text', async () => {
    const tool = createPromptRetrievalTool({ integrations: { svc: source } });
    await tool.refresh();
    calls.length = 0;
    const json = '{"integrationId": "svc", "promptName": "greet", "arguments": {"who": 9007199254740993}}';
    expect(await tool.execute(json)).toMatch(/^Prompt retrieval failed: argument 'who': .+ \(send it as a string\)$/);
    expect(calls).toEqual([]);
    expect(await tool.execute('{"integrationId": "svc", "promptName": "greet", "arguments": {"who": 9007199254740992}}')).toContain(
      'greet {"who":"9007199254740992"}',
    );
  });

  it('quotes at most 20 missing argument names, each cut short', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `${'n'.repeat(200)}${i}`);
    const wide: PromptSource = {
      listPrompts: async () => ({ prompts: [{ name: 'wide', arguments: names.map((name) => ({ name, required: true })) }] }),
      getPrompt: async () => ({ messages: [] }),
    };
    const tool = createPromptRetrievalTool({ integrations: { wide } });
    await tool.refresh();
    const text = await tool.execute({ integrationId: 'wide', promptName: 'wide' });
    expect(text.startsWith('Prompt retrieval failed: missing required arguments: ')).toBe(true);
    expect(text.endsWith(', …')).toBe(true);
    expect(text.length).toBeLessThan(20 * 135 + 100);
  });

  it('quotes missing argument names from a remote error as it quotes its own: at most 20, then …', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `a${i}`);
    const remote: PromptSource = {
      getPrompt: () => Promise.reject(Object.assign(new Error('MCP error -32602: missing'), { code: -32602, data: { missing_arguments: names } })),
    };
    const tool = createPromptRetrievalTool({ integrations: { remote } });
    const text = await tool.execute({ integrationId: 'remote', promptName: 'wide' });
    expect(text).toBe(`Prompt retrieval failed: missing required arguments: ${names.slice(0, 20).join(', ')}, …`);
  });

  it('gives up after timeoutMs and when the caller aborts', async () => {
    const hanging: PromptSource = { getPrompt: () => new Promise<GetPromptResult>(() => {}) };
    const tool = createPromptRetrievalTool({ integrations: { slow: hanging }, timeoutMs: 40 });
    expect(await tool.execute({ integrationId: 'slow', promptName: 'x' })).toBe('Prompt retrieval failed: timed out after 40 ms');
    const patient = createPromptRetrievalTool({ integrations: { slow: hanging } });
    const controller = new AbortController();
    const pending = patient.execute({ integrationId: 'slow', promptName: 'x' }, { signal: controller.signal });
    controller.abort();
    expect(await pending).toBe('Prompt retrieval failed: aborted');
  });

  it('never throws, even for a source that throws synchronously or answers nonsense', async () => {
    const throwing: PromptSource = {
      getPrompt: () => {
        throw new TypeError('boom');
      },
    };
    const nonsense: PromptSource = { getPrompt: () => Promise.resolve({ nope: true } as unknown as GetPromptResult) };
    const tool = createPromptRetrievalTool({ integrations: { a: throwing, b: nonsense } });
    expect(await tool.execute({ integrationId: 'a', promptName: 'x' })).toBe('Prompt retrieval failed: boom');
    expect(await tool.execute({ integrationId: 'b', promptName: 'x' })).toBe(
      'Prompt retrieval failed: the integration answered with something that is not a prompt',
    );
  });

  it('refuses an integration it cannot use when created', () => {
    expect(() => createPromptRetrievalTool({ integrations: { odd: 42 as unknown as PromptSource } })).toThrow(/integration 'odd' must be/);
  });
});

describe('retrieve_mcp_prompt logs and traces', () => {
  it('logs each retrieval once with its metadata and never the argument values', async () => {
    const { lines, logger } = recordingLogger();
    const tool = createPromptRetrievalTool({ integrations: { local: createTestRegistry() }, logger });
    await tool.refresh();
    await tool.execute({ integrationId: 'local', promptName: 'review_code', arguments: { code: 'SECRET-TOKEN-123' } });
    await tool.execute({ integrationId: 'local', promptName: 'review_code', arguments: { focus: 'SECRET-TOKEN-456' } });
    const retrievals = lines.filter((l) => l['event'] === 'prompt_retrieval');
    expect(retrievals).toEqual([
      { event: 'prompt_retrieval', integrationId: 'local', promptName: 'review_code', durationMs: expect.any(Number), status: 'success', messageCount: 1 },
      { event: 'prompt_retrieval', integrationId: 'local', promptName: 'review_code', durationMs: expect.any(Number), status: 'error', errorCode: 'INVALID_PARAMS' },
    ]);
    expect(JSON.stringify(lines)).not.toContain('SECRET-TOKEN');
  });

  it('logs at most a bounded prefix of a prompt name the model made up', async () => {
    const { lines, logger } = recordingLogger();
    const tool = createPromptRetrievalTool({ integrations: { local: createTestRegistry() }, logger });
    await tool.refresh();
    const text = await tool.execute({ integrationId: 'local', promptName: 'x'.repeat(100_000) });
    expect(text).toMatch(/^Prompt retrieval failed: unknown prompt 'x+…' in integration 'local'/);
    expect(text.length).toBeLessThan(1000);
    const [line] = lines.filter((l) => l['event'] === 'prompt_retrieval');
    expect(String(line?.['promptName']).length).toBeLessThan(200);
  });

  it('opens a client span per retrieval with the MCP attributes and sends its traceparent in _meta', async () => {
    const spans: { name: string; attributes: Record<string, unknown>; status?: { code: number }; ended: boolean }[] = [];
    const tracer: TracerLike = {
      startSpan(name, options) {
        const record = { name, attributes: { ...options?.attributes }, ended: false } as (typeof spans)[number];
        spans.push(record);
        const span: SpanLike = {
          setAttribute: (k, v) => (record.attributes[k] = v),
          setStatus: (s) => (record.status = s),
          spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
          end: () => void (record.ended = true),
        };
        return span;
      },
    };
    const metas: unknown[] = [];
    const remote: PromptSource = {
      getPrompt: (name, _args, { meta }) => {
        metas.push(meta);
        if (name === 'missing') return Promise.reject(Object.assign(new Error('MCP error -32602: Unknown prompt: missing'), { code: -32602 }));
        return Promise.resolve({ messages: [{ role: 'assistant', content: { type: 'text', text: 'ok' } }] });
      },
    };
    const tool = createPromptRetrievalTool({ integrations: { remote }, tracer });
    expect(await tool.execute({ integrationId: 'remote', promptName: 'hello' })).toContain('1. Assistant: ok');
    expect(await tool.execute({ integrationId: 'remote', promptName: 'missing' })).toBe('Prompt retrieval failed: Unknown prompt: missing');
    expect(metas[0]).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    expect(spans[0]).toMatchObject({ name: 'prompts/get hello', attributes: { 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'hello' }, ended: true });
    expect(spans[0]!.status).toBeUndefined();
    expect(spans[1]).toMatchObject({ name: 'prompts/get missing', attributes: { 'error.type': '-32602' }, status: { code: 2 }, ended: true });
  });
});

describe('retrieve_mcp_prompt with the real OpenTelemetry SDK', () => {
  it('exports a CLIENT span per MCP call, none for a call refused locally, and sends its traceparent', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const { client } = await connectedClient('v2', createTestRegistry());
    const tool = createPromptRetrievalTool({ integrations: { code: client }, tracer: provider.getTracer('agent-test') });
    cleanup.push(() => tool.close());
    await tool.refresh();
    await tool.execute({ integrationId: 'code', promptName: 'review_code' }); // refused locally: no MCP call
    expect(exporter.getFinishedSpans()).toEqual([]);
    await tool.execute({ integrationId: 'code', promptName: 'optional_only', arguments: { tone: 'dry' } });
    await tool.execute({ integrationId: 'code', promptName: 'broken' });
    const [ok, failed] = exporter.getFinishedSpans();
    expect(ok?.name).toBe('prompts/get optional_only');
    expect(ok?.kind).toBe(SpanKind.CLIENT);
    expect(ok?.attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'optional_only' });
    expect(ok?.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(failed?.attributes).toMatchObject({ 'error.type': '-32603', 'rpc.response.status_code': '-32603' });
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe.runIf(STARTS_CHILD_PROCESSES)('retrieve_mcp_prompt against a stdio server', () => {
  it('retrieves from examples/mcp-stdio-server.ts running as a child process', async () => {
    const client = new ClientV1({ name: 'agent-stdio', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'examples/mcp-stdio-server.ts'],
        cwd: fileURLToPath(new URL('../../', import.meta.url)),
        stderr: 'ignore',
      }),
    );
    cleanup.push(() => client.close());
    const tool = createPromptRetrievalTool({ integrations: { examples: client } });
    cleanup.push(() => tool.close());
    await tool.refresh();
    expect(tool.definition!.description).toContain('- review_code(code (required)');
    expect(await tool.execute({ integrationId: 'examples', promptName: 'review_code', arguments: { code: 'x = 1' } })).toMatch(
      /^Prompt: review_code\n/,
    );
  }, 30_000);
});

describe('prompt messages for LLM APIs', () => {
  const result: GetPromptResult = {
    messages: [
      { role: 'user', content: { type: 'text', text: 'Look:' } },
      { role: 'user', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
      { role: 'assistant', content: { type: 'resource', resource: { uri: 'docs://a', text: 'Doc A' } } },
      { role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
    ],
  };

  it('keeps images as image parts and describes everything else as text (OpenAI style)', () => {
    expect(toOpenAiMessages(result)).toEqual([
      { role: 'user', content: 'Look:' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      { role: 'assistant', content: '[resource docs://a]\nDoc A' },
      { role: 'user', content: '[audio audio/wav, 3 bytes]' },
    ]);
  });

  it("describes an assistant's image in text, as both APIs take images from the user only", () => {
    const drawn: GetPromptResult = { messages: [{ role: 'assistant', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } }] };
    expect(toOpenAiMessages(drawn)).toEqual([{ role: 'assistant', content: '[image image/png, 8 bytes]' }]);
    expect(toAnthropicMessages(drawn)).toEqual([{ role: 'assistant', content: [{ type: 'text', text: '[image image/png, 8 bytes]' }] }]);
  });

  it('keeps images as base64 image blocks (Anthropic style)', () => {
    expect(toAnthropicMessages(result)[1]).toEqual({
      role: 'user',
      content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }],
    });
    expect(toAnthropicMessages(result)[2]).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[resource docs://a]\nDoc A' }] });
  });

  it('hands the tool to OpenAI-, Anthropic- and AI SDK-style APIs', async () => {
    const tool = createPromptRetrievalTool({ integrations: { local: createTestRegistry() } });
    await tool.refresh();
    const definition = tool.definition!;
    expect(toOpenAiTool(definition)).toEqual({
      type: 'function',
      function: { name: 'retrieve_mcp_prompt', description: definition.description, parameters: definition.inputSchema },
    });
    expect(toAnthropicTool(definition)).toEqual({ name: 'retrieve_mcp_prompt', description: definition.description, input_schema: definition.inputSchema });
    const wrapped = toAiSdkTool(tool, (schema) => ({ wrapped: schema }));
    expect(wrapped?.inputSchema).toEqual({ wrapped: definition.inputSchema });
    expect(await wrapped!.execute({ integrationId: 'local', promptName: 'optional_only' })).toContain('Write something.');
    expect(toAiSdkTool(createPromptRetrievalTool({ integrations: {} }), (s) => s)).toBeUndefined();
  });

  it("runs as a tool of the AI SDK's generateText when the model calls it", async () => {
    const retrieval = createPromptRetrievalTool({ integrations: { local: createTestRegistry() } });
    await retrieval.refresh();
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    const input = JSON.stringify({ integrationId: 'local', promptName: 'review_code', arguments: { code: 'let y = 2', language: 'typescript' } });
    const model = new MockLanguageModelV3({
      doGenerate: [
        { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'retrieve_mcp_prompt', input }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
        { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      ],
    });
    const result = await generateText({
      model,
      prompt: 'Review my code',
      tools: { retrieve_mcp_prompt: aiTool(toAiSdkTool(retrieval, jsonSchema)!) },
      stopWhen: stepCountIs(2),
    });
    expect(model.doGenerateCalls[0]?.tools).toMatchObject([{ type: 'function', name: 'retrieve_mcp_prompt', inputSchema: retrieval.definition!.inputSchema }]);
    expect(result.steps[0]?.toolResults[0]?.output).toBe(
      'Prompt: review_code\nDescription: Review a snippet of code\n\nMessages:\n1. User: Review this typescript code:\nlet y = 2\n',
    );
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain('let y = 2');
    expect(result.text).toBe('done');
  });
});
