import express from 'express';
import { FunctionRegistry, PromptRegistry, defineFunction } from 'mcp-prompt-kit';
import { createNodeHandler } from 'mcp-prompt-kit/http';

const prompts = new PromptRegistry();
prompts.add({ name: 'greet', arguments: [{ name: 'name', required: true }], messages: [{ role: 'user', content: 'Say hello to {{name}}.' }] });
const add = defineFunction({ name: 'Add', arguments: [{ name: 'x', type: 'number', required: true }, { name: 'y', type: 'number', required: true }], run: ({ x, y }) => x + y });
const functions = new FunctionRegistry().add(add);

const app = express();
// Mounted at /api: POST /api/functions/Add, GET /api/prompts, GET /api/openapi.json, ...; other paths fall through.
app.use('/api', createNodeHandler({ prompts, functions }));
const server = app.listen(Number(process.env['PORT'] ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`http://127.0.0.1:${port}/api`);
});
