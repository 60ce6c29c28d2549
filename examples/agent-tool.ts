import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PromptRegistry } from 'mcp-prompt-kit';
import { createPromptRetrievalTool, toOpenAiTool } from 'mcp-prompt-kit/agent';
import { attachPrompts } from 'mcp-prompt-kit/mcp';

// Integration 1: prompts defined in this process.
const local = new PromptRegistry();
local.add({
  name: 'standup',
  description: 'Summarise yesterday for the daily stand-up',
  arguments: [{ name: 'notes', required: true }],
  messages: [{ role: 'user', content: 'Turn these notes into three stand-up bullet points:\n{{notes}}' }],
});

// Integration 2: an MCP server, reached through an SDK Client. This one runs in-process over an in-memory transport;
// a StdioClientTransport or StreamableHTTPClientTransport reaches a server elsewhere the same way.
const served = new PromptRegistry();
served.add({
  name: 'review_code',
  description: 'Review a snippet of code',
  arguments: [{ name: 'code', required: true }],
  messages: [{ role: 'user', content: 'Review this code:\n{{code}}' }],
});
const server = new McpServer({ name: 'examples', version: '1.0.0' });
attachPrompts(server, served);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const remote = new Client({ name: 'agent-example', version: '1.0.0' });
await remote.connect(clientSide);

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
