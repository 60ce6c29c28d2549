/**
 * Serves the example functions as MCP tools, and the example prompts both as prompts and (for clients that only
 * support tools) as the `list_prompts` / `get_prompt` tools, over stdio with MCP SDK v2.
 *
 * MCP client config: `{"command": "npx", "args": ["tsx", "examples/functions/stdio-server.ts"]}`.
 * stdout carries the protocol: log to stderr only.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { attachFunctions, attachPrompts } from '../../src/mcp/index.js';
import { createExampleFunctions, createExampleRegistry } from './app.js';

const functions = createExampleFunctions();
const prompts = createExampleRegistry();

serveStdio(() => {
  const server = new McpServer({ name: 'mcp-prompt-kit-functions', version: '1.0.0' });
  attachPrompts(server, prompts);
  attachFunctions(server, functions, { prompts });
  return server;
});

process.stderr.write(
  `mcp-prompt-kit functions example: ${functions.size} functions, ${prompts.size} prompts over stdio\n`,
);
