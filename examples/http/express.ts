import express from 'express';
import type { ErrorRequestHandler } from 'express';
import { FunctionRegistry, PromptRegistry, defineFunction } from 'mcp-prompt-kit';
import { createNodeHandler } from 'mcp-prompt-kit/http';

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

const app = express();
app.use(express.json()); // fine in front: the handler takes the body express.json() parsed (req.body)
// Mounted at /api: POST /api/functions/Add, GET /api/prompts, GET /api/openapi.json, ...; other paths fall through.
app.use('/api', createNodeHandler({ prompts, functions }));
// A body express.json() cannot parse never reaches the handler: answer it in the same JSON format.
const jsonErrors: ErrorRequestHandler = (error: { status?: number }, _req, res, _next) => {
  const status = typeof error.status === 'number' && error.status < 500 ? error.status : 500;
  res.status(status).json({
    error: status === 400 ? 'Invalid JSON body' : status === 413 ? 'Request body too large' : 'Internal error',
  });
};
app.use(jsonErrors);
const server = app.listen(Number(process.env['PORT'] ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`http://127.0.0.1:${port}/api`);
});
