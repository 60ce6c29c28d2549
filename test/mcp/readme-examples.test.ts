/**
 * docs/mcp.md's "Add prompts to your existing MCP server" examples ARE examples/existing-server-v1.ts and -v2.ts
 * (v1 is also the README's one-minute MCP server): this suite checks the page shows them verbatim and runs each as a
 * stdio child process with a real client.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { attachPrompts } from '../../src/mcp/index.js';
import type { AttachPromptsOptions } from '../../src/mcp/index.js';
import { createTestClient, linkedPair, wireError } from './fixtures/clients.js';
import { blocksIn, pageText, section } from '../readme-blocks.js';
import { createTestRegistry } from './fixtures/prompts.js';
import { childCoverageEnv, tsNodeArgs } from '../support/processes.js';

const root = new URL('../../', import.meta.url);
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe.each(['examples/existing-server-v1.ts', 'examples/existing-server-v2.ts'])(
  'docs/mcp.md example %s',
  (file) => {
    const source = readFileSync(new URL(file, root), 'utf8');

    it('is shown verbatim in docs/mcp.md, in at most 17 lines of code', () => {
      expect(blocksIn('docs/mcp.md', 'Add prompts to your existing MCP server', 'ts').map((b) => b.code)).toContain(
        source,
      );
      expect(
        source
          .trim()
          .split('\n')
          .filter((line) => line.trim() !== '').length,
      ).toBeLessThanOrEqual(17);
    });

    it('serves its prompt beside the existing tool over stdio', async () => {
      const client = new ClientV1({ name: 'readme-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: tsNodeArgs(fileURLToPath(new URL(file, root))),
          cwd: fileURLToPath(root),
          env: childCoverageEnv(),
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
  },
);

function stdioClient(file: string): Promise<ClientV1> {
  const client = new ClientV1({ name: 'readme-test', version: '1.0.0' });
  cleanup.push(() => client.close());
  return client
    .connect(
      new StdioClientTransport({
        command: process.execPath,
        args: tsNodeArgs(fileURLToPath(new URL(file, root))),
        cwd: fileURLToPath(root),
        env: childCoverageEnv(),
        stderr: 'ignore',
      }),
    )
    .then(() => client);
}

describe('docs/mcp.md: completions beside McpServer resource templates', () => {
  const file = 'examples/mcp-resource-templates.ts';
  const source = readFileSync(new URL(file, root), 'utf8');

  it('shows examples/mcp-resource-templates.ts verbatim', () => {
    expect(blocksIn('docs/mcp.md', 'Add prompts to your existing MCP server', 'ts').map((b) => b.code)).toContain(
      source,
    );
  });

  it('completes the prompt argument and the template variable from one server, and still reads the resource', async () => {
    const client = await stdioClient(file);
    const prompt = await client.complete({
      ref: { type: 'ref/prompt', name: 'summarize' },
      argument: { name: 'id', value: 'adr' },
    });
    expect(prompt.completion.values).toEqual(['adr-001', 'adr-002']);
    const template = await client.complete({
      ref: { type: 'ref/resource', uri: 'docs://{id}' },
      argument: { name: 'id', value: 'a' },
    });
    expect(template.completion.values).toEqual(['adr-001', 'adr-002', 'api']);
    expect((await client.readResource({ uri: 'docs://api' })).contents).toEqual([{ uri: 'docs://api', text: '# api' }]);
    expect((await client.getPrompt({ name: 'summarize', arguments: { id: 'api' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Summarize docs://api.' } },
    ]);
  });
});

describe('docs/mcp.md: the context option', () => {
  const SNIPPET = 'context: (request) => ({ user: request.authInfo?.clientId })';

  it('typechecks as shown and hands render functions the authenticated client id', async () => {
    expect(section('Add prompts to your existing MCP server', pageText('docs/mcp.md'))).toContain(`\`${SNIPPET}\``);
    // The page's code, compiled by `tsc` with this file:
    const options: AttachPromptsOptions = { context: (request) => ({ user: request.authInfo?.clientId }) };
    expect(readFileSync(fileURLToPath(import.meta.url), 'utf8')).toContain(`{ ${SNIPPET} }`);

    const server = new McpServer({ name: 'readme-context', version: '1.0.0' });
    attachPrompts(server, createTestRegistry(), options);
    const client = createTestClient('v1');
    const [clientSide, serverSide] = linkedPair('v1') as [
      { send(message: unknown, options?: Record<string, unknown>): Promise<void> },
      Parameters<McpServer['connect']>[0],
    ];
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, sendOptions) =>
      send(message, { ...sendOptions, authInfo: { token: 't', clientId: 'ada', scopes: [] } });
    await server.connect(serverSide);
    await client.connect(clientSide);
    cleanup.push(async () => {
      await client.close();
      await server.close();
    });
    expect((await client.getPrompt('whoami')).messages[0]?.content).toEqual({ type: 'text', text: 'user=ada' });
  });
});
