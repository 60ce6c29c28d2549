import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { FunctionRegistry, PromptRegistry, defineFunction } from 'mcp-prompt-kit';
import { createFetchHandler } from 'mcp-prompt-kit/http';

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

const api = createFetchHandler({ prompts, functions }, { basePath: '/api' });
const app = new Hono();
app.all('/api/*', (c) => api(c.req.raw, c.env)); // the web-standard Request as it is; c.env: the connection
serve({ fetch: app.fetch, port: Number(process.env['PORT'] ?? 3000), hostname: '127.0.0.1' }, ({ port }) => {
  console.log(`http://127.0.0.1:${port}/api`);
});
