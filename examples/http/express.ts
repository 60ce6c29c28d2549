import express from 'express';
import { createNodeHandler } from 'mcp-prompt-kit/http';
import { createExampleFunctions, createExampleRegistry } from '../functions/app.js';

const app = express();
// Mounted at /api: POST /api/functions/Add, GET /api/prompts, GET /api/openapi.json, ...; other paths fall through.
app.use('/api', createNodeHandler({ prompts: createExampleRegistry(), functions: createExampleFunctions() }));
const server = app.listen(Number(process.env['PORT'] ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`http://127.0.0.1:${port}/api`);
});
