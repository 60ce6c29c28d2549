import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { JsonRpcError, PromptRegistry } from 'mcp-prompt-kit';
import { createFileAssetLoader, createFileResourceResolver, formatDiagnostic, watchPromptDirectory } from 'mcp-prompt-kit/fs';
import { attachPrompts } from 'mcp-prompt-kit/mcp';

const resources = createFileResourceResolver({ roots: { architecture: 'examples/docs' } });
const registry = new PromptRegistry({ resources, assets: createFileAssetLoader('examples/prompts') });
const watcher = watchPromptDirectory('examples/prompts', registry, {
  resources, // documents under its roots are watched too
  onDiagnostic: (d) => console.error(formatDiagnostic(d)), // a broken edit keeps the last good version
});
await watcher.ready;

serveStdio(() => {
  const server = new McpServer({ name: 'architecture-prompts', version: '1.0.0' });
  attachPrompts(server, registry); // list_changed goes out after each reload
  // The documents the prompts embed, for clients to read: resources/list and resources/read.
  server.server.registerCapabilities({ resources: {} });
  server.server.setRequestHandler('resources/list', async () => ({ resources: await resources.listResources() }));
  server.server.setRequestHandler('resources/read', (request) =>
    resources.readResource(request.params.uri).catch((error: unknown) => {
      throw JsonRpcError.from(error); // RESOURCE_DENIED, RESOURCE_NOT_FOUND, LIMIT_EXCEEDED: -32602
    }),
  );
  return server;
});
