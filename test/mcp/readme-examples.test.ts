/**
 * The README's "add prompts to your existing MCP server" examples ARE examples/existing-server-v1.ts and -v2.ts:
 * this suite checks the README shows them verbatim and runs each as a stdio child process with a real client.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { wireError } from './fixtures/clients.js';

const root = new URL('../../', import.meta.url);
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe.each(['v1', 'v2'])('README example for SDK %s', (version) => {
  const file = `examples/existing-server-${version}.ts`;
  const source = readFileSync(new URL(file, root), 'utf8');

  it('is shown verbatim in the README, in at most 15 lines of code', () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${source}\`\`\``);
    expect(source.trim().split('\n').filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(15);
  });

  it('serves its prompt beside the existing tool over stdio', async () => {
    const client = new ClientV1({ name: 'readme-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', fileURLToPath(new URL(file, root))],
        cwd: fileURLToPath(root),
        stderr: 'ignore',
      }),
    );
    cleanup.push(() => client.close());
    expect((await client.listPrompts()).prompts).toEqual([
      { name: 'greet', arguments: [{ name: 'name', required: true }] },
    ]);
    expect((await client.getPrompt({ name: 'greet', arguments: { name: 'Ada <&>' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Say hello to Ada <&>.' } },
    ]);
    expect(await wireError(client.getPrompt({ name: 'greet' }))).toEqual({
      code: -32602,
      message: 'Missing required prompt arguments',
      data: { missing_arguments: ['name'], provided_count: 0, required_count: 1 },
    });
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({
      content: [{ type: 'text', text: '5' }],
    });
  });
});
