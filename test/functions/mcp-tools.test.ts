/**
 * attachFunctions over real SDK servers (v1 and v2, Server and McpServer) and real SDK clients, in memory.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { FunctionRegistry, PromptRegistry, defineFunction } from '../../src/index.js';
import type { FunctionRegistryOptions } from '../../src/index.js';
import { attachFunctions, attachPrompts } from '../../src/mcp/index.js';
import { createExampleFunctions, createExampleRegistry } from '../../examples/functions/app.js';
import { SERVER_KINDS, createTestServer } from '../mcp/fixtures/servers.js';
import type { ServerKind } from '../mcp/fixtures/servers.js';
import { wireError } from '../mcp/fixtures/clients.js';

type ToolResult = { content: { type: string; text?: string }[]; structuredContent?: unknown; isError?: boolean };

interface Connected {
  listTools(): Promise<{
    tools: { name: string; inputSchema: unknown; outputSchema?: unknown; description?: string }[];
  }>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

const open: Connected[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(
  serverKind: ServerKind,
  functions: FunctionRegistry,
  prompts?: PromptRegistry,
): Promise<Connected> {
  const server = createTestServer(serverKind);
  attachFunctions(server.attachable, functions, prompts === undefined ? {} : { prompts });
  const v1 = serverKind.startsWith('v1');
  const [clientSide, serverSide] = v1 ? InMemoryV1.createLinkedPair() : InMemoryV2.createLinkedPair();
  await server.connect(serverSide);
  const info = { name: 'functions-test', version: '1.0.0' };
  // Both SDKs' clients have the same listTools/callTool/close; only their classes differ.
  const client = (v1
    ? new ClientV1(info, { capabilities: {} })
    : new ClientV2(info, { capabilities: {} })) as unknown as {
    connect(transport: unknown): Promise<void>;
    listTools(): ReturnType<Connected['listTools']>;
    callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<ToolResult>;
    close(): Promise<void>;
  };
  await client.connect(clientSide);
  const connected: Connected = {
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool(args === undefined ? { name } : { name, arguments: args }),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
  open.push(connected);
  return connected;
}

function parsedText(result: ToolResult): unknown {
  const block = result.content[0];
  expect(block?.type).toBe('text');
  return JSON.parse(block?.text ?? 'null');
}

function example(options?: FunctionRegistryOptions): FunctionRegistry {
  return createExampleFunctions(options);
}

for (const serverKind of SERVER_KINDS) {
  describe(`attachFunctions: ${serverKind} server with its own SDK's client`, () => {
    it('lists each function with its input and declared output JSON Schema', async () => {
      const client = await connect(serverKind, example());
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toStrictEqual(['Add', 'DivMod', 'Remember']);
      const addTool = tools[0];
      expect(addTool?.description).toBe('Adds two numbers.');
      expect(addTool?.inputSchema).toMatchObject({
        type: 'object',
        properties: { x: { type: 'number' }, y: { type: 'number' } },
        required: ['x', 'y'],
      });
      expect(addTool?.outputSchema).toStrictEqual({
        type: 'object',
        properties: { result: { type: 'number' } },
        required: ['result'],
      });
      expect(tools[2]?.outputSchema).toBeUndefined();
    });

    it('answers Add {"x":7,"y":3} with the text {"result":10}, an integer, and the same structuredContent', async () => {
      const client = await connect(serverKind, example());
      const result = await client.callTool('Add', { x: 7, y: 3 });
      expect(result.isError ?? false).toBe(false);
      expect(result.content[0]?.text).toBe('{"result":10}');
      const parsed = parsedText(result) as { result: unknown };
      expect(Number.isInteger(parsed.result)).toBe(true);
      expect(parsed.result).toBe(10);
      expect(result.structuredContent).toStrictEqual({ result: 10 });
    });

    it('answers invalid arguments with isError and {"error": …, "data": …}, worded for a function', async () => {
      const client = await connect(serverKind, example());
      const result = await client.callTool('Add', { x: 'not_a_number', y: 3 });
      expect(result.isError).toBe(true);
      const body = parsedText(result) as { error: unknown; data?: { details?: { argument: string }[] } };
      expect(body.error).toBe('Function arguments do not conform to schema');
      expect(body.data?.details?.[0]?.argument).toBe('x');
      const missing = await client.callTool('Add', { x: 1 });
      expect(missing.isError).toBe(true);
      expect(parsedText(missing)).toStrictEqual({
        error: 'Missing required function arguments',
        data: { missing_arguments: ['y'], provided_count: 1, required_count: 2 },
      });
    });

    it('answers several results as result0, result1 and no result as {}', async () => {
      const client = await connect(serverKind, example());
      const divided = await client.callTool('DivMod', { a: 17, b: 5 });
      expect(divided.content[0]?.text).toBe('{"result0":3,"result1":2}');
      expect(divided.structuredContent).toStrictEqual({ result0: 3, result1: 2 });
      const stored = await client.callTool('Remember', { key: 'k', note: 'n' });
      expect(stored.content[0]?.text).toBe('{}');
      expect(stored.isError ?? false).toBe(false);
    });

    it('answers an error thrown by run with isError and its message', async () => {
      const client = await connect(serverKind, example());
      const result = await client.callTool('DivMod', { a: 1, b: 0 });
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toBe('{"error":"b must not be 0"}');
    });

    it('hides the message of a thrown error with maskErrors', async () => {
      const client = await connect(serverKind, example({ maskErrors: true }));
      const result = await client.callTool('DivMod', { a: 1, b: 0 });
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toBe('{"error":"Internal error"}');
    });

    it('answers an unknown tool with a JSON-RPC error', async () => {
      const client = await connect(serverKind, example());
      const error = await wireError(client.callTool('NonExistent', {}));
      expect(error).toMatchObject({ code: -32602, message: 'Function not found: NonExistent' });
    });

    it('serves prompts as the list_prompts and get_prompt tools in the same format', async () => {
      const prompts = createExampleRegistry();
      const client = await connect(serverKind, example(), prompts);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('list_prompts');
      expect(tools.map((t) => t.name)).toContain('get_prompt');
      const listed = parsedText(await client.callTool('list_prompts', {})) as {
        result: { prompts: { name: string }[] };
      };
      expect(listed.result.prompts.map((p) => p.name)).toStrictEqual((await prompts.list()).prompts.map((p) => p.name));
      const name = listed.result.prompts[0]?.name ?? '';
      const first = (await prompts.list()).prompts[0];
      const args: Record<string, string> = {};
      for (const a of first?.arguments ?? []) if (a.required === true) args[a.name] = 'value';
      const got = await client.callTool('get_prompt', { name, arguments: args });
      expect(got.isError ?? false).toBe(false);
      expect(parsedText(got)).toStrictEqual({
        result: JSON.parse(JSON.stringify(await prompts.getPrompt(name, args))),
      });
      const unknown = await client.callTool('get_prompt', { name: 'nope' });
      expect(unknown.isError).toBe(true);
      expect(parsedText(unknown)).toStrictEqual({ error: 'Unknown prompt: nope' });
      const missing = await client.callTool('get_prompt', { name });
      if ((first?.arguments ?? []).some((a) => a.required === true)) {
        expect(missing.isError).toBe(true);
        expect(parsedText(missing)).toMatchObject({
          error: 'Missing required prompt arguments',
          data: { missing_arguments: expect.any(Array) },
        });
      }
    });
  });
}

describe('prompts as tools: failures', () => {
  it('keeps a prompt that fails to render generic in get_prompt', async () => {
    const prompts = new PromptRegistry();
    prompts.add({
      name: 'broken',
      render: () => {
        throw new Error('secret detail');
      },
    });
    const client = await connect('v1-server', new FunctionRegistry(), prompts);
    const result = await client.callTool('get_prompt', { name: 'broken' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe('{"error":"Internal error"}');
  });
});

describe('attachFunctions setup', () => {
  it('works beside attachPrompts on the same server', async () => {
    const server = createTestServer('v2-mcp');
    const prompts = new PromptRegistry();
    prompts.add({ name: 'hi', messages: [{ role: 'user', content: 'hi' }] });
    attachPrompts(server.attachable, prompts);
    const detach = attachFunctions(
      server.attachable,
      new FunctionRegistry().add(defineFunction({ name: 'one', run: () => 1 })),
    );
    expect(typeof detach).toBe('function');
    detach();
    detach();
  });

  it('refuses a function named like a prompt tool when prompts are served as tools', () => {
    const functions = new FunctionRegistry().add(defineFunction({ name: 'get_prompt', run: () => 1 }));
    expect(() =>
      attachFunctions(createTestServer('v1-server').attachable, functions, { prompts: new PromptRegistry() }),
    ).toThrow(/get_prompt/);
  });

  it('refuses a second attachment and an McpServer that serves its own tools', () => {
    const server = createTestServer('v1-mcp');
    server.addEchoTool?.();
    expect(() => attachFunctions(server.attachable, new FunctionRegistry())).toThrow(
      /already has a handler for tools\/list/,
    );
    const plain = createTestServer('v2-server');
    attachFunctions(plain.attachable, new FunctionRegistry());
    expect(() => attachFunctions(plain.attachable, new FunctionRegistry())).toThrow(/already has a handler/);
  });

  it('refuses something that is not a FunctionRegistry', () => {
    expect(() => attachFunctions(createTestServer('v1-server').attachable, {} as never)).toThrow(TypeError);
  });
});
