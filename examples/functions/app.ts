/**
 * The example app: three functions (one result, several results, no result) and the example prompts, served the same
 * way over MCP (stdio-server.ts), HTTP and CGI.
 */
import { FunctionRegistry, defineFunction } from '../../src/index.js';
import type { FunctionRegistryOptions } from '../../src/index.js';

export { createExampleRegistry } from '../prompts/catalog.js';

/** Add(x, y) -> `{"result": x + y}`. */
export const add = defineFunction({
  name: 'Add',
  title: 'Add',
  description: 'Adds two numbers.',
  arguments: [
    { name: 'x', type: 'number', required: true, description: 'First addend' },
    { name: 'y', type: 'number', required: true, description: 'Second addend' },
  ],
  outputSchema: { type: 'number' },
  run: ({ x, y }) => x + y,
});

/** DivMod(a, b) -> `{"result0": quotient, "result1": remainder}`; b = 0 is an error with a message. */
export const divMod = defineFunction({
  name: 'DivMod',
  description: 'Integer division: the quotient and the remainder.',
  arguments: [
    { name: 'a', type: 'integer', required: true },
    { name: 'b', type: 'integer', required: true },
  ],
  results: 'many',
  outputSchema: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'integer' }] },
  run: ({ a, b }) => {
    if (b === 0) throw new RangeError('b must not be 0');
    return [Math.trunc(a / b), a % b];
  },
});

/** The functions of one app; `Remember` (no result, `{}`) keeps its notes in this app's own map. */
export function createExampleFunctions(options: FunctionRegistryOptions = {}): FunctionRegistry {
  const notes = new Map<string, string>();
  const remember = defineFunction({
    name: 'Remember',
    description: 'Stores a note under a key. Returns nothing.',
    arguments: [
      { name: 'key', required: true, maxLength: 100 },
      { name: 'note', required: true },
    ],
    results: 'none',
    run: ({ key, note }) => {
      notes.set(key, note);
    },
  });
  return new FunctionRegistry(options).add([add, divMod, remember]);
}
