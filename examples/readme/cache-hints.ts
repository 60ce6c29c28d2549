import { McpServer } from '@modelcontextprotocol/server';
import { PromptRegistry } from 'mcp-prompt-kit';
import { attachPrompts } from 'mcp-prompt-kit/mcp';

const prompts = new PromptRegistry();
prompts.add({ name: 'greet', messages: [{ role: 'user', content: 'Say hello.' }] });
// Nothing changes `prompts` after this line: an hour is honest. Capabilities never change while a server runs.
const server = new McpServer(
  { name: 'static-prompts', version: '1.0.0' },
  { cacheHints: { 'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' } } },
);
attachPrompts(server, prompts, { cacheHints: { ttlMs: 3_600_000 } });

// What docs/mcp.md promises (run by test/readme.test.ts): a 2026-07-28 client sees the hour on both results.
import assert from 'node:assert/strict';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
const handle = serveStdio(() => server, { transport: serverSide as never });
const client = new Client({ name: 'check', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
await client.connect(clientSide);
const listed = (await client.request({ method: 'prompts/list', params: {} } as never)) as Record<string, unknown>;
assert.deepEqual([listed['ttlMs'], listed['cacheScope']], [3_600_000, 'public']);
const discovered = (await client.request({ method: 'server/discover', params: {} } as never)) as Record<
  string,
  unknown
>;
assert.deepEqual([discovered['ttlMs'], discovered['cacheScope']], [3_600_000, 'public']);
await client.close();
await handle.close();
