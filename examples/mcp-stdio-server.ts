/**
 * `npx tsx examples/mcp-stdio-server.ts` (or `npm run --silent example:stdio`: plain `npm run` prints a banner on
 * stdout, the protocol channel): serves examples/prompts over stdio with MCP SDK v2 (`@modelcontextprotocol/server`).
 *
 * Use it from an MCP client config with absolute paths (docs/mcp.md, "Add prompts to your existing MCP server"), or try
 * it with `npx @modelcontextprotocol/inspector npx tsx examples/mcp-stdio-server.ts`.
 * stdout carries the protocol: log to stderr only.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { attachPrompts } from '../src/mcp/index.js';
import { createExampleRegistry } from './prompts/catalog.js';

const registry = createExampleRegistry();

// serveStdio asks the factory for a server per connection (both protocol eras: 2025 initialize and 2026-07-28).
serveStdio(() => {
  const server = new McpServer({ name: 'mcp-prompt-kit-example', version: '1.0.0' });
  attachPrompts(server, registry);
  return server;
});

process.stderr.write(`mcp-prompt-kit example: serving ${registry.size} prompts over stdio\n`);
