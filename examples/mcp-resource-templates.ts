import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { PromptRegistry } from 'mcp-prompt-kit';
import { attachPrompts, completeFromResourceTemplates } from 'mcp-prompt-kit/mcp';

const ids = ['adr-001', 'adr-002', 'api'];
const server = new McpServer({ name: 'docs-server', version: '1.0.0' });
// 1. Resource templates with complete callbacks first: McpServer installs its completion handler for them ...
const docs = new ResourceTemplate('docs://{id}', {
  list: undefined,
  complete: { id: (value) => ids.filter((id) => id.startsWith(value)) },
});
server.registerResource('docs', docs, { mimeType: 'text/markdown' }, (uri, { id }) => ({
  contents: [{ uri: uri.href, text: `# ${id}` }],
}));

const prompts = new PromptRegistry();
prompts.add({
  name: 'summarize',
  arguments: [{ name: 'id', required: true, enum: ids }],
  messages: [{ role: 'user', content: 'Summarize docs://{{id}}.' }],
});
// 2. ... then attachPrompts takes that handler over: prompt arguments AND the templates' own complete callbacks.
attachPrompts(server, prompts, { completeResource: completeFromResourceTemplates([docs]) });
await server.connect(new StdioServerTransport());
