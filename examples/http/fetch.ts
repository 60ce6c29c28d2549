import { createServer } from 'node:http';
import { createFetchHandler, createNodeHandler } from 'mcp-prompt-kit/http';
import { createExampleFunctions, createExampleRegistry } from '../functions/app.js';

const source = { prompts: createExampleRegistry(), functions: createExampleFunctions() };

// Web-standard runtimes (Bun, Deno, Cloudflare Workers, Next.js route handlers) take the fetch handler as it is:
export const handle = createFetchHandler(source); // (request: Request) => Promise<Response>

// On node:http, the node handler serves the same routes, bodies and statuses:
const server = createServer(createNodeHandler(source)).listen(Number(process.env['PORT'] ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`http://127.0.0.1:${port}`);
});
