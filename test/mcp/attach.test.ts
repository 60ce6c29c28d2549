/**
 * attachPrompts set-up rules and lifecycle: what it refuses, detach(), tools beside prompts, request context.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { McpServer as McpServerV2, ProtocolError, Server as ServerV2 } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { attachPrompts } from '../../src/mcp/index.js';
import { DEFAULT_DEBOUNCE_MS } from '../../src/mcp/notifier.js';
import type { AttachPromptsOptions, AttachableServer, McpRequestInfo } from '../../src/mcp/index.js';
import type { PromptRegistry } from '../../src/registry/registry.js';
import type { TestClient } from './fixtures/clients.js';
import { createTestClient, linkedPair, settled, timersDue, waitFor, wireError } from './fixtures/clients.js';
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

/** An in-memory transport as both SDKs define it (enough to tweak what the server side sees). */
interface MemoryTransport {
  sessionId?: string;
  send(message: unknown, options?: Record<string, unknown>): Promise<void>;
}

async function connect(
  kind: ServerKind,
  options: AttachPromptsOptions = {},
  before?: (server: TestServer, registry: PromptRegistry) => void,
  tweak?: (clientSide: MemoryTransport, serverSide: MemoryTransport) => void,
): Promise<Pair> {
  const registry = createTestRegistry();
  const server = createTestServer(kind);
  const detach = attachPrompts(server.attachable, registry, { debounceMs: 10, ...options });
  before?.(server, registry);
  const client = createTestClient(sdkOf(kind));
  const [clientSide, serverSide] = linkedPair(sdkOf(kind));
  tweak?.(clientSide as MemoryTransport, serverSide as MemoryTransport);
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

  it('rejects a debounce window that is negative, not a number, or longer than setTimeout allows', () => {
    for (const debounceMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, '50', 2 ** 31]) {
      const server = createTestServer('v1-server');
      expect(() =>
        attachPrompts(server.attachable, createTestRegistry(), { debounceMs } as AttachPromptsOptions),
      ).toThrow(RangeError);
    }
  });

  it('accepts the largest debounce window setTimeout allows', () => {
    const server = createTestServer('v2-server');
    expect(() => attachPrompts(server.attachable, createTestRegistry(), { debounceMs: 2 ** 31 - 1 })).not.toThrow();
  });

  it('throws a TypeError when completions is given but is not a boolean', () => {
    for (const completions of ['false', 0, null]) {
      const server = createTestServer('v1-server');
      expect(() =>
        attachPrompts(server.attachable, createTestRegistry(), { completions } as unknown as AttachPromptsOptions),
      ).toThrow(/completions must be a boolean/);
    }
  });

  it('throws a TypeError when completeResource is not a function, or comes with completions: false', () => {
    const first = createTestServer('v1-mcp');
    expect(() =>
      attachPrompts(first.attachable, createTestRegistry(), {
        completeResource: {},
      } as unknown as AttachPromptsOptions),
    ).toThrow(TypeError);
    const second = createTestServer('v2-mcp');
    expect(() =>
      attachPrompts(second.attachable, createTestRegistry(), {
        completions: false,
        completeResource: () => ({ completion: { values: [] } }),
      }),
    ).toThrow(/completeResource needs completions/);
  });

  for (const kind of SERVER_KINDS) {
    it(`refuses to attach to an already connected ${kind} server`, async () => {
      const { server } = await connect(kind);
      expect(() => attachPrompts(server.attachable, createTestRegistry())).toThrow(
        /already connected.*before server\.connect\(\)/,
      );
    });

    it(`refuses a second attach on the same ${kind} server, saying attachPrompts() already owns it`, () => {
      const server = createTestServer(kind);
      attachPrompts(server.attachable, createTestRegistry());
      expect(() => attachPrompts(server.attachable, createTestRegistry())).toThrow(
        /already has a handler for prompts\/list \(attachPrompts\(\) was already called on this server/,
      );
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

  it("names McpServer as the owner of the prompt handlers when given an McpServer's .server (v1 and v2)", () => {
    const v1 = new McpServerV1(INFO);
    v1.registerPrompt('native', { description: 'd' }, () => ({ messages: [] }));
    const v2 = new McpServerV2(INFO);
    v2.registerPrompt('native', { description: 'd' }, () => ({ messages: [] }));
    for (const server of [v1.server, v2.server]) {
      expect(() => attachPrompts(server, createTestRegistry())).toThrow(
        /handler for prompts\/list \(McpServer owns it if this is the `\.server` of an McpServer that serves prompts/,
      );
    }
  });

  it('says which SDK v2 handler-registration shape changed when a future SDK refuses the 3-argument form', () => {
    const server = new ServerV2(INFO, { capabilities: {} });
    const original = server.setRequestHandler.bind(server) as (...args: unknown[]) => void;
    (server as unknown as { setRequestHandler: (...args: unknown[]) => void }).setRequestHandler = (...args) => {
      if (args.length === 3) throw new TypeError('setRequestHandler takes (method, handler)');
      original(...args);
    };
    expect(() => attachPrompts(server, createTestRegistry())).toThrow(
      /registering prompts\/list failed: SDK v2 \(@modelcontextprotocol\/server\) refused the 3-argument setRequestHandler\(method, \{ params \}, handler\).*takes \(method, handler\)/,
    );
    // Nothing stays registered: a later attempt meets no handler of ours.
    expect(() => server.assertCanSetRequestHandler('prompts/list')).not.toThrow();
  });

  it('says which SDK v1 handler-registration shape changed when a future SDK refuses the Zod-3-shaped schema', () => {
    const server = new ServerV1(INFO, { capabilities: {} });
    (server as unknown as { setRequestHandler: (...args: unknown[]) => void }).setRequestHandler = () => {
      throw new Error('Schema is missing a method literal');
    };
    expect(() => attachPrompts(server, createTestRegistry())).toThrow(
      /registering prompts\/list failed: SDK v1 \(@modelcontextprotocol\/sdk\) refused setRequestHandler\(schema, handler\) with a Zod-3-shaped request schema.*missing a method literal/,
    );
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
      expect(await client.callTool('echo', { text: 'hi' })).toMatchObject({
        content: [{ type: 'text', text: 'echo: hi' }],
      });
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
      expect(
        (
          await wireError(
            client.raw('completion/complete', {
              ref: { type: 'ref/prompt', name: 'review_code' },
              argument: { name: 'language', value: '' },
            }),
          )
        ).code,
      ).toBe(-32601);
    });
  }
});

describe('attachPrompts: listChanged option', () => {
  for (const kind of SERVER_KINDS) {
    it(`with listChanged: false, a ${kind} server declares prompts.listChanged false and announces no change`, async () => {
      const { client, registry } = await connect(kind, { listChanged: false });
      expect(client.serverCapabilities()?.['prompts']).toEqual({ listChanged: false });
      registry.set(simplePrompt('unannounced'));
      await settled(client, 10);
      expect(client.listChangedCount()).toBe(0);
      expect((await client.listPage()).prompts.map((p) => p.name)).toContain('unannounced');
    });
  }

  it('refuses a listChanged option that is not a boolean', () => {
    const server = createTestServer('v2-server');
    expect(() =>
      attachPrompts(server.attachable, createTestRegistry(), { listChanged: 'no' } as unknown as AttachPromptsOptions),
    ).toThrow(/attachPrompts: options.listChanged must be a boolean, got string/);
  });
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
      await settled(client, 30);
      expect(client.listChangedCount()).toBe(0);
    });
  }

  for (const kind of SERVER_KINDS) {
    it(`lets the same ${kind} server be attached again after detach() and close(), then serve a new connection`, async () => {
      const first = await connect(kind);
      first.detach();
      await first.client.close();
      await first.server.close();
      open.splice(open.indexOf(first), 1);

      const registry = createTestRegistry();
      registry.set(simplePrompt('second_life'));
      attachPrompts(first.server.attachable, registry, { debounceMs: 10 });
      const client = createTestClient(sdkOf(kind));
      const [clientSide, serverSide] = linkedPair(sdkOf(kind));
      await first.server.connect(serverSide);
      await client.connect(clientSide);
      open.push({ server: first.server, client, registry, detach: () => {} });

      expect((await client.listPage()).prompts.map((p) => p.name)).toContain('second_life');
      expect((await client.getPrompt('second_life')).messages[0]?.content).toEqual({
        type: 'text',
        text: 'This is second_life.',
      });
      // The first registry is no longer wired to the server; the second one is: its change, made after, is the only
      // one.
      first.registry.set(simplePrompt('from_first'));
      registry.set(simplePrompt('from_second'));
      await waitFor(() => client.listChangedCount() >= 1);
      await settled(client, 10);
      expect(client.listChangedCount()).toBe(1);
    });
  }

  for (const kind of SERVER_KINDS) {
    it(`sends nothing and raises nothing when a ${kind} server closes while a notification is pending`, async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown): void => {
        unhandled.push(reason);
      };
      process.on('unhandledRejection', onUnhandled);
      try {
        const sent: string[] = [];
        const pair = await connect(kind, { debounceMs: 30 }, undefined, (_clientSide, serverSide) => {
          const send = serverSide.send.bind(serverSide);
          serverSide.send = (message, options) => {
            sent.push(String((message as { method?: unknown }).method));
            return send(message, options);
          };
        });
        pair.registry.set(simplePrompt('pending'));
        await pair.server.close();
        await timersDue(30);
        expect(sent.filter((m) => m === 'notifications/prompts/list_changed')).toEqual([]);
        expect(pair.client.listChangedCount()).toBe(0);
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    });
  }
});

describe('attachPrompts: list_changed per burst', () => {
  for (const kind of ['v1-mcp', 'v2-server'] as const) {
    it(`announces a burst of six changes with one notification at the default window on a ${kind} server`, async () => {
      const { client, registry } = await connect(kind, { debounceMs: undefined });
      // Changes spaced in time are the notifier's own tests (test/mcp/notifier.test.ts, on a fake clock).
      for (let i = 0; i < 6; i++) registry.set(simplePrompt(`burst_${i}`));
      await waitFor(() => client.listChangedCount() >= 1);
      await settled(client, DEFAULT_DEBOUNCE_MS);
      expect(client.listChangedCount()).toBe(1);
    });
  }
});

describe('attachPrompts: list_changed while disconnected or not initialized', () => {
  for (const kind of SERVER_KINDS) {
    it(`sends nothing for a change between a ${kind} server's connect() and the client's initialize`, async () => {
      const registry = createTestRegistry();
      const server = createTestServer(kind);
      attachPrompts(server.attachable, registry, { debounceMs: 10 });
      const client = createTestClient(sdkOf(kind));
      const [clientSide, serverSide] = linkedPair(sdkOf(kind));
      await server.connect(serverSide);
      open.push({ server, client, registry, detach: () => {} });
      registry.set(simplePrompt('before_initialize'));
      await timersDue(10); // its quiet period ends before the client initializes
      await client.connect(clientSide);
      expect((await client.listPage()).prompts.map((p) => p.name)).toContain('before_initialize');
      // Once initialized, changes are announced: this one, and nothing from before.
      registry.set(simplePrompt('after_initialize'));
      await waitFor(() => client.listChangedCount() >= 1);
      await settled(client, 10);
      expect(client.listChangedCount()).toBe(1);
    });

    it(`sends nothing for changes made before a ${kind} server connects`, async () => {
      const { client, registry } = await connect(kind, { debounceMs: 10 }, (_server, registry) => {
        registry.set(simplePrompt('early'));
      });
      expect((await client.listPage()).prompts.map((p) => p.name)).toContain('early');
      // A change once connected is announced: it is the only notification.
      registry.set(simplePrompt('connected'));
      await waitFor(() => client.listChangedCount() >= 1);
      await settled(client, 10);
      expect(client.listChangedCount()).toBe(1);
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

  for (const kind of SERVER_KINDS) {
    it(`hands authInfo and sessionId of a ${kind} request to the context option`, async () => {
      const auth = { token: 'tok', clientId: 'client-7', scopes: ['prompts'], extra: { tenant: 't1' } };
      const seen: McpRequestInfo[] = [];
      const { client } = await connect(
        kind,
        {
          context: (request) => {
            seen.push(request);
            return { user: request.authInfo?.clientId };
          },
        },
        undefined,
        (clientSide, serverSide) => {
          serverSide.sessionId = 'session-42';
          const send = clientSide.send.bind(clientSide);
          clientSide.send = (message, options) => send(message, { ...options, authInfo: auth });
        },
      );
      expect((await client.getPrompt('whoami')).messages[0]?.content).toEqual({ type: 'text', text: 'user=client-7' });
      expect(seen[0]?.authInfo).toEqual(auth);
      expect(seen[0]?.sessionId).toBe('session-42');
    });
  }

  it('runs the context option for prompts/get and completion/complete, not for prompts/list', async () => {
    const methods: string[] = [];
    const { client } = await connect('v2-mcp', {
      context: (request) => {
        methods.push(request.method);
        return undefined;
      },
    });
    await client.listPage();
    await client.getPrompt('optional_only');
    await client.complete('plan_trip', 'city', 'p');
    expect(methods).toEqual(['prompts/get', 'completion/complete']);
  });

  it('answers -32603 with a generic message when the context function throws', async () => {
    const { client } = await connect('v1-mcp', {
      context: () => {
        throw new Error('token store down: secret-token-123');
      },
    });
    expect(await wireError(client.getPrompt('whoami'))).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('passes a JSON-RPC error thrown by the context function (SDK v1 McpError) through to the client', async () => {
    const { client } = await connect('v1-mcp', {
      context: () => {
        throw new McpError(-32001, 'Not authorized for prompts', { reason: 'scope' });
      },
    });
    const error = await wireError(client.getPrompt('whoami'));
    expect(error.code).toBe(-32001);
    expect(error.message).toMatch(/Not authorized for prompts$/);
    expect(error.data).toEqual({ reason: 'scope' });
    expect((await wireError(client.complete('plan_trip', 'city', 'p'))).code).toBe(-32001);
  });

  it('passes a JSON-RPC error thrown by the context function (SDK v2 ProtocolError) through to the client', async () => {
    const { client } = await connect('v2-server', {
      context: async () => {
        throw new ProtocolError(-32001, 'Not authorized for prompts');
      },
    });
    const error = await wireError(client.getPrompt('whoami'));
    expect(error.code).toBe(-32001);
    expect(error.message).toMatch(/Not authorized for prompts$/);
  });

  it('maps a PromptError thrown by the context function through the error table', async () => {
    const { client } = await connect('v2-mcp', {
      context: () => {
        throw new PromptError('RESOURCE_DENIED', 'Resource denied: tenant://other');
      },
    });
    expect(await wireError(client.getPrompt('whoami'))).toEqual({
      code: -32602,
      message: 'Resource denied: tenant://other',
    });
  });

  it('keeps an error whose numeric code is not a JSON-RPC code (a gRPC status, say) internal: -32603', async () => {
    const { client } = await connect('v1-server', {
      context: () => {
        throw Object.assign(new Error('14 UNAVAILABLE: auth backend at 10.0.0.7'), { code: 14 });
      },
    });
    expect(await wireError(client.getPrompt('whoami'))).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('awaits an async context function', async () => {
    const { client } = await connect('v2-mcp', { context: async () => ({ user: 'bob' }) });
    expect((await client.getPrompt('whoami')).messages[0]?.content).toEqual({ type: 'text', text: 'user=bob' });
  });
});

describe('attachPrompts: malformed completion/complete params', () => {
  const malformed: [string, Record<string, unknown>, string][] = [
    ['no ref', { argument: { name: 'city', value: 'p' } }, 'params.ref must be an object with a type'],
    [
      'an unknown ref type',
      { ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'a', value: '' } },
      "params.ref.type must be 'ref/prompt' or 'ref/resource'",
    ],
    [
      'a prompt ref without a name',
      { ref: { type: 'ref/prompt' }, argument: { name: 'city', value: 'p' } },
      'params.ref.name must be a string',
    ],
    [
      'a numeric argument value',
      { ref: { type: 'ref/prompt', name: 'plan_trip' }, argument: { name: 'city', value: 5 } },
      'params.argument must be {name: string, value: string}',
    ],
    [
      'non-string context arguments',
      {
        ref: { type: 'ref/prompt', name: 'plan_trip' },
        argument: { name: 'city', value: 'p' },
        context: { arguments: { days: 3 } },
      },
      'params.context.arguments must be an object of strings',
    ],
    [
      'a resource ref without a uri',
      { ref: { type: 'ref/resource' }, argument: { name: 'id', value: '' } },
      'params.ref.uri must be a string',
    ],
  ];
  for (const kind of SERVER_KINDS) {
    it(`answers -32602 to each malformed request on a ${kind} server, with or without completeResource`, async () => {
      for (const options of [{}, { completeResource: () => ({ completion: { values: ['never'] } }) }]) {
        const { client } = await connect(kind, options);
        for (const [title, params, message] of malformed) {
          expect(await wireError(client.raw('completion/complete', params)), title).toEqual({ code: -32602, message });
        }
      }
    });
  }
});
