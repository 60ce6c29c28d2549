import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PromptRegistry } from 'mcp-prompt-kit';
import { createPromptRetrievalTool, toOpenAiTool } from 'mcp-prompt-kit/agent';

// Integration 1: prompts defined in this process.
const local = new PromptRegistry();
local.add({
  name: 'standup',
  description: 'Summarise yesterday for the daily stand-up',
  arguments: [{ name: 'notes', required: true }],
  messages: [{ role: 'user', content: 'Turn these notes into three stand-up bullet points:\n{{notes}}' }],
});

// Integration 2: a remote MCP server (the stdio example server, as a child process).
const remote = new Client({ name: 'agent-example', version: '1.0.0' });
await remote.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', fileURLToPath(new URL('mcp-stdio-server.ts', import.meta.url))],
    stderr: 'ignore',
  }),
);

const tool = createPromptRetrievalTool({ integrations: { local, examples: remote } });
await tool.refresh(); // lists every integration's prompts into the tool description
console.log(JSON.stringify(toOpenAiTool(tool.definition!), null, 2));

// What a model's tool calls get back: always a string, never a throw.
for (const call of [
  { integrationId: 'examples', promptName: 'review_code', arguments: { code: 'let total = a + b' } },
  { integrationId: 'examples', promptName: 'review_code' },
  { integrationId: 'crm', promptName: 'standup' },
]) {
  console.log(`\n> retrieve_mcp_prompt ${JSON.stringify(call)}\n${await tool.execute(call)}`);
}

tool.close();
await remote.close();
