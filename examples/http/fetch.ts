import { createServer } from 'node:http';
import { FunctionRegistry, PromptRegistry, defineFunction } from 'mcp-prompt-kit';
import { createFetchHandler, createNodeHandler } from 'mcp-prompt-kit/http';

const prompts = new PromptRegistry();
prompts.add({
  name: 'greet',
  arguments: [{ name: 'name', required: true }],
  messages: [{ role: 'user', content: 'Say hello to {{name}}.' }],
});
const add = defineFunction({
  name: 'Add',
  arguments: [
    { name: 'x', type: 'number', required: true },
    { name: 'y', type: 'number', required: true },
  ],
  run: ({ x, y }) => x + y,
});
const functions = new FunctionRegistry().add(add);

const source = { prompts, functions };

// Web-standard runtimes (Bun, Deno, Cloudflare Workers, Next.js route handlers) take the fetch handler as it is:
export const handle = createFetchHandler(source); // (request: Request) => Promise<Response>

// On node:http, the node handler serves the same routes, bodies and statuses:
const server = createServer(createNodeHandler(source)).listen(Number(process.env['PORT'] ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`http://127.0.0.1:${port}`);
});
