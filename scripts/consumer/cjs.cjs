// CommonJS consumer of the INSTALLED mcp-prompt-kit (run by scripts/consumer/smoke.mjs inside a temporary project).
// Also loads the ESM build in the same process (dual-package hazard): errors and registries must work across copies.
'use strict';
const assert = require('node:assert/strict');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { PromptError, PromptRegistry, definePrompt, handleJsonRpc, isPromptError, toPromptError } = require('mcp-prompt-kit');
const { attachPrompts } = require('mcp-prompt-kit/mcp');

const CODE = `if (a < b && c > "d") return '<b>&amp;</b>';`;

function reviewPrompt(define) {
  return define({
    name: 'review-code',
    arguments: [
      { name: 'code', required: true },
      { name: 'language', enum: ['ts', 'go'], default: 'ts' },
    ],
    messages: [{ role: 'user', content: 'Review this {{language}} code:\n{{code}}' }],
  });
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new assert.AssertionError({ message: 'expected a rejection' });
}

async function main() {
  // The `require` condition must route to the CJS build.
  assert.match(require.resolve('mcp-prompt-kit'), /[\\/]node_modules[\\/]mcp-prompt-kit[\\/]dist[\\/][^\\/]+\.cjs$/);
  assert.match(require.resolve('mcp-prompt-kit/mcp'), /[\\/]node_modules[\\/]mcp-prompt-kit[\\/]dist[\\/][^\\/]+\.cjs$/);

  const registry = new PromptRegistry();
  registry.add(reviewPrompt(definePrompt));
  const result = await registry.getPrompt('review-code', { code: CODE });
  assert.deepEqual(result.messages, [{ role: 'user', content: { type: 'text', text: `Review this ts code:\n${CODE}` } }]);

  const missing = await handleJsonRpc(registry, {
    jsonrpc: '2.0',
    id: 'm',
    method: 'prompts/get',
    params: { name: 'review-code', arguments: {} },
  });
  assert.equal(missing.id, 'm');
  assert.equal(missing.error.code, -32602);
  assert.deepEqual(missing.error.data.missing_arguments, ['code']);

  // Dual-package hazard: the ESM build in the same process is a different copy of every class...
  const esm = await import('mcp-prompt-kit');
  const esmMcp = await import('mcp-prompt-kit/mcp');
  assert.notEqual(esm.PromptError, PromptError, 'expected the ESM and CJS builds to be two copies');
  const esmRegistry = new esm.PromptRegistry();
  esmRegistry.add(reviewPrompt(esm.definePrompt));
  const esmError = await rejection(esmRegistry.getPrompt('nope'));
  const cjsError = await rejection(registry.getPrompt('nope'));
  assert.ok(esmError instanceof esm.PromptError && !(esmError instanceof PromptError));
  // ...yet each copy's brand check recognises the other's errors, and maps them through its own table.
  assert.ok(isPromptError(esmError), 'CJS isPromptError does not recognise an error thrown by the ESM build');
  assert.ok(esm.isPromptError(cjsError), 'ESM isPromptError does not recognise an error thrown by the CJS build');
  const mapped = toPromptError(esmError);
  assert.ok(mapped instanceof PromptError);
  assert.equal(mapped.code, 'PROMPT_NOT_FOUND');
  assert.equal(mapped.message, 'Unknown prompt: nope');
  assert.equal(mapped.rpcCode, -32602);
  // Mixed copies: the CJS protocol handler serves an ESM registry, and reports its errors as wire errors.
  const crossed = await handleJsonRpc(esmRegistry, {
    jsonrpc: '2.0',
    id: 1,
    method: 'prompts/get',
    params: { name: 'review-code', arguments: {} },
  });
  assert.equal(crossed.error.code, -32602);
  assert.deepEqual(crossed.error.data.missing_arguments, ['code']);

  // A real SDK v1 McpServer (CJS build of the SDK) with the CJS adapter, and the ESM adapter on a second server.
  for (const [label, attach] of [['cjs', attachPrompts], ['esm', esmMcp.attachPrompts]]) {
    const server = new McpServer({ name: `consumer-cjs-${label}`, version: '1.0.0' });
    const detach = attach(server, registry);
    const client = new Client({ name: 'consumer-cjs-client', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    try {
      const listed = await client.listPrompts();
      assert.deepEqual(listed.prompts.map((p) => p.name), ['review-code'], `${label} adapter: prompts/list`);
      const got = await client.getPrompt({ name: 'review-code', arguments: { code: CODE } });
      assert.equal(got.messages[0].content.text, `Review this ts code:\n${CODE}`, `${label} adapter: prompts/get`);
      const error = await rejection(client.getPrompt({ name: 'review-code', arguments: {} }));
      assert.equal(error.code, -32602, `${label} adapter: missing argument code`);
      assert.deepEqual(error.data.missing_arguments, ['code'], `${label} adapter: missing argument data`);
    } finally {
      detach();
      await client.close();
      await server.close();
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
