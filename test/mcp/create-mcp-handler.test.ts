/**
 * attachPrompts and attachResources behind SDK v2's per-request `createMcpHandler` (its default stateless fallback for
 * 2025-era clients), as docs/mcp.md "Notifications on every transport and era" describes: 2026-07-28 clients hear of
 * changes on their `subscriptions/listen` stream through `handler.notify`, and 2025-era clients, which nothing can
 * reach, are promised no list_changed. Real SDK clients over the handler's fetch face (no socket needed).
 */
import { StreamableHTTPClientTransport as HttpClientV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport as HttpClientV2 } from '@modelcontextprotocol/client';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { attachPrompts, attachResources } from '../../src/mcp/index.js';
import { createTestClient, waitFor } from './fixtures/clients.js';
import type { TestClient } from './fixtures/clients.js';
import { createTestRegistry, simplePrompt } from './fixtures/prompts.js';

const URL_ = new URL('http://127.0.0.1/mcp');
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close().catch(() => {})));
});

function setUp(): { handler: McpHttpHandler; registry: ReturnType<typeof createTestRegistry> } {
  const registry = createTestRegistry();
  const handler = createMcpHandler(({ era }) => {
    const server = new McpServer({ name: 'handler', version: '1.0.0' });
    // Only 2026-07-28 clients can be told of changes (on subscriptions/listen); 2025-era ones are served statelessly.
    attachPrompts(server, registry, { listChanged: era === 'modern' });
    attachResources(
      server,
      {
        listResources: () => [{ uri: 'doc://a', name: 'a' }],
        readResource: (uri) => {
          throw new PromptError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}`);
        },
      },
      { listChanged: era === 'modern' },
    );
    return server;
  });
  const off = registry.onChange(() => handler.notify.promptsChanged());
  open.push(async () => {
    off();
    await handler.close();
  });
  return { handler, registry };
}

async function connected(client: TestClient, transport: unknown): Promise<TestClient> {
  await client.connect(transport);
  open.push(() => client.close());
  return client;
}

describe('attachPrompts behind createMcpHandler', () => {
  it('delivers registry and document changes to a 2026-07-28 client on its subscriptions/listen stream', async () => {
    const { handler, registry } = setUp();
    const fetch = (input: string | URL | Request, init?: RequestInit) => handler.fetch(new Request(input, init));
    const client = await connected(createTestClient('v2', { modern: true }), new HttpClientV2(URL_, { fetch }));
    expect(client.serverCapabilities()).toMatchObject({
      prompts: { listChanged: true },
      resources: { listChanged: true },
    });
    expect(client.honoredFilter()).toEqual({ promptsListChanged: true, resourcesListChanged: true });

    registry.set(simplePrompt('added'));
    await waitFor(() => client.listChangedCount() >= 1, 30_000, 'notifications/prompts/list_changed');
    expect((await client.listPage()).prompts.map((p) => p.name)).toContain('added');
    handler.notify.resourcesChanged();
    await waitFor(() => client.resourcesChangedCount() >= 1, 30_000, 'notifications/resources/list_changed');
  });

  it('promises no list_changed to a 2025-era client served statelessly', async () => {
    const { handler } = setUp();
    const fetch = (input: string | URL | Request, init?: RequestInit) => handler.fetch(new Request(input, init));
    const client = await connected(createTestClient('v1'), new HttpClientV1(URL_, { fetch }));
    expect(client.serverCapabilities()).toMatchObject({
      prompts: { listChanged: false },
      resources: { listChanged: false },
    });
    expect((await client.listPage()).prompts.length).toBeGreaterThan(0);
  });
});
