/**
 * The logger option of attachPrompts: every failure of the adapter's own layer that a client sees as a generic
 * -32603 is logged once, by class name only (never a message that could quote argument values); failures the
 * registry already logs, and errors that reach the client with their own message, are not logged here.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import { attachPrompts } from '../../src/mcp/index.js';
import type { AttachPromptsOptions } from '../../src/mcp/index.js';
import type { PromptRegistry } from '../../src/registry/registry.js';
import type { TestClient } from './fixtures/clients.js';
import { createTestClient, linkedPair, waitFor, wireError } from './fixtures/clients.js';
import { createTestRegistry } from './fixtures/prompts.js';
import type { ServerKind, TestServer } from './fixtures/servers.js';
import { SERVER_KINDS, createTestServer } from './fixtures/servers.js';

interface Entry {
  level: 'debug' | 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string;
}

function capturingLogger(): { logger: Logger; entries: Entry[] } {
  const entries: Entry[] = [];
  const at =
    (level: Entry['level']) =>
    (fields: Record<string, unknown>, message: string): void => {
      entries.push({ level, fields, message });
    };
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, entries };
}

const SECRET = 'secret-token-123';
const INTERNAL = { code: -32603, message: 'Internal error' };
const sdkOf = (kind: ServerKind): 'v1' | 'v2' => (kind.startsWith('v1') ? 'v1' : 'v2');

class TokenStoreDown extends Error {}

const open: { server: TestServer; client: TestClient }[] = [];
afterEach(async () => {
  for (const { client, server } of open.splice(0)) {
    await client.close();
    await server.close();
  }
});

async function connect(
  kind: ServerKind,
  options: AttachPromptsOptions,
  registry: PromptRegistry = createTestRegistry(),
  before?: (server: TestServer) => void,
): Promise<TestClient> {
  const server = createTestServer(kind);
  before?.(server);
  attachPrompts(server.attachable, registry, options);
  const client = createTestClient(sdkOf(kind));
  const [clientSide, serverSide] = linkedPair(sdkOf(kind));
  await server.connect(serverSide);
  await client.connect(clientSide);
  open.push({ server, client });
  return client;
}

describe('attachPrompts: logger option', () => {
  it('throws a TypeError when the logger is not an object', () => {
    const server = createTestServer('v2-server');
    expect(() => attachPrompts(server.attachable, createTestRegistry(), { logger: 'pino' as never })).toThrow(
      TypeError,
    );
    expect(() => attachPrompts(server.attachable, createTestRegistry(), { logger: null as never })).toThrow(TypeError);
  });

  for (const kind of SERVER_KINDS) {
    it(`logs a throwing context function once per request on a ${kind} server, by class name, never its message`, async () => {
      const { logger, entries } = capturingLogger();
      const client = await connect(kind, {
        logger,
        context: () => {
          throw new TokenStoreDown(`token store down: ${SECRET}`);
        },
      });
      expect(await wireError(client.getPrompt('whoami'))).toEqual(INTERNAL);
      expect(await wireError(client.complete('plan_trip', 'city', 'p'))).toEqual(INTERNAL);
      expect(entries.map((e) => [e.level, e.fields])).toEqual([
        [
          'error',
          {
            event: 'mcp_request_failed',
            method: 'prompts/get',
            source: 'context',
            code: 'INTERNAL_ERROR',
            error: 'TokenStoreDown',
          },
        ],
        [
          'error',
          {
            event: 'mcp_request_failed',
            method: 'completion/complete',
            source: 'context',
            code: 'INTERNAL_ERROR',
            error: 'TokenStoreDown',
          },
        ],
      ]);
      expect(JSON.stringify(entries)).not.toContain(SECRET);
    });
  }

  it('logs a non-Error thrown by the context function by its type', async () => {
    const { logger, entries } = capturingLogger();
    const client = await connect('v1-mcp', {
      logger,
      context: () => {
        throw SECRET;
      },
    });
    expect(await wireError(client.getPrompt('whoami'))).toEqual(INTERNAL);
    expect(entries.map((e) => e.fields)).toEqual([
      {
        event: 'mcp_request_failed',
        method: 'prompts/get',
        source: 'context',
        code: 'INTERNAL_ERROR',
        error: 'string',
      },
    ]);
  });

  it('logs a non-exposed PromptError thrown by the context function with its code but without its message', async () => {
    const { logger, entries } = capturingLogger();
    const client = await connect('v2-mcp', {
      logger,
      context: () => {
        throw new PromptError('PROMPT_RENDER_FAILED', `could not load user ${SECRET}`);
      },
    });
    expect(await wireError(client.getPrompt('whoami'))).toEqual(INTERNAL);
    expect(entries.map((e) => e.fields)).toEqual([
      {
        event: 'mcp_request_failed',
        method: 'prompts/get',
        source: 'context',
        code: 'PROMPT_RENDER_FAILED',
        error: 'PromptError',
      },
    ]);
  });

  it('answers -32603 and logs the broken rule when the context function returns something other than an object', async () => {
    const { logger, entries } = capturingLogger();
    const client = await connect('v2-server', { logger, context: () => SECRET as never });
    expect(await wireError(client.getPrompt('whoami'))).toEqual(INTERNAL);
    expect(entries.map((e) => e.fields)).toEqual([
      {
        event: 'mcp_request_failed',
        method: 'prompts/get',
        source: 'result',
        code: 'INTERNAL_ERROR',
        error: 'PromptError',
        detail: 'options.context must return an object or undefined',
      },
    ]);
  });

  it('does not log errors that reach the client with their own message (-32602, or a JSON-RPC error thrown on purpose)', async () => {
    const { logger, entries } = capturingLogger();
    let thrown: Error | undefined = new PromptError('RESOURCE_DENIED', 'Resource denied: tenant://other');
    const client = await connect('v1-mcp', {
      logger,
      context: () => {
        if (thrown !== undefined) throw thrown;
        return undefined;
      },
    });
    expect((await wireError(client.getPrompt('whoami'))).code).toBe(-32602);
    thrown = new McpError(-32001, 'Not authorized');
    expect((await wireError(client.getPrompt('whoami'))).code).toBe(-32001);
    thrown = new McpError(-32603, 'Auth backend down, retry later');
    const own = await wireError(client.getPrompt('whoami'));
    expect(own.code).toBe(-32603);
    expect(own.message).toMatch(/Auth backend down, retry later$/);
    thrown = undefined;
    expect((await wireError(client.raw('completion/complete', { ref: { type: 'ref/resource' } }))).code).toBe(-32602);
    expect(entries).toEqual([]);
  });

  it("does not log again what the registry already logged: a failing render is the registry's one prompt_failed entry", async () => {
    const { logger, entries } = capturingLogger();
    const client = await connect(
      'v2-mcp',
      { logger, context: () => ({ user: 'bob' }) },
      createTestRegistry({ logger }),
    );
    expect(await wireError(client.getPrompt('broken'))).toEqual(INTERNAL);
    expect(entries.map((e) => e.fields['event'])).toEqual(['prompt_failed']);
  });

  it('still answers -32603 when the logger itself throws', async () => {
    const logger: Logger = {
      error: () => {
        throw new Error('log sink down');
      },
    };
    const client = await connect('v1-server', {
      logger,
      context: () => {
        throw new Error('boom');
      },
    });
    expect(await wireError(client.getPrompt('whoami'))).toEqual(INTERNAL);
  });

  for (const kind of ['v1-server', 'v2-server'] as const) {
    it(`answers -32603 and logs it when the ${kind} SDK hands over a request extra the adapter cannot read`, async () => {
      const { logger, entries } = capturingLogger();
      const hostile = new Proxy(
        {},
        {
          get() {
            throw new RangeError(`cannot read ${SECRET}`);
          },
        },
      );
      const client = await connect(kind, { logger }, createTestRegistry(), (server) => {
        const low = server.attachable as unknown as { setRequestHandler: (...args: unknown[]) => void };
        const original = low.setRequestHandler.bind(low);
        // Stand-in for a future SDK whose handler extra breaks on access: hand our handler a hostile extra.
        low.setRequestHandler = (...args: unknown[]) => {
          const handler = args[args.length - 1] as (first: unknown, extra: unknown) => unknown;
          original(...args.slice(0, -1), (first: unknown) => handler(first, hostile));
        };
      });
      expect(await wireError(client.listPage())).toEqual(INTERNAL);
      expect(entries.map((e) => e.fields)).toEqual([
        {
          event: 'mcp_request_failed',
          method: 'prompts/list',
          source: 'request',
          code: 'INTERNAL_ERROR',
          error: 'RangeError',
        },
      ]);
    });
  }
});

describe('attachPrompts: logging completeResource failures', () => {
  for (const kind of ['v1-mcp', 'v2-server'] as const) {
    it(`logs a throwing completeResource on a ${kind} server by class name only`, async () => {
      const { logger, entries } = capturingLogger();
      const client = await connect(kind, {
        logger,
        completeResource: (params) => {
          throw new TypeError(`no index for ${params.argument.value}`);
        },
      });
      expect(await wireError(client.completeResource('docs://{id}', 'id', SECRET))).toEqual(INTERNAL);
      expect(entries.map((e) => e.fields)).toEqual([
        {
          event: 'mcp_request_failed',
          method: 'completion/complete',
          source: 'completeResource',
          code: 'INTERNAL_ERROR',
          error: 'TypeError',
        },
      ]);
      expect(JSON.stringify(entries)).not.toContain(SECRET);
    });

    it(`answers -32603 to an off-spec completeResource result on a ${kind} server and logs the broken rule`, async () => {
      const { logger, entries } = capturingLogger();
      const results: Record<string, unknown> = {
        'total://{x}': { completion: { values: [SECRET], total: 'x' } },
        'more://{x}': { completion: { values: [SECRET], hasMore: 'yes' } },
      };
      const client = await connect(kind, { logger, completeResource: (params) => results[params.ref.uri] as never });
      expect(await wireError(client.completeResource('total://{x}', 'x', ''))).toEqual(INTERNAL);
      expect(await wireError(client.completeResource('more://{x}', 'x', ''))).toEqual(INTERNAL);
      expect(entries.map((e) => [e.fields['source'], e.fields['error'], e.fields['detail']])).toEqual([
        ['result', 'PromptError', expect.stringMatching(/completion\.total is not an integer/)],
        ['result', 'PromptError', expect.stringMatching(/completion\.hasMore is not a boolean/)],
      ]);
      expect(JSON.stringify(entries)).not.toContain(SECRET);
    });
  }
});

describe('attachPrompts: callbacks that never settle', () => {
  const never = (): Promise<never> => new Promise(() => {});

  for (const kind of SERVER_KINDS) {
    it(`answers -32603 after callbackTimeoutMs when context or completeResource hangs on a ${kind} server, logging which`, async () => {
      const { logger, entries } = capturingLogger();
      const signals: AbortSignal[] = [];
      const client = await connect(kind, {
        logger,
        callbackTimeoutMs: 30,
        context: (request) =>
          request.method === 'completion/complete' ? undefined : (signals.push(request.signal!), never()),
        completeResource: (_params, request) => (signals.push(request.signal!), never()),
      });
      expect(await wireError(client.getPrompt('whoami'))).toEqual(INTERNAL);
      expect(await wireError(client.completeResource('docs://{id}', 'id', 'x'))).toEqual(INTERNAL);
      expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
      expect(entries.map((e) => [e.fields['source'], e.fields['detail']])).toEqual([
        ['context', 'options.context took longer than 30 ms'],
        ['completeResource', 'options.completeResource took longer than 30 ms'],
      ]);
    });
  }

  it('stops waiting for the context function when the client cancels, aborts its signal and logs no error', async () => {
    const { logger, entries } = capturingLogger();
    let seen: AbortSignal | undefined;
    const server = createTestServer('v1-mcp');
    attachPrompts(server.attachable, createTestRegistry(), {
      logger,
      context: (request) => ((seen = request.signal), never()),
    });
    const client = new ClientV1({ name: 'c', version: '1.0.0' });
    const [clientSide, serverSide] = linkedPair('v1');
    await server.connect(serverSide);
    await client.connect(clientSide as Parameters<ClientV1['connect']>[0]);
    const controller = new AbortController();
    const pending = client
      .getPrompt({ name: 'whoami' }, { signal: controller.signal })
      .catch((error: unknown) => error);
    await waitFor(() => seen !== undefined);
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await waitFor(() => seen!.aborted);
    expect(entries).toEqual([]);
    await client.close();
    await server.close();
  });

  it('refuses a callback timeout that is not a positive integer', () => {
    const server = createTestServer('v2-server');
    expect(() => attachPrompts(server.attachable, createTestRegistry(), { callbackTimeoutMs: 0 })).toThrow(
      /attachPrompts: callbackTimeoutMs must be an integer of milliseconds from 1 to 2147483647, got 0/,
    );
  });
});
