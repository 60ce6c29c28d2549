/**
 * attachPrompts set-up rules and lifecycle: what it refuses, detach(), tools beside prompts, request context.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { attachPrompts } from '../../src/mcp/index.js';
import type { AttachPromptsOptions, AttachableServer } from '../../src/mcp/index.js';
import type { PromptRegistry } from '../../src/registry.js';
import type { TestClient } from './fixtures/clients.js';
import { createTestClient, linkedPair, sleep, waitFor, wireError } from './fixtures/clients.js';
import { createTestRegistry, simplePrompt } from './fixtures/prompts.js';
import type { ServerKind, TestServer } from './fixtures/servers.js';
import { SERVER_KINDS, createTestServer } from './fixtures/servers.js';

const INFO = { name: 'x', version: '1.0.0' };
const sdkOf = (kind: ServerKind): 'v1' | 'v2' => (kind.startsWith('v1') ? 'v1' : 'v2');

interface Pair {
  server: TestServer;
  client: TestClient;
  registry: PromptRegistry;
  detach: () => void;
}

const open: Pair[] = [];
afterEach(async () => {
  for (const pair of open.splice(0)) {
    await pair.client.close();
    await pair.server.close();
  }
});

async function connect(
  kind: ServerKind,
  options: AttachPromptsOptions = {},
  before?: (server: TestServer, registry: PromptRegistry) => void,
): Promise<Pair> {
  const registry = createTestRegistry();
  const server = createTestServer(kind);
  const detach = attachPrompts(server.attachable, registry, { debounceMs: 10, ...options });
  before?.(server, registry);
  const client = createTestClient(sdkOf(kind));
  const [clientSide, serverSide] = linkedPair(sdkOf(kind));
  await server.connect(serverSide);
  await client.connect(clientSide);
  const pair = { server, client, registry, detach };
  open.push(pair);
  return pair;
}

describe('attachPrompts: set-up', () => {
  it('throws a TypeError naming both SDK packages when given something that is not a server', () => {
    const notServers: unknown[] = [{}, null, new ClientV1(INFO), { server: {} }];
    for (const value of notServers) {
      expect(() => attachPrompts(value as AttachableServer, createTestRegistry())).toThrow(TypeError);
    }
    expect(() => attachPrompts({} as AttachableServer, createTestRegistry())).toThrow(
      /@modelcontextprotocol\/server.*@modelcontextprotocol\/sdk/,
    );
  });

  it('throws a TypeError when the registry is not a PromptRegistry', () => {
    const server = createTestServer('v2-server');
    expect(() => attachPrompts(server.attachable, {} as PromptRegistry)).toThrow(TypeError);
  });

  it('rejects a debounce window that is negative or not a number', () => {
    for (const debounceMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, '50']) {
      const server = createTestServer('v1-server');
      expect(() => attachPrompts(server.attachable, createTestRegistry(), { debounceMs } as AttachPromptsOptions)).toThrow(
        RangeError,
      );
    }
  });

  for (const kind of SERVER_KINDS) {
    it(`refuses to attach to an already connected ${kind} server`, async () => {
      const { server } = await connect(kind);
      expect(() => attachPrompts(server.attachable, createTestRegistry())).toThrow(/already connected.*before server\.connect\(\)/);
    });

    it(`refuses a second attach on the same ${kind} server`, () => {
      const server = createTestServer(kind);
      attachPrompts(server.attachable, createTestRegistry());
      expect(() => attachPrompts(server.attachable, createTestRegistry())).toThrow(/already has a handler for prompts\/list/);
    });
  }

  it('refuses to attach to an SDK v1 McpServer that already serves prompts through registerPrompt()', () => {
    const server = new McpServerV1(INFO);
    server.registerPrompt('native', { description: 'd' }, () => ({ messages: [] }));
    expect(() => attachPrompts(server, createTestRegistry())).toThrow(/prompts\/list.*registerPrompt\(\)/);
  });

  it('refuses to attach to an SDK v2 McpServer that already serves prompts through registerPrompt()', () => {
    const server = new McpServerV2(INFO);
    server.registerPrompt('native', { description: 'd' }, () => ({ messages: [] }));
    expect(() => attachPrompts(server, createTestRegistry())).toThrow(/prompts\/list.*registerPrompt\(\)/);
  });

  it('makes a later McpServer.registerPrompt() fail loudly instead of silently shadowing our prompts', () => {
    const v1 = new McpServerV1(INFO);
    attachPrompts(v1, createTestRegistry());
    expect(() => v1.registerPrompt('late', { description: 'd' }, () => ({ messages: [] }))).toThrow(/prompts\/list/);
    const v2 = new McpServerV2(INFO);
    attachPrompts(v2, createTestRegistry());
    expect(() => v2.registerPrompt('late', { description: 'd' }, () => ({ messages: [] }))).toThrow(/prompts\/list/);
  });

  it('leaves the server untouched when it refuses (no handler, no capability)', async () => {
    const server = new McpServerV1(INFO);
    server.registerPrompt('native', { description: 'd' }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'native prompt' } }],
    }));
    expect(() => attachPrompts(server, createTestRegistry())).toThrow();
    const client = createTestClient('v1');
    const [clientSide, serverSide] = linkedPair('v1');
    await server.connect(serverSide as never);
    await client.connect(clientSide);
    expect(client.serverCapabilities()?.['completions']).toBeUndefined();
    expect((await client.listPage()).prompts.map((p) => p.name)).toEqual(['native']);
    await client.close();
    await server.close();
  });
});

describe('attachPrompts: beside McpServer', () => {
  for (const kind of ['v1-mcp', 'v2-mcp'] as const) {
    it(`keeps tools registered through a ${kind} McpServer working`, async () => {
      const { client } = await connect(kind, {}, (server) => server.addEchoTool?.());
      expect(client.serverCapabilities()?.['tools']).toBeDefined();
      expect(await client.callTool('echo', { text: 'hi' })).toMatchObject({ content: [{ type: 'text', text: 'echo: hi' }] });
      expect((await client.getPrompt('optional_only', { tone: 'dry' })).messages[0]?.content).toEqual({
        type: 'text',
        text: 'Write something in a dry tone.',
      });
    });
  }
});

describe('attachPrompts: completions option', () => {
  for (const kind of SERVER_KINDS) {
    it(`with completions: false, a ${kind} server neither declares nor serves completion/complete`, async () => {
      const { client } = await connect(kind, { completions: false });
      expect(client.serverCapabilities()?.['completions']).toBeUndefined();
      expect(client.serverCapabilities()?.['prompts']).toEqual({ listChanged: true });
      expect((await wireError(client.raw('completion/complete', {
        ref: { type: 'ref/prompt', name: 'review_code' },
        argument: { name: 'language', value: '' },
      }))).code).toBe(-32601);
    });
  }
});

describe('attachPrompts: detach()', () => {
  for (const kind of SERVER_KINDS) {
    it(`removes the handlers from a ${kind} server: requests then get -32601`, async () => {
      const { client, detach } = await connect(kind);
      expect((await client.listPage()).prompts.length).toBeGreaterThan(0);
      detach();
      expect((await wireError(client.listPage())).code).toBe(-32601);
      expect((await wireError(client.getPrompt('optional_only'))).code).toBe(-32601);
      expect((await wireError(client.complete('review_code', 'language', ''))).code).toBe(-32601);
    });

    it(`stops notifying after detach() on a ${kind} server, including a notification already pending`, async () => {
      const { client, registry, detach } = await connect(kind, { debounceMs: 30 });
      registry.set(simplePrompt('pending'));
      detach();
      detach(); // idempotent
      registry.set(simplePrompt('after'));
      await sleep(120);
      expect(client.listChangedCount()).toBe(0);
    });
  }

  it('lets the same registry be attached again to a new server after detach()', async () => {
    const first = await connect('v2-server');
    first.detach();
    const server = createTestServer('v1-server');
    expect(() => attachPrompts(server.attachable, first.registry)).not.toThrow();
  });
});

describe('attachPrompts: list_changed while disconnected', () => {
  for (const kind of SERVER_KINDS) {
    it(`sends nothing for changes made before a ${kind} server connects`, async () => {
      const { client } = await connect(kind, { debounceMs: 10 }, (_server, registry) => {
        registry.set(simplePrompt('early'));
      });
      await sleep(80);
      expect(client.listChangedCount()).toBe(0);
      expect((await client.listPage()).prompts.map((p) => p.name)).toContain('early');
    });
  }
});

describe('attachPrompts: request context', () => {
  for (const kind of SERVER_KINDS) {
    it(`passes the context built from the ${kind} request to render functions`, async () => {
      const seen: string[] = [];
      const { client } = await connect(kind, {
        context: (request) => {
          seen.push(`${request.sdk} ${request.method} ${request.signal instanceof AbortSignal}`);
          return { user: `alice@${request.sdk}` };
        },
      });
      const result = await client.getPrompt('whoami');
      expect(result.messages[0]?.content).toEqual({ type: 'text', text: `user=alice@${sdkOf(kind)}` });
      expect(seen).toEqual([`${sdkOf(kind)} prompts/get true`]);
    });
  }

  it('answers -32603 with a generic message when the context function throws', async () => {
    const { client } = await connect('v1-mcp', {
      context: () => {
        throw new Error('token store down: secret-token-123');
      },
    });
    expect(await wireError(client.getPrompt('whoami'))).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('awaits an async context function', async () => {
    const { client } = await connect('v2-mcp', { context: async () => ({ user: 'bob' }) });
    expect((await client.getPrompt('whoami')).messages[0]?.content).toEqual({ type: 'text', text: 'user=bob' });
  });
});
