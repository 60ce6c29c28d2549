// ESM consumer of the INSTALLED mcp-prompt-kit (run by scripts/consumer/smoke.mjs inside a temporary project).
// Exits non-zero with an assertion message on the first thing that does not work as documented.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PromptRegistry, definePrompt, handleJsonRpc, isPromptError } from 'mcp-prompt-kit';
import { attachPrompts } from 'mcp-prompt-kit/mcp';

// The `import` condition must route to the ESM build.
assert.match(import.meta.resolve('mcp-prompt-kit'), /\/node_modules\/mcp-prompt-kit\/dist\/[^/]+\.js$/);
assert.match(import.meta.resolve('mcp-prompt-kit/mcp'), /\/node_modules\/mcp-prompt-kit\/dist\/[^/]+\.js$/);

const CODE = `if (a < b && c > "d") return '<b>&amp;</b>';`;

const registry = new PromptRegistry();
registry.add([
  definePrompt({
    name: 'review-code',
    description: 'Reviews code',
    arguments: [
      { name: 'code', required: true },
      { name: 'language', enum: ['ts', 'go'], default: 'ts' },
    ],
    messages: [{ role: 'user', content: 'Review this {{language}} code:\n{{code}}' }],
  }),
  definePrompt({
    name: 'greet',
    arguments: [{ name: 'who', required: true }],
    render: (args) => `Hello, ${args.who}!`,
  }),
]);

// getPrompt: the template renders the argument verbatim (no HTML escaping) and applies the default.
const result = await registry.getPrompt('review-code', { code: CODE });
assert.deepEqual(result.messages, [{ role: 'user', content: { type: 'text', text: `Review this ts code:\n${CODE}` } }]);
const greeting = await registry.getPrompt('greet', { who: '<Ada & "Bob">' });
assert.equal(greeting.messages[0]?.content.text, 'Hello, <Ada & "Bob">!');

// A missing required argument is a -32602 JSON-RPC error with data.missing_arguments.
const missing = await handleJsonRpc(
  registry,
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'prompts/get', params: { name: 'review-code', arguments: {} } }),
);
assert.equal(missing?.jsonrpc, '2.0');
assert.equal(missing?.id, 7);
assert.equal(missing?.error?.code, -32602);
assert.deepEqual(missing?.error?.data?.missing_arguments, ['code']);
await assert.rejects(
  registry.getPrompt('review-code', {}),
  (error) => isPromptError(error) && error.code === 'PROMPT_ARGUMENT_MISSING',
);

// A real SDK v1 McpServer, a real Client, linked in memory.
const server = new McpServer({ name: 'consumer-esm', version: '1.0.0' });
const detach = attachPrompts(server, registry);
const client = new Client({ name: 'consumer-esm-client', version: '1.0.0' });
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await server.connect(serverTransport);
await client.connect(clientTransport);
try {
  const listed = await client.listPrompts();
  assert.deepEqual(listed.prompts.map((p) => p.name).sort(), ['greet', 'review-code']);
  const review = listed.prompts.find((p) => p.name === 'review-code');
  assert.deepEqual(
    review?.arguments?.map((a) => a.name),
    ['code', 'language'],
  );
  const got = await client.getPrompt({ name: 'review-code', arguments: { code: CODE, language: 'go' } });
  assert.equal(got.messages[0]?.content.type, 'text');
  assert.equal(got.messages[0]?.content.text, `Review this go code:\n${CODE}`);
  await assert.rejects(client.getPrompt({ name: 'review-code', arguments: {} }), (error) => {
    assert.equal(error.code, -32602);
    assert.deepEqual(error.data?.missing_arguments, ['code']);
    return true;
  });
} finally {
  detach();
  await client.close();
  await server.close();
}
