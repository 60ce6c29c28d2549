import { PromptRegistry, createPromptHandlers, handleJsonRpc } from 'mcp-prompt-kit';

const registry = new PromptRegistry(); // the Quick start's, or any other
registry.add({
  name: 'review_code',
  arguments: [{ name: 'code', required: true }],
  messages: [{ role: 'user', content: 'Review:\n{{code}}' }],
});

const handlers = createPromptHandlers(registry); // { 'prompts/list', 'prompts/get', 'completion/complete' }
await handlers['prompts/get']({ name: 'review_code', arguments: { code: 'x' } });

// or one JSON-RPC 2.0 message in, one response out (null for notifications):
await handleJsonRpc(registry, '{"jsonrpc":"2.0","id":1,"method":"prompts/list"}');

// What docs/mcp.md promises (run by test/readme.test.ts):
import assert from 'node:assert/strict';

const got = await handlers['prompts/get']({ name: 'review_code', arguments: { code: 'x' } });
assert.equal(got.messages.length, 1);
const response = await handleJsonRpc(registry, '{"jsonrpc":"2.0","id":1,"method":"prompts/list"}');
assert.ok(response !== null && 'result' in response);
