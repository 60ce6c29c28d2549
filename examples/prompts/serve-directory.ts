import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { PromptRegistry } from 'mcp-prompt-kit';
import {
  createFileAssetLoader,
  createFileResourceResolver,
  formatDiagnostic,
  watchPromptDirectory,
} from 'mcp-prompt-kit/fs';
import { attachPrompts, attachResources } from 'mcp-prompt-kit/mcp';

const resources = createFileResourceResolver({ roots: { architecture: 'examples/docs', docs: 'examples/style' } });
const registry = new PromptRegistry({ resources, assets: createFileAssetLoader('examples/prompts') });
const watcher = watchPromptDirectory('examples/prompts', registry, {
  resources, // documents under its roots are watched too
  onDiagnostic: (d) => console.error(formatDiagnostic(d)), // a broken edit keeps the last good version
});
await watcher.ready;

serveStdio(() => {
  const server = new McpServer({ name: 'architecture-prompts', version: '1.0.0' });
  attachPrompts(server, registry); // list_changed goes out after each reload
  attachResources(server, resources); // resources/list + resources/read: what the prompts embed, for clients to read
  return server;
});
