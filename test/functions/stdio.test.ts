/**
 * The example functions server (examples/functions/stdio-server.ts) as a real child process, driven by the real SDK
 * v1 and v2 clients over stdio.
 */
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientV2 } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { childCoverageEnv, tsNodeArgs } from '../support/processes.js';

const SERVER = fileURLToPath(new URL('../../examples/functions/stdio-server.ts', import.meta.url));
const params = {
  command: process.execPath,
  args: tsNodeArgs(SERVER),
  env: { ...childCoverageEnv(), PATH: process.env['PATH'] ?? '' },
  stderr: 'ignore' as const,
};

type ToolResult = { content: { type: string; text?: string }[]; isError?: boolean };

describe('the example functions server over stdio', () => {
  it('answers Add, invalid arguments and unknown tools, and lists tools and prompts, to an SDK v1 client', async () => {
    const client = new ClientV1({ name: 'stdio-test', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StdioClientV1(params));
    try {
      const added = (await client.callTool({ name: 'Add', arguments: { x: 7, y: 3 } })) as ToolResult;
      expect(added.isError ?? false).toBe(false);
      expect(added.content[0]?.text).toBe('{"result":10}');
      expect(Number.isInteger((JSON.parse(added.content[0]?.text ?? '') as { result: unknown }).result)).toBe(true);
      const invalid = (await client.callTool({ name: 'Add', arguments: { x: 'not_a_number', y: 3 } })) as ToolResult;
      expect(invalid.isError).toBe(true);
      expect(JSON.parse(invalid.content[0]?.text ?? '')).toMatchObject({ error: expect.any(String) });
      await expect(client.callTool({ name: 'NonExistent', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toStrictEqual(['Add', 'DivMod', 'Remember', 'list_prompts', 'get_prompt']);
      const prompts = await client.listPrompts();
      expect(prompts.prompts.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('answers several results, no result and thrown errors to an SDK v2 client', async () => {
    const client = new ClientV2({ name: 'stdio-test', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StdioClientV2(params));
    try {
      const divided = (await client.callTool({ name: 'DivMod', arguments: { a: 17, b: 5 } })) as ToolResult;
      expect(divided.content[0]?.text).toBe('{"result0":3,"result1":2}');
      const stored = (await client.callTool({ name: 'Remember', arguments: { key: 'k', note: 'n' } })) as ToolResult;
      expect(stored.content[0]?.text).toBe('{}');
      const failed = (await client.callTool({ name: 'DivMod', arguments: { a: 1, b: 0 } })) as ToolResult;
      expect(failed.isError).toBe(true);
      expect(failed.content[0]?.text).toBe('{"error":"b must not be 0"}');
      const listed = (await client.callTool({ name: 'list_prompts', arguments: {} })) as ToolResult;
      expect(JSON.parse(listed.content[0]?.text ?? '')).toMatchObject({ result: { prompts: expect.any(Array) } });
    } finally {
      await client.close();
    }
  });
});
