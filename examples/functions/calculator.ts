import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { FunctionRegistry, defineFunction } from 'mcp-prompt-kit';
import { attachFunctions } from 'mcp-prompt-kit/mcp';

const add = defineFunction({
  name: 'Add',
  description: 'Adds two numbers.',
  arguments: [
    { name: 'x', type: 'number', required: true },
    { name: 'y', type: 'number', required: true },
  ],
  run: ({ x, y }) => x + y, // x and y are numbers
});

const server = new Server({ name: 'calculator', version: '1.0.0' });
attachFunctions(server, new FunctionRegistry().add(add)); // before connect(): tools/list, tools/call
await server.connect(new StdioServerTransport());
