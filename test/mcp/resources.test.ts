import { describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { createFileResourceResolver } from '../../src/fs/resolver.js';
import { attachResources } from '../../src/mcp/resources.js';
import type { ListedResource, ResourceSource } from '../../src/mcp/resources.js';
import { MAX_SUBSCRIBED_CHARACTERS, MAX_SUBSCRIPTIONS } from '../../src/mcp/resource-subscriptions.js';
import { tempDir, writeFiles } from '../fs/temp.js';
import { CLIENT_KINDS, createTestClient, linkedPair, waitFor, wireError } from './fixtures/clients.js';
import type { ClientKind, TestClient } from './fixtures/clients.js';
import { SERVER_KINDS, createTestServer } from './fixtures/servers.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import type { ServerKind } from './fixtures/servers.js';

interface Pair {
  client: TestClient;
  attached: ReturnType<typeof attachResources>;
  close(): Promise<void>;
}

async function connect(
  serverKind: ServerKind,
  clientKind: ClientKind,
  source: ResourceSource,
  options: Parameters<typeof attachResources>[2] = {},
): Promise<Pair> {
  const server = createTestServer(serverKind);
  const attached = attachResources(server.attachable, source, options);
  const client = createTestClient(clientKind);
  const [clientSide, serverSide] = linkedPair(clientKind);
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { client, attached, close: async () => (await client.close(), await server.close()) };
}

function memorySource(entries: readonly ListedResource[]): ResourceSource {
  return {
    listResources: () => entries,
    readResource: (uri) => {
      if (!entries.some((e) => e.uri === uri))
        throw new PromptError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}`);
      return { contents: [{ uri, mimeType: 'text/plain', text: `text of ${uri}` }] };
    },
  };
}

const pairings = SERVER_KINDS.flatMap((s) => CLIENT_KINDS.filter((c) => s.startsWith(c)).map((c) => [s, c] as const));

describe.each(pairings)('attachResources on %s with a %s client', (serverKind, clientKind) => {
  it('lists and reads the documents of a file resource resolver', async () => {
    const docs = await tempDir();
    await writeFiles(docs, { 'patterns/retry.md': '# Retry\n', 'adr/001.md': 'Use JSON.\n' });
    const resolver = createFileResourceResolver({ roots: { architecture: docs } });
    const pair = await connect(serverKind, clientKind, resolver);
    try {
      expect(pair.client.serverCapabilities()?.['resources']).toEqual({ listChanged: true });
      const listed = (await pair.client.raw('resources/list', {})) as { resources: ListedResource[] };
      expect(listed.resources.map((r) => [r.uri, r.mimeType])).toEqual([
        ['architecture://adr/001.md', 'text/markdown'],
        ['architecture://patterns/retry.md', 'text/markdown'],
      ]);
      const read = await pair.client.readResource('architecture://patterns/retry.md');
      expect(read.contents[0]?.text).toBe('# Retry\n');
    } finally {
      await pair.close();
    }
  });

  it('serves resources/subscribe when asked: updated(uris) notifies each subscriber of its own URIs only', async () => {
    const source = memorySource([
      { uri: 'doc://a', name: 'a' },
      { uri: 'doc://b', name: 'b' },
    ]);
    const pair = await connect(serverKind, clientKind, source, { subscriptions: true });
    try {
      expect(pair.client.serverCapabilities()?.['resources']).toEqual({ listChanged: true, subscribe: true });
      expect(await pair.client.subscribe('doc://a')).toEqual({});
      // An unknown URI is refused as a read of it is; nothing is recorded for it.
      const unknown = await wireError(pair.client.subscribe('doc://missing'));
      expect(unknown.code).toBe(-32602);
      expect(unknown.message).toContain('Resource not found');
      expect(pair.attached.updated(['doc://b', 'doc://missing'])).toBe(0);
      expect(pair.attached.updated(['doc://a', 'doc://b', 'doc://a'])).toBe(1);
      await pair.client.ping();
      expect(pair.client.resourceUpdates()).toEqual(['doc://a']);
      await pair.client.unsubscribe('doc://a');
      expect(pair.attached.updated(['doc://a'])).toBe(0);
      // Unsubscribing from a URI never subscribed to is accepted.
      expect(await pair.client.unsubscribe('doc://b')).toEqual({});
    } finally {
      await pair.close();
    }
  });

  it('serves no resources/subscribe unless asked, and updated() then sends nothing', async () => {
    const pair = await connect(serverKind, clientKind, memorySource([{ uri: 'doc://a', name: 'a' }]));
    try {
      expect(pair.client.serverCapabilities()?.['resources']).toEqual({ listChanged: true });
      expect((await wireError(pair.client.subscribe('doc://a'))).code).toBe(-32601);
      expect(pair.attached.updated(['doc://a'])).toBe(0);
    } finally {
      await pair.close();
    }
  });

  it('answers a document outside the root and an unknown one with -32602 through the error table', async () => {
    const docs = await tempDir();
    await writeFiles(docs, { 'a.md': 'a' });
    const pair = await connect(serverKind, clientKind, createFileResourceResolver({ roots: { architecture: docs } }));
    try {
      const denied = await wireError(pair.client.readResource('architecture://../etc/passwd'));
      expect(denied.code).toBe(-32602);
      const missing = await wireError(pair.client.readResource('architecture://nope.md'));
      expect(missing).toMatchObject({ code: -32602, message: 'Resource not found: architecture://nope.md' });
    } finally {
      await pair.close();
    }
  });
});

const hanging: ResourceSource = {
  listResources: () => new Promise(() => {}),
  readResource: () => new Promise(() => {}),
};

describe.each(SERVER_KINDS)('attachResources on %s with a source that never answers', (serverKind) => {
  const clientKind: ClientKind = serverKind.startsWith('v1') ? 'v1' : 'v2';

  it('answers -32603 after timeoutMs and logs which request, with the uri', async () => {
    const logs: Record<string, unknown>[] = [];
    const pair = await connect(serverKind, clientKind, hanging, {
      timeoutMs: 30,
      logger: { error: (fields) => logs.push(fields) },
    });
    try {
      expect(await wireError(pair.client.readResource('doc://x'))).toEqual({ code: -32603, message: 'Internal error' });
      expect(await wireError(pair.client.raw('resources/list', {}))).toEqual({
        code: -32603,
        message: 'Internal error',
      });
      expect(logs).toEqual([
        {
          event: 'mcp_request_failed',
          method: 'resources/read',
          error: 'PromptError',
          uri: 'doc://x',
          detail: 'resources/read took longer than 30 ms',
        },
        {
          event: 'mcp_request_failed',
          method: 'resources/list',
          error: 'PromptError',
          detail: 'resources/list took longer than 30 ms',
        },
      ]);
    } finally {
      await pair.close();
    }
  });

  it('stops waiting when the client cancels, and logs nothing', async () => {
    const logs: Record<string, unknown>[] = [];
    let reads = 0;
    const source: ResourceSource = { listResources: () => [], readResource: () => (reads++, new Promise(() => {})) };
    const server = createTestServer(serverKind);
    attachResources(server.attachable, source, { logger: { error: (fields) => logs.push(fields) } });
    const [clientSide, serverSide] = linkedPair(clientKind);
    const client =
      clientKind === 'v1'
        ? new (await import('@modelcontextprotocol/sdk/client/index.js')).Client({ name: 't', version: '1' })
        : new ClientV2({ name: 't', version: '1' });
    await server.connect(serverSide);
    await client.connect(clientSide as never);
    try {
      const controller = new AbortController();
      const pending = client
        .readResource({ uri: 'doc://x' }, { signal: controller.signal })
        .catch((error: unknown) => error);
      await waitFor(() => reads === 1);
      controller.abort();
      expect(await pending).toBeInstanceOf(Error);
      // The server side finished the request without an error log: a later request is answered after the cancellation
      // ran.
      await client.listResources();
      expect(logs).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('attachResources', () => {
  it('pages resources/list in URI order with cursors that follow the last URI', async () => {
    const entries = Array.from({ length: 25 }, (_, i) => ({
      uri: `doc://${String(24 - i).padStart(2, '0')}`,
      name: `d${i}`,
    }));
    const pair = await connect('v2-server', 'v2', memorySource(entries), { pageSize: 10 });
    try {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = (await pair.client.raw('resources/list', cursor === undefined ? {} : { cursor })) as {
          resources: ListedResource[];
          nextCursor?: string;
        };
        seen.push(...page.resources.map((r) => r.uri));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBe(3);
      expect(seen).toEqual(entries.map((e) => e.uri).sort());
    } finally {
      await pair.close();
    }
  });

  it('asks a source that pages for one page at a time, never for the whole listing', async () => {
    const docs = await tempDir();
    await writeFiles(
      docs,
      Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`d${String(i).padStart(2, '0')}.md`, `# ${i}`])),
    );
    const resolver = createFileResourceResolver({ roots: { docs } });
    const asked: [string | undefined, number][] = [];
    const source: ResourceSource = {
      listResources: () => {
        throw new Error('the whole listing was asked for');
      },
      listResourcesPage: (after, limit) => (asked.push([after, limit]), resolver.listResourcesPage(after, limit)),
      readResource: (uri) => resolver.readResource(uri),
    };
    const pair = await connect('v2-server', 'v2', source, { pageSize: 10 });
    try {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = (await pair.client.raw('resources/list', cursor === undefined ? {} : { cursor })) as {
          resources: ListedResource[];
          nextCursor?: string;
        };
        seen.push(...page.resources.map((r) => r.uri));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `docs://d${String(i).padStart(2, '0')}.md`));
      expect(asked).toEqual([
        [undefined, 10],
        ['docs://d09.md', 10],
        ['docs://d19.md', 10],
      ]);
    } finally {
      await pair.close();
    }
  });

  it('rejects a forged cursor and a non-string uri with -32602', async () => {
    const pair = await connect('v1-server', 'v1', memorySource([{ uri: 'doc://a', name: 'a' }]));
    try {
      expect(await wireError(pair.client.raw('resources/list', { cursor: 'forged.x' }))).toMatchObject({
        code: -32602,
        message: 'Invalid cursor',
      });
      expect(await wireError(pair.client.raw('resources/read', { uri: 5 }))).toMatchObject({
        code: -32602,
        message: 'params.uri must be a string',
      });
      const long = await wireError(pair.client.raw('resources/read', { uri: 'x'.repeat(100_000) }));
      expect(long.code).toBe(-32602);
      expect(long.message.length).toBeLessThan(100);
    } finally {
      await pair.close();
    }
  });

  it('answers a failing source with a generic -32603 and logs the uri, not the error message', async () => {
    const logs: Record<string, unknown>[] = [];
    const source: ResourceSource = {
      listResources: () => [],
      readResource: () => {
        throw new Error('secret path /home/me/.ssh');
      },
    };
    const pair = await connect('v2-mcp', 'v2', source, { logger: { error: (fields) => logs.push(fields) } });
    try {
      expect(await wireError(pair.client.readResource('doc://x'))).toEqual({ code: -32603, message: 'Internal error' });
      expect(logs).toEqual([{ event: 'mcp_request_failed', method: 'resources/read', error: 'Error', uri: 'doc://x' }]);
    } finally {
      await pair.close();
    }
  });

  it.each([
    ['a blob that is not base64', { contents: [{ uri: 'doc://x', blob: 'not base64!' }] }],
    ['text that is not a string', { contents: [{ uri: 'doc://x', text: 42 }] }],
    ['no contents array', { text: 'x' }],
  ])('answers a source that reads %s with -32603, never a malformed success', async (_what, answer) => {
    const logs: Record<string, unknown>[] = [];
    const source = { listResources: () => [], readResource: () => answer } as unknown as ResourceSource;
    const pair = await connect('v2-mcp', 'v2', source, { logger: { error: (fields) => logs.push(fields) } });
    try {
      expect(await wireError(pair.client.readResource('doc://x'))).toEqual({ code: -32603, message: 'Internal error' });
      expect(logs).toEqual([
        { event: 'mcp_request_failed', method: 'resources/read', error: 'PromptError', uri: 'doc://x' },
      ]);
    } finally {
      await pair.close();
    }
  });

  it('sends the contents it checked, reading each field once', async () => {
    let reads = 0;
    const entry = Object.defineProperty({ uri: 'doc://x', blob: 'not base64!' }, 'text', {
      enumerable: true,
      get: () => (reads++ === 0 ? 'checked' : undefined),
    });
    const source = {
      listResources: () => [],
      readResource: () => ({ contents: [entry] }),
    } as unknown as ResourceSource;
    const pair = await connect('v2-mcp', 'v2', source);
    try {
      expect(await pair.client.raw('resources/read', { uri: 'doc://x' })).toEqual({
        contents: [{ uri: 'doc://x', text: 'checked' }],
      });
      expect(reads).toBe(1);
    } finally {
      await pair.close();
    }
  });

  it('sends no mimeType for an empty or null one, as embedded resources do', async () => {
    const source = {
      listResources: () => [],
      readResource: (uri: string) => ({
        contents: [
          { uri, mimeType: '', text: 'a' },
          { uri, mimeType: null, blob: 'AAAA' },
        ],
      }),
    } as unknown as ResourceSource;
    const pair = await connect('v2-mcp', 'v2', source);
    try {
      expect(await pair.client.raw('resources/read', { uri: 'doc://x' })).toEqual({
        contents: [
          { uri: 'doc://x', text: 'a' },
          { uri: 'doc://x', blob: 'AAAA' },
        ],
      });
    } finally {
      await pair.close();
    }
  });

  it('answers a listing entry without a string uri and name, or with a cycle, with -32603', async () => {
    const cyclic: Record<string, unknown> = { uri: 'doc://c', name: 'c' };
    cyclic['_meta'] = { self: cyclic };
    for (const entry of [{ name: 'no uri' }, { uri: 'doc://n' }, cyclic]) {
      const source = {
        listResources: () => [entry],
        readResource: () => ({ contents: [] }),
      } as unknown as ResourceSource;
      const pair = await connect('v2-mcp', 'v2', source);
      try {
        expect(await wireError(pair.client.raw('resources/list', {}))).toEqual({
          code: -32603,
          message: 'Internal error',
        });
      } finally {
        await pair.close();
      }
    }
  });

  it('copies listing data nested up to 100 levels, like other data from outside code, and refuses deeper', async () => {
    const nested = (levels: number): Record<string, unknown> => {
      let meta: Record<string, unknown> = {};
      for (let i = 1; i < levels; i++) meta = { d: meta };
      return meta;
    };
    // The entry itself is the first level.
    for (const [levels, ok] of [
      [99, true],
      [100, false],
    ] as const) {
      const entry = { uri: 'doc://a', name: 'a', _meta: nested(levels) };
      const source = {
        listResources: () => [entry],
        readResource: () => ({ contents: [] }),
      } as unknown as ResourceSource;
      const pair = await connect('v2-mcp', 'v2', source);
      try {
        const answer = pair.client.raw('resources/list', {});
        if (ok) expect(await answer).toEqual({ resources: [entry] });
        else expect(await wireError(answer)).toEqual({ code: -32603, message: 'Internal error' });
      } finally {
        await pair.close();
      }
    }
  });

  it('sends well-formed text: lone surrogates in the uri, mimeType, text and listing become U+FFFD', async () => {
    const source: ResourceSource = {
      listResources: () => [{ uri: 'doc://a\uD800', name: 'n\uDC00' }],
      readResource: (uri) => ({ contents: [{ uri: `${uri}\uD800`, mimeType: 'text/x\uD800', text: 'body \uDC00' }] }),
    };
    const pair = await connect('v2-mcp', 'v2', source);
    try {
      const listed = (await pair.client.raw('resources/list', {})) as { resources: ListedResource[] };
      expect(listed.resources).toEqual([{ uri: 'doc://a\uFFFD', name: 'n\uFFFD' }]);
      expect(await pair.client.readResource('doc://r')).toMatchObject({
        contents: [{ uri: 'doc://r\uFFFD', mimeType: 'text/x\uFFFD', text: 'body \uFFFD' }],
      });
    } finally {
      await pair.close();
    }
  });

  it('sends resources list_changed on request and stops serving after detach', async () => {
    const server = createTestServer('v1-mcp');
    const attached = attachResources(server.attachable, memorySource([{ uri: 'doc://a', name: 'a' }]));
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { ResourceListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const client = new Client({ name: 't', version: '1' });
    let changed = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      changed++;
    });
    const [clientSide, serverSide] = linkedPair('v1');
    await server.connect(serverSide);
    await client.connect(clientSide as Parameters<typeof client.connect>[0]);
    try {
      attached.listChanged();
      await waitFor(() => changed === 1);
      attached.detach();
      expect((await wireError(client.listResources())).code).toBe(-32601);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('refuses a subscription past 1000 per connection with -32602, and takes more after an unsubscribe', async () => {
    const entries = Array.from({ length: MAX_SUBSCRIPTIONS + 1 }, (_, i) => ({ uri: `doc://${i}`, name: `${i}` }));
    const pair = await connect('v1-mcp', 'v1', memorySource(entries), { subscriptions: true });
    try {
      for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) await pair.client.subscribe(`doc://${i}`);
      // The same URI again is not a new subscription.
      await pair.client.subscribe('doc://0');
      const refused = await wireError(pair.client.subscribe(`doc://${MAX_SUBSCRIPTIONS}`));
      expect(refused.code).toBe(-32602);
      expect(refused.message).toContain(`already has ${MAX_SUBSCRIPTIONS} subscriptions`);
      await pair.client.unsubscribe('doc://0');
      expect(await pair.client.subscribe(`doc://${MAX_SUBSCRIPTIONS}`)).toEqual({});
    } finally {
      await pair.close();
    }
  });

  it('refuses a subscription that would take the subscribed URIs past 256 Ki characters with -32602', async () => {
    const long = (i: number) => `doc://${String(i).padStart(8000, '0')}`;
    const fit = Math.floor(MAX_SUBSCRIBED_CHARACTERS / long(0).length);
    const entries = Array.from({ length: fit + 1 }, (_, i) => ({ uri: long(i), name: `${i}` }));
    const pair = await connect('v1-mcp', 'v1', memorySource(entries), { subscriptions: true });
    try {
      for (let i = 0; i < fit; i++) await pair.client.subscribe(long(i));
      const refused = await wireError(pair.client.subscribe(long(fit)));
      expect(refused.code).toBe(-32602);
      expect(refused.message).toContain(`would exceed ${MAX_SUBSCRIBED_CHARACTERS} characters`);
      await pair.client.unsubscribe(long(0));
      expect(await pair.client.subscribe(long(fit))).toEqual({});
    } finally {
      await pair.close();
    }
  });

  it.each(pairings)(
    'with listChanged: false, declares resources.listChanged false and listChanged() sends nothing (%s, %s client)',
    async (serverKind, clientKind) => {
      const pair = await connect(serverKind, clientKind, memorySource([{ uri: 'doc://a', name: 'a' }]), {
        listChanged: false,
      });
      try {
        expect(pair.client.serverCapabilities()?.['resources']).toEqual({ listChanged: false });
        pair.attached.listChanged();
        // A ping's reply comes after anything the server sent before it.
        await pair.client.ping();
        expect(pair.client.resourcesChangedCount()).toBe(0);
      } finally {
        await pair.close();
      }
    },
  );

  it('refuses a listChanged option that is not a boolean', () => {
    expect(() =>
      attachResources(createTestServer('v2-server').attachable, memorySource([]), {
        listChanged: 1,
      } as unknown as Parameters<typeof attachResources>[2]),
    ).toThrow(/attachResources: options.listChanged must be a boolean, got number/);
  });

  it('refuses a page size outside 1 to 10000, and a timeout that is not a positive integer', () => {
    const server = createTestServer('v2-server');
    expect(() => attachResources(server.attachable, memorySource([]), { pageSize: 0 })).toThrow(RangeError);
    expect(() => attachResources(server.attachable, memorySource([]), { timeoutMs: 0 })).toThrow(
      /attachResources: timeoutMs must be an integer of milliseconds from 1 to 2147483647, got 0/,
    );
  });
});
