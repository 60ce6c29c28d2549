/**
 * The server the official MCP conformance suite runs against (`npm run conformance`): exactly the suite's prompt and
 * resource fixtures, over streamable HTTP on 127.0.0.1. Run alone: `npx tsx examples/conformance/server.ts --port 3001`.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { attachResources } from '../../src/mcp/index.js';
import { startMcpHttpServer } from '../mcp-http-server.js';
import type { RunningMcpHttpServer } from '../mcp-http-server.js';
import { createConformanceRegistry } from './registry.js';
import { conformanceResourceSource } from './resources.js';

const NAME = 'mcp-prompt-kit-conformance';

/** Starts the conformance server; port 0 (the default) picks a free port. */
export function startConformanceServer(port = 0): Promise<RunningMcpHttpServer> {
  return startMcpHttpServer({
    registry: createConformanceRegistry(),
    host: '127.0.0.1',
    port,
    name: NAME,
    // Its documents never change, so a subscription never gets an update: serving subscribe promises nothing false.
    createMcpServer: () => {
      const server = new McpServer({ name: NAME, version: '1.0.0' });
      attachResources(server, conformanceResourceSource, { subscriptions: true });
      return server;
    },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
  const running = await startConformanceServer(Number(values.port));
  // The first stdout line is the URL: scripts/conformance/run.mjs reads it.
  console.log(running.url);
  const stop = (): void => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
