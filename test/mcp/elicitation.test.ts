/**
 * prompts/get asking for missing arguments with an elicitation form (protocol revision 2026-07-28): real SDK v2
 * clients over the SDK's streamable HTTP transport (createMcpHandler, one server per request, fetched in process), raw
 * 2026-07-28 requests for what a client library would not send, and the 2025 era in memory.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { GetPromptResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/client';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PromptRegistry } from '../../src/registry/registry.js';
import { isPromptError } from '../../src/errors.js';
import { attachPrompts } from '../../src/mcp/index.js';
import type { AttachPromptsOptions } from '../../src/mcp/index.js';
import { wireError } from './fixtures/clients.js';
import type { WireError } from './fixtures/clients.js';

const INFO = { name: 'elicitation-test-client', version: '1.0.0' };
const URL_ = new URL('http://localhost/mcp');

function createRegistry(): PromptRegistry {
  const registry = new PromptRegistry();
  registry.add([
    {
      name: 'greet',
      title: 'Greeting',
      arguments: [
        { name: 'who', required: true, description: 'Whom to greet' },
        { name: 'tone', enum: ['warm', 'dry'], default: 'warm' },
        { name: 'times', type: 'integer', minimum: 1, maximum: 3 },
      ],
      messages: [{ role: 'user', content: 'Say hello to {{who}} ({{tone}}, {{times}})' }],
    },
    {
      name: 'configure',
      arguments: [{ name: 'settings', type: 'object', required: true }],
      messages: [{ role: 'user', content: 'x' }],
    },
    { name: 'other', arguments: [{ name: 'x', required: true }], messages: [{ role: 'user', content: '{{x}}' }] },
    {
      name: 'choose',
      arguments: [
        { name: 'n', type: 'integer', enum: [1, 2, 3], required: true },
        { name: 'tags', type: 'array', items: { enum: ['a', 'b', 'c'] }, required: true },
        { name: 'flag', type: 'boolean', required: true },
      ],
      messages: [{ role: 'user', content: 'n={{n}} tags={{#tags}}{{.}};{{/tags}} flag={{flag}}' }],
    },
  ]);
  return registry;
}

/** The -32602 a request without the arguments gets today, as the registry raises it. */
async function todaysError(registry: PromptRegistry, name: string, args?: Record<string, string>): Promise<WireError> {
  try {
    await registry.getPrompt(name, args);
  } catch (error) {
    if (!isPromptError(error)) throw error;
    const wire = error.toJsonRpcError();
    return { code: wire.code, message: wire.message, data: wire.data };
  }
  throw new Error('expected the request to fail');
}

/** A createMcpHandler endpoint with the registry's prompts attached to each per-request server. */
function endpoint(registry: PromptRegistry, options: AttachPromptsOptions = {}) {
  return createMcpHandler(
    () => {
      const server = new McpServer({ name: 'elicitation-test', version: '1.0.0' });
      attachPrompts(server, registry, options);
      return server;
    },
    { legacy: 'reject' },
  );
}

type Handler = ReturnType<typeof endpoint>;
type Answer = (params: ElicitRequestFormParams) => ElicitResult;

/** A 2026-07-28 SDK v2 client; `elicitation: true` declares form elicitation and answers with `answer`. */
async function modernClient(handler: Handler, elicitation: boolean, answer: () => Answer) {
  const client = new Client(INFO, {
    capabilities: elicitation ? { elicitation: { form: {} } } : {},
    versionNegotiation: { mode: 'auto' },
  });
  if (elicitation) {
    client.setRequestHandler('elicitation/create', async (request) =>
      answer()(request.params as ElicitRequestFormParams),
    );
  }
  const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));
  await client.connect(new StreamableHTTPClientTransport(URL_, { fetch }));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return client;
}

/** One raw 2026-07-28 prompts/get: the JSON-RPC response body. */
async function rawGet(
  handler: Handler,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = { elicitation: { form: {} } },
): Promise<{ result?: Record<string, unknown>; error?: WireError }> {
  const response = await handler.fetch(
    new Request(URL_, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'prompts/get',
        'mcp-name': String(params['name']),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'prompts/get',
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      }),
    }),
  );
  const text = await response.text();
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text);
  return JSON.parse(json) as { result?: Record<string, unknown>; error?: WireError };
}

/** The form and requestState of a first raw request for `name`. */
async function askedFor(
  handler: Handler,
  name: string,
  args: Record<string, string> = {},
): Promise<{ state: string; schema: unknown }> {
  const first = await rawGet(handler, { name, arguments: args });
  const result = first.result as {
    resultType: string;
    requestState: string;
    inputRequests: { arguments: { params: { requestedSchema: unknown } } };
  };
  expect(result.resultType).toBe('input_required');
  return { state: result.requestState, schema: result.inputRequests.arguments.params.requestedSchema };
}

describe('prompts/get asks for missing arguments on the 2026-07-28 era (SDK v2 client, streamable HTTP)', () => {
  const registry = createRegistry();
  const handler = endpoint(registry);
  let answer: Answer = () => ({ action: 'cancel' });
  const seen: ElicitRequestFormParams[] = [];
  let client: Client;
  let plain: Client;

  beforeAll(async () => {
    client = await modernClient(handler, true, () => (params) => {
      seen.push(params);
      return answer(params);
    });
    plain = await modernClient(handler, false, () => answer);
  });
  afterAll(async () => {
    await client.close();
    await plain.close();
    await handler.close();
  });

  it('asks a client that declared form elicitation with a form built from the argument schema, then renders the answers', async () => {
    seen.length = 0;
    answer = () => ({ action: 'accept', content: { who: 'Ada', times: 2 } });
    const result = await client.getPrompt({ name: 'greet' });
    expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Say hello to Ada (warm, 2)' } }]);
    expect(seen).toEqual([
      {
        mode: 'form',
        message: "The prompt 'Greeting' needs: who",
        requestedSchema: {
          type: 'object',
          properties: {
            who: { type: 'string', description: 'Whom to greet' },
            tone: { type: 'string', enum: ['warm', 'dry'], default: 'warm' },
            times: { type: 'integer', minimum: 1, maximum: 3 },
          },
          required: ['who'],
        },
      },
    ]);
  });

  it('asks only for the arguments the request did not give, and keeps those it gave', async () => {
    seen.length = 0;
    answer = () => ({ action: 'accept', content: { who: 'Bo' } });
    const result = await client.getPrompt({ name: 'greet', arguments: { tone: 'dry' } });
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'Say hello to Bo (dry, )' });
    expect(Object.keys((seen[0]!.requestedSchema as { properties: object }).properties)).toEqual(['who', 'times']);
  });

  it('reads back a number select, a multi-select and a checkbox as the typed arguments they stand for', async () => {
    seen.length = 0;
    answer = () => ({ action: 'accept', content: { n: '2', tags: ['a', 'c'], flag: true } });
    const result = await client.getPrompt({ name: 'choose' });
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'n=2 tags=a;c; flag=true' });
    expect(seen[0]?.requestedSchema).toEqual({
      type: 'object',
      properties: {
        n: { type: 'string', enum: ['1', '2', '3'] },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] } },
        flag: { type: 'boolean' },
      },
      required: ['n', 'tags', 'flag'],
    });
  });

  it('answers a declined form with the -32602 a request without the arguments gets', async () => {
    answer = () => ({ action: 'decline' });
    expect(await wireError(client.getPrompt({ name: 'greet' }))).toEqual(await todaysError(registry, 'greet'));
  });

  it('answers a cancelled form with the -32602 a request without the arguments gets', async () => {
    answer = () => ({ action: 'cancel' });
    expect(await wireError(client.getPrompt({ name: 'greet', arguments: { tone: 'dry' } }))).toEqual(
      await todaysError(registry, 'greet', { tone: 'dry' }),
    );
  });

  it('validates the answers in full: a value outside the schema is the -32602 naming the argument', async () => {
    const { state } = await askedFor(handler, 'greet');
    const retry = await rawGet(handler, {
      name: 'greet',
      requestState: state,
      inputResponses: { arguments: { action: 'accept', content: { who: 'Ada', times: 7, tone: 'loud' } } },
    });
    expect(retry.error).toEqual({
      code: -32602,
      message: 'Prompt arguments do not conform to schema',
      data: {
        error_type: 'schema_validation_failed',
        details: [
          { argument: 'tone', keyword: 'enum', message: 'must be one of: warm, dry' },
          { argument: 'times', keyword: 'maximum', message: 'must be <= 3' },
        ],
        provided_count: 3,
        required_count: 1,
      },
    });
  });

  it('refuses answers the form did not ask for, answers of a kind no form field has, and whole numbers past 2^53', async () => {
    const { state } = await askedFor(handler, 'greet');
    const unasked = await rawGet(handler, {
      name: 'greet',
      requestState: state,
      inputResponses: { arguments: { action: 'accept', content: { who: 'Ada', extra: 'x' } } },
    });
    expect(unasked.error).toMatchObject({
      code: -32602,
      message: 'inputResponses.arguments.content.extra was not asked for',
    });
    const nested = await rawGet(handler, {
      name: 'greet',
      requestState: state,
      inputResponses: { arguments: { action: 'accept', content: { who: { a: 1 } } } },
    });
    expect(nested.error?.message).toBe(
      'inputResponses.arguments.content.who must be a string, a number, a boolean or a list of strings',
    );
    const many = await rawGet(handler, {
      name: 'greet',
      requestState: state,
      inputResponses: {
        arguments: {
          action: 'accept',
          content: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 'v'])),
        },
      },
    });
    expect(many.error?.message).toBe('inputResponses.arguments.content has 5000 answers; the form asked 3');
    const huge = await rawGet(handler, {
      name: 'greet',
      requestState: state,
      inputResponses: { arguments: { action: 'accept', content: { who: 'Ada', times: 2 ** 53 + 2 } } },
    });
    expect(huge.error?.message).toBe(
      'inputResponses.arguments.content.times is a whole number beyond ±9007199254740991, which JSON numbers cannot carry exactly',
    );
    const action = await rawGet(handler, {
      name: 'greet',
      requestState: state,
      inputResponses: { arguments: { action: 'maybe' } },
    });
    expect(action.error?.message).toBe("inputResponses.arguments.action must be 'accept', 'decline' or 'cancel'");
  });

  it('refuses a tampered requestState, one issued for another prompt, a foreign one and an over-long one', async () => {
    const { state } = await askedFor(handler, 'greet');
    const content = { arguments: { action: 'accept', content: { x: 'v' } } };
    const invalid = (reason: string) => ({
      code: -32602,
      message: `Invalid requestState: ${reason}`,
      data: { reason: 'invalid_request_state' },
    });
    const [prefix, payload, mac] = state.split('.') as [string, string, string];
    const forged = `${prefix}.${Buffer.from(JSON.stringify({ a: ['x', 'y'] })).toString('base64url')}.${mac}`;
    expect((await rawGet(handler, { name: 'greet', requestState: forged, inputResponses: content })).error).toEqual(
      invalid('not issued by this server for this prompt'),
    );
    expect((await rawGet(handler, { name: 'other', requestState: state, inputResponses: content })).error).toEqual(
      invalid('not issued by this server for this prompt'),
    );
    const elsewhere = endpoint(registry, { elicitation: { secret: new Uint8Array(32).fill(1) } });
    try {
      expect((await rawGet(elsewhere, { name: 'greet', requestState: state })).error).toEqual(
        invalid('not issued by this server for this prompt'),
      );
    } finally {
      await elsewhere.close();
    }
    expect((await rawGet(handler, { name: 'greet', requestState: `${prefix}.${payload}` })).error).toEqual(
      invalid('not issued by this server'),
    );
    expect((await rawGet(handler, { name: 'greet', requestState: 'x'.repeat(40_000) })).error).toEqual(
      invalid('longer than 32768 characters, not issued by this server'),
    );
  });

  it('accepts the retry on a server of another registry given the same secret, as a second process would', async () => {
    const secret = new Uint8Array(32).fill(9);
    const first = endpoint(createRegistry(), { elicitation: { secret } });
    const second = endpoint(createRegistry(), { elicitation: { secret } });
    try {
      const { state } = await askedFor(first, 'greet');
      const retry = await rawGet(second, {
        name: 'greet',
        requestState: state,
        inputResponses: { arguments: { action: 'accept', content: { who: 'Cy' } } },
      });
      expect(retry.result?.['messages']).toEqual([
        { role: 'user', content: { type: 'text', text: 'Say hello to Cy (warm, )' } },
      ]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("answers a client that did not declare form elicitation with today's -32602", async () => {
    expect(await wireError(plain.getPrompt({ name: 'greet' }))).toEqual(await todaysError(registry, 'greet'));
    const urlOnly = await rawGet(handler, { name: 'greet' }, { elicitation: { url: {} } });
    expect(urlOnly.error).toEqual(await todaysError(registry, 'greet'));
  });

  it("does not ask when a missing required argument cannot be put in a form: today's -32602", async () => {
    seen.length = 0;
    expect(await wireError(client.getPrompt({ name: 'configure' }))).toEqual(await todaysError(registry, 'configure'));
    expect(seen).toEqual([]);
  });

  it("does not ask when the server turned elicitation off: today's -32602", async () => {
    const off = endpoint(registry, { elicitation: false });
    try {
      expect((await rawGet(off, { name: 'greet' })).error).toEqual(await todaysError(registry, 'greet'));
    } finally {
      await off.close();
    }
  });
});

describe("prompts/get on the 2025-11-25 era keeps today's -32602", () => {
  const registry = createRegistry();

  async function connected(transport: 'v1' | 'v2') {
    const server = new McpServer({ name: 'elicitation-test', version: '1.0.0' });
    attachPrompts(server, registry);
    let asked = 0;
    if (transport === 'v1') {
      const client = new ClientV1(INFO, { capabilities: { elicitation: {} } });
      const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
      await server.connect(serverSide as never);
      await client.connect(clientSide);
      const withState = () =>
        client.request(
          { method: 'prompts/get', params: { name: 'greet', arguments: { who: 'Ada' }, requestState: 'junk' } },
          GetPromptResultSchema,
        );
      return {
        get: () => client.getPrompt({ name: 'greet' }),
        withState,
        asked: () => asked,
        close: () => client.close(),
      };
    }
    const client = new Client(INFO, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async () => {
      asked++;
      return { action: 'accept', content: { who: 'Ada' } };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    return { get: () => client.getPrompt({ name: 'greet' }), asked: () => asked, close: () => client.close() };
  }

  it('answers an SDK v1 client with the -32602 and its data unchanged, and reads no requestState', async () => {
    const session = await connected('v1');
    try {
      expect(await wireError(session.get())).toEqual(await todaysError(registry, 'greet'));
      expect((await session.withState!()).messages[0]?.content).toEqual({
        type: 'text',
        text: 'Say hello to Ada (warm, )',
      });
    } finally {
      await session.close();
    }
  });

  it('answers an SDK v2 client that declared elicitation with the -32602, sending it no elicitation request', async () => {
    const session = await connected('v2');
    try {
      expect(await wireError(session.get())).toEqual(await todaysError(registry, 'greet'));
      expect(session.asked()).toBe(0);
    } finally {
      await session.close();
    }
  });
});

describe('attachPrompts elicitation option', () => {
  it('refuses a value that is not a boolean or { secret }, and a secret shorter than 32 bytes', () => {
    const registry = createRegistry();
    const server = () => new McpServer({ name: 'elicitation-test', version: '1.0.0' });
    expect(() => attachPrompts(server(), registry, { elicitation: 'yes' as never })).toThrow(
      'attachPrompts: options.elicitation must be a boolean or { secret }',
    );
    expect(() => attachPrompts(server(), registry, { elicitation: { secret: new Uint8Array(16) } })).toThrow(
      'elicitation.secret must be a Uint8Array of at least 32 bytes',
    );
  });

  it('asks for an optional argument named like an Object.prototype member', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'odd',
      arguments: [{ name: 'need', required: true }, { name: 'toString' }],
      messages: [{ role: 'user', content: '{{need}}' }],
    });
    const handler = endpoint(registry);
    try {
      const { schema } = await askedFor(handler, 'odd');
      expect(Object.keys((schema as { properties: object }).properties)).toEqual(['need', 'toString']);
    } finally {
      await handler.close();
    }
  });
});
