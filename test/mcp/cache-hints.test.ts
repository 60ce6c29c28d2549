/**
 * Cache hints of the 2026-07-28 protocol (`ttlMs`, `cacheScope`) on what attachPrompts and attachResources serve,
 * seen by the real SDK v2 client: in memory (serveStdio over a linked transport pair) and over the JSON wire
 * (createMcpHandler, streamable HTTP). The 2025 era gets none.
 */
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { createDirectoryPromptStore } from '../../src/fs/directory-store.js';
import { watchPromptDirectory } from '../../src/fs/watch.js';
import { attachPrompts } from '../../src/mcp/attach.js';
import type { AttachPromptsOptions } from '../../src/mcp/attach.js';
import { attachResources } from '../../src/mcp/resources.js';
import type { AttachResourcesOptions, ResourceSource } from '../../src/mcp/resources.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import { createMemoryPromptStore } from '../../src/stores/memory.js';
import type { PromptStore } from '../../src/stores/contract.js';
import { syncRegistry } from '../../src/stores/sync.js';
import { tempDir, writeFiles } from '../fs/temp.js';

const closers: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const greet = { name: 'greet', messages: [{ role: 'user' as const, content: 'Hello' }] };

function staticRegistry(): PromptRegistry {
  const registry = new PromptRegistry();
  registry.add(greet);
  return registry;
}

function source(changeDelayMs?: number): ResourceSource {
  const listed = [{ uri: 'docs://a.md', name: 'a.md' }];
  return {
    ...(changeDelayMs === undefined ? {} : { changeDelayMs }),
    listResources: () => listed,
    readResource: (uri) => {
      if (uri !== 'docs://a.md') throw new PromptError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}`);
      return { contents: [{ uri, mimeType: 'text/markdown', text: '# A' }] };
    },
  };
}

interface Setup {
  registry?: PromptRegistry;
  prompts?: AttachPromptsOptions;
  resources?: { source: ResourceSource; options?: AttachResourcesOptions };
}

function factory(setup: Setup): () => McpServer {
  return () => {
    const server = new McpServer({ name: 'hints', version: '1.0.0' });
    attachPrompts(server, setup.registry ?? staticRegistry(), setup.prompts);
    if (setup.resources !== undefined) attachResources(server, setup.resources.source, setup.resources.options);
    return server;
  };
}

type Era = 'modern' | 'legacy';

/** An SDK v2 client over a linked in-memory pair, served by serveStdio (both eras, as over stdio). */
async function inMemory(setup: Setup, era: Era = 'modern'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(factory(setup), { transport: serverSide as never });
  const client = new Client(
    { name: 'hints-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(clientSide);
  closers.push(
    () => handle.close(),
    () => client.close(),
  );
  expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
  return client;
}

/** An SDK v2 client over streamable HTTP to createMcpHandler (2026-07-28 per request; 2025 stateless). */
async function overHttp(setup: Setup, era: Era = 'modern', authInfo?: { token: string }): Promise<Client> {
  const handler = createMcpHandler(factory(setup));
  const auth = authInfo === undefined ? {} : { authInfo: { ...authInfo, clientId: 'c1', scopes: [] } };
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init), auth),
  } as never);
  const client = new Client(
    { name: 'hints-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(transport);
  closers.push(
    () => handler.close(),
    () => client.close(),
  );
  return client;
}

/** The raw result of one request (no client-side cache in between). */
async function raw(
  client: Client,
  method: string,
  params: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  return (await client.request({ method, params } as never)) as Record<string, unknown>;
}

const hintsOf = (result: Record<string, unknown>) => ({ ttlMs: result['ttlMs'], cacheScope: result['cacheScope'] });

describe('cache hints on the 2026-07-28 era', () => {
  it('gives prompts/list the longest time a change takes to be announced (10 × debounceMs), public', async () => {
    const client = await inMemory({ prompts: { debounceMs: 20 } });
    expect(hintsOf(await raw(client, 'prompts/list'))).toEqual({ ttlMs: 200, cacheScope: 'public' });
  });

  it('puts the hints on every page of prompts/list, over the JSON wire too', async () => {
    const registry = new PromptRegistry({ pageSize: 1 });
    registry.add([greet, { ...greet, name: 'other' }]);
    const client = await overHttp({ registry });
    const first = await raw(client, 'prompts/list');
    expect(hintsOf(first)).toEqual({ ttlMs: 500, cacheScope: 'public' });
    const second = await raw(client, 'prompts/list', { cursor: first['nextCursor'] });
    expect(second['prompts']).toEqual([{ name: 'other' }]);
    expect(hintsOf(second)).toEqual({ ttlMs: 500, cacheScope: 'public' });
  });

  it('adds the window of a watched prompt directory, and drops it once the watcher stops', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'greet.json': JSON.stringify(greet) });
    const registry = new PromptRegistry();
    const watcher = watchPromptDirectory(dir, registry, { debounceMs: 30 });
    closers.push(() => watcher.close());
    await watcher.ready;
    const client = await inMemory({ registry, prompts: { debounceMs: 20 } });
    // Up to 6 windows while a file is still being written, then the notifier's 10 × 20 ms.
    expect(hintsOf(await raw(client, 'prompts/list'))).toEqual({ ttlMs: 6 * 30 + 200, cacheScope: 'public' });
    await watcher.close();
    expect((await raw(client, 'prompts/list'))['ttlMs']).toBe(200);
  });

  it('adds the delay of a synced store, and claims nothing for a store that does not bound its delay', async () => {
    const store = createMemoryPromptStore([greet]);
    const registry = new PromptRegistry();
    const sync = await syncRegistry(store, registry, { batchMs: 15 });
    closers.push(() => sync.close());
    const client = await inMemory({ registry, prompts: { debounceMs: 20 } });
    expect((await raw(client, 'prompts/list'))['ttlMs']).toBe(15 + 200);

    const dir = await tempDir();
    const files = createDirectoryPromptStore(dir, { debounceMs: 25 });
    closers.push(() => files.close());
    const fromFiles = new PromptRegistry();
    const filesSync = await syncRegistry(files, fromFiles, { batchMs: 15 });
    closers.push(() => filesSync.close());
    // A write is seen within one window and applied once it stood still for another.
    const third = await inMemory({ registry: fromFiles, prompts: { debounceMs: 20 } });
    expect((await raw(third, 'prompts/list'))['ttlMs']).toBe(2 * 25 + 15 + 200);

    // Neither a reported delay nor a reconcile (which would bound it by reconcileMs) bounds this store's.
    const { changeDelayMs: _bounded, revisions: _reconciled, ...unbounded } = createMemoryPromptStore([greet]);
    const other = new PromptRegistry();
    const otherSync = await syncRegistry(unbounded as PromptStore, other);
    closers.push(() => otherSync.close());
    const second = await inMemory({ registry: other });
    expect(hintsOf(await raw(second, 'prompts/list'))).toEqual({ ttlMs: 0, cacheScope: 'public' });
  });

  it("gives resources/list and resources/read the source's changeDelayMs, and 0 when it declares none", async () => {
    const client = await inMemory({ resources: { source: source(250) } });
    expect(hintsOf(await raw(client, 'resources/list'))).toEqual({ ttlMs: 250, cacheScope: 'public' });
    expect(hintsOf(await raw(client, 'resources/read', { uri: 'docs://a.md' }))).toEqual({
      ttlMs: 250,
      cacheScope: 'public',
    });
    const silent = await overHttp({ resources: { source: source() } });
    expect(hintsOf(await raw(silent, 'resources/list'))).toEqual({ ttlMs: 0, cacheScope: 'public' });
    expect(hintsOf(await raw(silent, 'resources/read', { uri: 'docs://a.md' }))).toEqual({
      ttlMs: 0,
      cacheScope: 'public',
    });
  });

  it('says private to an authenticated request', async () => {
    const client = await overHttp({ resources: { source: source(250) } }, 'modern', { token: 't' });
    expect(hintsOf(await raw(client, 'prompts/list'))).toEqual({ ttlMs: 500, cacheScope: 'private' });
    expect((await raw(client, 'resources/list'))['cacheScope']).toBe('private');
    expect((await raw(client, 'resources/read', { uri: 'docs://a.md' }))['cacheScope']).toBe('private');
  });

  it('lets the cacheHints option win over what is derived, field by field', async () => {
    const client = await overHttp(
      {
        prompts: { cacheHints: { ttlMs: 3_600_000 } },
        resources: { source: source(250), options: { cacheHints: { cacheScope: 'private', ttlMs: 0 } } },
      },
      'modern',
      { token: 't' },
    );
    expect(hintsOf(await raw(client, 'prompts/list'))).toEqual({ ttlMs: 3_600_000, cacheScope: 'private' });
    const memory = await inMemory({
      prompts: { cacheHints: { cacheScope: 'private' } },
      resources: { source: source(), options: { cacheHints: { ttlMs: 60_000, cacheScope: 'public' } } },
    });
    expect(hintsOf(await raw(memory, 'prompts/list'))).toEqual({ ttlMs: 500, cacheScope: 'private' });
    expect(hintsOf(await raw(memory, 'resources/list'))).toEqual({ ttlMs: 60_000, cacheScope: 'public' });
    expect(hintsOf(await raw(memory, 'resources/read', { uri: 'docs://a.md' }))).toEqual({
      ttlMs: 60_000,
      cacheScope: 'public',
    });
    expect(hintsOf(await raw(client, 'resources/list'))).toEqual({ ttlMs: 0, cacheScope: 'private' });
  });
});

describe('the 2025-11-25 era', () => {
  for (const [transport, connect] of [
    ['in memory', inMemory],
    ['over the JSON wire', overHttp],
  ] as const) {
    it(`gets no cache fields on any result, overrides or not (${transport})`, async () => {
      const client = await connect(
        {
          prompts: { cacheHints: { ttlMs: 60_000, cacheScope: 'public' } },
          resources: { source: source(250), options: { cacheHints: { ttlMs: 60_000 } } },
        },
        'legacy',
      );
      for (const [method, params] of [
        ['prompts/list', {}],
        ['resources/list', {}],
        ['resources/read', { uri: 'docs://a.md' }],
      ] as const) {
        const result = await raw(client, method, params);
        expect(result).not.toHaveProperty('ttlMs');
        expect(result).not.toHaveProperty('cacheScope');
      }
    });
  }
});

describe('the cacheHints option', () => {
  const range = 'cacheHints.ttlMs must be an integer of milliseconds from 0 to 86400000, got';
  const refused: [string, unknown, string][] = [
    ['a number', 5, 'cacheHints must be an object, got 5'],
    ['a negative ttlMs', { ttlMs: -1 }, `${range} -1`],
    ['a fractional ttlMs', { ttlMs: 1.5 }, `${range} 1.5`],
    ['a NaN ttlMs', { ttlMs: Number.NaN }, `${range} NaN`],
    ['a string ttlMs', { ttlMs: '1000' }, `${range} "1000"`],
    ['a ttlMs over a day', { ttlMs: 86_400_001 }, `${range} 86400001`],
    [
      'an unknown cacheScope',
      { cacheScope: 'shared' },
      'cacheHints.cacheScope must be "public" or "private", got "shared"',
    ],
    ['an unknown field', { ttl: 1000 }, 'cacheHints.ttl is not a cache hint (use ttlMs and cacheScope)'],
  ];
  for (const [label, value, message] of refused) {
    it(`refuses ${label} in attachPrompts and attachResources, naming the option and the value`, () => {
      const server = new McpServer({ name: 'hints', version: '1.0.0' });
      expect(() => attachPrompts(server, staticRegistry(), { cacheHints: value as never })).toThrow(
        `attachPrompts: ${message}`,
      );
      expect(() => attachResources(server, source(), { cacheHints: value as never })).toThrow(
        `attachResources: ${message}`,
      );
    });
  }
});
