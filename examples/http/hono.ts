import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createFetchHandler } from 'mcp-prompt-kit/http';
import { createExampleFunctions, createExampleRegistry } from '../functions/app.js';

const api = createFetchHandler({ prompts: createExampleRegistry(), functions: createExampleFunctions() }, { basePath: '/api' });
const app = new Hono();
app.all('/api/*', (c) => api(c.req.raw, c.env)); // the web-standard Request as it is; c.env: the connection
serve({ fetch: app.fetch, port: Number(process.env['PORT'] ?? 3000), hostname: '127.0.0.1' }, ({ port }) => {
  console.log(`http://127.0.0.1:${port}/api`);
});
