/**
 * The server the official MCP conformance suite runs against (`npm run conformance`): exactly the suite's prompt
 * fixtures, over streamable HTTP on 127.0.0.1. Run alone: `npx tsx examples/conformance/server.ts --port 3001`.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startMcpHttpServer } from '../mcp-http-server.js';
import type { RunningMcpHttpServer } from '../mcp-http-server.js';
import { createConformanceRegistry } from './registry.js';

/** Starts the conformance server; port 0 (the default) picks a free port. */
export function startConformanceServer(port = 0): Promise<RunningMcpHttpServer> {
  return startMcpHttpServer({
    registry: createConformanceRegistry(),
    host: '127.0.0.1',
    port,
    name: 'mcp-prompt-kit-conformance',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
  const running = await startConformanceServer(Number(values.port));
  // The first stdout line is the URL: scripts/conformance.mjs reads it.
  console.log(running.url);
  const stop = (): void => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
