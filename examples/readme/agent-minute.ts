import { PromptRegistry } from 'mcp-prompt-kit';
import { createPromptRetrievalTool, toOpenAiTool } from 'mcp-prompt-kit/agent';

const team = new PromptRegistry(); // or an MCP SDK Client connected to any server
team.add({
  name: 'standup',
  arguments: [{ name: 'notes', required: true }],
  messages: [{ role: 'user', content: 'Three stand-up bullets from:\n{{notes}}' }],
});

const tool = createPromptRetrievalTool({ integrations: { team } });
await tool.refresh(); // lists every integration's prompts into the tool's description
const forTheModel = toOpenAiTool(tool.definition!); // or toAnthropicTool, toAiSdkTool

// The model calls retrieve_mcp_prompt; what it gets back is always a string, never a throw:
const text = await tool.execute({
  integrationId: 'team',
  promptName: 'standup',
  arguments: { notes: 'fixed the build' },
});
console.log(text); // {"prompt":"standup","messages":[{"role":"user","content":"Three stand-up bullets from:\nfixed the build"}]}

// What the README's comments promise (run by test/readme.test.ts):
import assert from 'node:assert/strict';

assert.equal(forTheModel.function.name, 'retrieve_mcp_prompt');
assert.ok(forTheModel.function.description.includes('standup'));
assert.equal(
  text,
  '{"prompt":"standup","messages":[{"role":"user","content":"Three stand-up bullets from:\\nfixed the build"}]}',
);
assert.match(await tool.execute({ integrationId: 'team', promptName: 'standup' }), /^Prompt retrieval failed: /);
tool.close();
