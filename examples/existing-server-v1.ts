import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { PromptRegistry } from 'mcp-prompt-kit';
import { attachPrompts } from 'mcp-prompt-kit/mcp';

const server = new McpServer({ name: 'my-server', version: '1.0.0' });
server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
  content: [{ type: 'text', text: String(a + b) }],
}));

const prompts = new PromptRegistry();
prompts.add({
  name: 'greet',
  arguments: [{ name: 'name', required: true }],
  messages: [{ role: 'user', content: 'Say hello to {{name}}.' }],
});
attachPrompts(server, prompts); // before connect(): prompts/list, prompts/get, completion/complete, list_changed
await server.connect(new StdioServerTransport());
