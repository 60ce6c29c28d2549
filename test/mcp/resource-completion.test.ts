/**
 * Prompt completions beside an McpServer's resource templates: one server has ONE completion/complete handler, so
 * attachPrompts answers `ref/resource` through its completeResource option (completeFromResourceTemplates reads the
 * templates' own complete callbacks). Real SDK servers and clients, v1 and v2.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { attachPrompts, completeFromResourceTemplates } from '../../src/mcp/index.js';
import type {
  AttachPromptsOptions,
  CompleteResourceParams,
  McpRequestInfo,
  SdkMcpServerLike,
} from '../../src/mcp/index.js';
import type { TestClient } from './fixtures/clients.js';
import { createTestClient, linkedPair, wireError } from './fixtures/clients.js';
import { createTestRegistry } from './fixtures/prompts.js';
import type { TestServer } from './fixtures/servers.js';
import { DOCS_TEMPLATE, createTestServer } from './fixtures/servers.js';

const open: { server: TestServer; client: TestClient }[] = [];
afterEach(async () => {
  for (const { client, server } of open.splice(0)) {
    await client.close();
    await server.close();
  }
});

async function connectClient(server: TestServer): Promise<TestClient> {
  const sdk = server.kind.startsWith('v1') ? 'v1' : 'v2';
  const client = createTestClient(sdk);
  const [clientSide, serverSide] = linkedPair(sdk);
  await server.connect(serverSide);
  await client.connect(clientSide);
  open.push({ server, client });
  return client;
}

const PARIS = { values: ['paris', 'park', 'party'], total: 3, hasMore: false };

for (const kind of ['v1-mcp', 'v2-mcp'] as const) {
  describe(`attachPrompts beside ${kind} McpServer resource templates`, () => {
    it('completes prompt arguments and template variables on the same server (templates registered first)', async () => {
      const server = createTestServer(kind);
      const docs = server.addDocsTemplate!({ complete: true });
      attachPrompts(server.attachable, createTestRegistry(), {
        completeResource: completeFromResourceTemplates([docs]),
      });
      const client = await connectClient(server);

      expect(client.serverCapabilities()?.['completions']).toEqual({});
      expect((await client.complete('plan_trip', 'city', 'par')).completion).toEqual(PARIS);
      expect((await client.completeResource(DOCS_TEMPLATE, 'id', 'adr')).completion).toEqual({
        values: ['adr-001', 'adr-002'],
        total: 2,
        hasMore: false,
      });
      // A variable without a complete callback has no values; an unknown template is a client error.
      expect((await client.completeResource(DOCS_TEMPLATE, 'other', '')).completion.values).toEqual([]);
      expect(await wireError(client.completeResource('nope://{x}', 'x', ''))).toEqual({
        code: -32602,
        message: 'Resource template not found: nope://{x}',
      });
    });

    it('keeps resources registered through McpServer readable beside the prompts', async () => {
      const server = createTestServer(kind);
      attachPrompts(server.attachable, createTestRegistry());
      server.addDocsTemplate!({ complete: false });
      const client = await connectClient(server);
      expect(client.serverCapabilities()?.['resources']).toBeDefined();
      expect((await client.readResource('docs://style')).contents).toEqual([
        { uri: 'docs://style', text: 'doc style' },
      ]);
      expect((await client.listPage()).prompts.map((p) => p.name)).toContain('plan_trip');
      // Without completeResource, resource-template completion has no values (and is no error).
      expect((await client.completeResource(DOCS_TEMPLATE, 'id', 'a')).completion.values).toEqual([]);
    });

    it('answers ref/resource from a completeResource function when attached first, whatever the registration order', async () => {
      const server = createTestServer(kind);
      const calls: [CompleteResourceParams, McpRequestInfo['method']][] = [];
      attachPrompts(server.attachable, createTestRegistry(), {
        completeResource: (params, request) => {
          calls.push([params, request.method]);
          return { completion: { values: [`${params.ref.uri}|${params.argument.name}=${params.argument.value}`] } };
        },
      });
      server.addDocsTemplate!({ complete: false }); // no complete callbacks: McpServer installs no completion handler
      const client = await connectClient(server);
      expect((await client.completeResource(DOCS_TEMPLATE, 'id', 'x')).completion.values).toEqual(['docs://{id}|id=x']);
      expect((await client.complete('plan_trip', 'city', 'par')).completion).toEqual(PARIS);
      expect(calls).toEqual([
        [
          { ref: { type: 'ref/resource', uri: DOCS_TEMPLATE }, argument: { name: 'id', value: 'x' } },
          'completion/complete',
        ],
      ]);
    });

    it('without completeResource, refuses a server whose templates already installed a completion handler, naming the option', () => {
      const server = createTestServer(kind);
      server.addDocsTemplate!({ complete: true });
      expect(() => attachPrompts(server.attachable, createTestRegistry())).toThrow(
        /already has a handler for completion\/complete \(McpServer registered one for a resource template.*completeResource: completeFromResourceTemplates/,
      );
      // Given the McpServer's low-level .server, the message points back to the McpServer and the option.
      const lowLevel = (server.attachable as SdkMcpServerLike).server;
      expect(() =>
        attachPrompts(lowLevel, createTestRegistry(), { completeResource: () => ({ completion: { values: [] } }) }),
      ).toThrow(
        /completion\/complete \(McpServer owns it if this is the `\.server` of an McpServer.*pass the McpServer itself with the completeResource option/,
      );
    });

    it('is refused by McpServer when a template with complete callbacks is registered AFTER attachPrompts (register templates first)', () => {
      const server = createTestServer(kind);
      attachPrompts(server.attachable, createTestRegistry(), {
        completeResource: () => ({ completion: { values: [] } }),
      });
      expect(() => server.addDocsTemplate!({ complete: true })).toThrow(/completion\/complete/);
    });

    it('maps completeResource failures: PromptError through the table, a bad result to -32603, over 100 values capped', async () => {
      const server = createTestServer(kind);
      const results: Record<string, () => unknown> = {
        'denied://{x}': () => {
          throw new PromptError('RESOURCE_DENIED', 'Resource denied: denied://{x}');
        },
        'bad://{x}': () => ({ completion: { values: [1, 2] } }),
        'many://{x}': () => ({ completion: { values: Array.from({ length: 150 }, (_, i) => `v${i}`) } }),
      };
      const options: AttachPromptsOptions = {
        completeResource: (params) => results[params.ref.uri]!() as never,
      };
      attachPrompts(server.attachable, createTestRegistry(), options);
      const client = await connectClient(server);
      expect(await wireError(client.completeResource('denied://{x}', 'x', ''))).toEqual({
        code: -32602,
        message: 'Resource denied: denied://{x}',
      });
      expect(await wireError(client.completeResource('bad://{x}', 'x', ''))).toEqual({
        code: -32603,
        message: 'Internal error',
      });
      const many = (await client.completeResource('many://{x}', 'x', '')).completion;
      expect(many.values).toHaveLength(100);
      expect(many).toMatchObject({ total: 150, hasMore: true });
    });
  });
}

describe('completeFromResourceTemplates', () => {
  it('throws a TypeError when given something other than SDK resource templates', () => {
    expect(() => completeFromResourceTemplates([{} as never])).toThrow(TypeError);
    expect(() => completeFromResourceTemplates('docs://{id}' as never)).toThrow(TypeError);
  });
});
