import { PromptRegistry } from 'mcp-prompt-kit';
import { createPromptRetrievalTool } from 'mcp-prompt-kit/agent';

const registry = new PromptRegistry();
registry.add({
  name: 'summarise',
  arguments: [{ name: 'text', required: true }],
  messages: [
    { role: 'user', content: 'Summarise this:\n{{text}}' },
    { role: 'assistant', content: 'Here is the summary.' },
  ],
});

const tool = createPromptRetrievalTool({ integrations: { local: registry }, maxResultLength: 1_000 });
await tool.refresh();

const text = await tool.execute({
  integrationId: 'local',
  promptName: 'summarise',
  arguments: { text: 'x'.repeat(5_000) },
});
if (text.startsWith('Prompt retrieval failed: ')) throw new Error(text);
const { messages, truncated } = JSON.parse(text) as {
  prompt: string;
  description?: string;
  messages: { role: 'user' | 'assistant'; content: string; droppedCharacters?: number }[];
  truncated?: { maxResultLength: number; maxMessages: number; messageCount: number; omittedMessages: number };
};
console.log(messages[0]?.droppedCharacters); // 4362: the end of the first message was cut to fit 1,000 characters
console.log(truncated); // { maxResultLength: 1000, maxMessages: 100, messageCount: 2, omittedMessages: 1 }

// What docs/agents.md's comments promise (run by test/readme.test.ts):
import assert from 'node:assert/strict';

assert.ok(text.length <= 1_000);
assert.equal(messages.length, 1);
assert.equal(messages[0]?.role, 'user');
assert.equal(messages[0]?.droppedCharacters, 'Summarise this:\n'.length + 5_000 - messages[0]!.content.length);
assert.equal(messages[0]?.droppedCharacters, 4362);
assert.deepEqual(truncated, { maxResultLength: 1000, maxMessages: 100, messageCount: 2, omittedMessages: 1 });
