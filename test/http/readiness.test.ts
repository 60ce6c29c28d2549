/**
 * Readiness from a sync's health over real HTTP servers: `GET /readyz` on the HTTP handlers (`readiness` option) and
 * the stand-alone fetch handler; 200 while the replica serves a known-good set, 503 with the reasons once it does not.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { PromptRegistry, createMemoryPromptStore, syncRegistry } from '../../src/index.js';
import type { PromptStore, RegistrySync } from '../../src/index.js';
import { createReadinessHandler } from '../../src/http/index.js';
import { prompt } from '../stores/contract.js';
import { SERVER_KINDS, startServer } from './servers.js';
import type { RunningServer } from './servers.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function synced(store: PromptStore = createMemoryPromptStore([prompt('greet')])): Promise<{
  registry: PromptRegistry;
  sync: RegistrySync;
}> {
  const registry = new PromptRegistry();
  const sync = await syncRegistry(store, registry, { batchMs: 0 });
  cleanups.push(() => sync.close());
  return { registry, sync };
}

async function server(
  kind: (typeof SERVER_KINDS)[number],
  ...args: Parameters<typeof startServer> extends [unknown, ...infer R] ? R : never
): Promise<RunningServer> {
  const running = await startServer(kind, ...args);
  cleanups.push(() => running.close());
  return running;
}

describe('the readiness route of the HTTP handlers', () => {
  it.each(SERVER_KINDS)('answers 200 with the health while synced, 503 with reasons once closed (%s)', async (kind) => {
    const { registry, sync } = await synced();
    const { base } = await server(kind, registry, { readiness: { sync } });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toMatchObject({ ready: true, status: 'ok', source: 'store', prompts: 1, lagMs: 0 });
    const head = await fetch(`${base}/readyz`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    const post = await fetch(`${base}/readyz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    sync.close();
    const closed = await fetch(`${base}/readyz`);
    expect(closed.status).toBe(503);
    expect(await closed.json()).toMatchObject({ ready: false, reasons: ['sync closed'], status: 'closed' });
  });

  it('is not ready once degraded for longer than maxDegradedMs, or lagging past maxLagMs', async () => {
    let feed = true;
    const store = Object.assign(createMemoryPromptStore([prompt('greet')]), { isListening: () => feed });
    const { registry, sync } = await synced(store);
    const { base } = await server('node:http', registry, {
      readiness: { sync, path: '/health/ready', maxDegradedMs: 0, maxLagMs: 60_000 },
    });
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    feed = false;
    const degraded = await fetch(`${base}/health/ready`);
    expect(degraded.status).toBe(503);
    expect(await degraded.json()).toMatchObject({
      ready: false,
      reasons: ['degraded for more than 0 ms'],
      listening: false,
    });
    feed = true;
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    // No readiness route where none was asked for.
    const { base: plain } = await server('node:http', registry);
    expect((await fetch(`${plain}/readyz`)).status).toBe(404);
  });

  it('lists the readiness route in /openapi.json with a schema its answers (ready and not) conform to', async () => {
    const { registry, sync } = await synced();
    const { base } = await server('node:http', registry, { readiness: { sync, path: '/health/ready' } });
    const doc = await (await fetch(`${base}/openapi.json`)).json();
    const operation = doc.paths['/health/ready'].get;
    expect(Object.keys(operation.responses)).toEqual(['200', '503']);
    const validate = new Ajv2020({ strict: false }).compile({ ...doc.components.schemas.Readiness });
    const ready = await (await fetch(`${base}/health/ready`)).json();
    expect(validate(ready), JSON.stringify(validate.errors)).toBe(true);
    sync.close();
    const closed = await (await fetch(`${base}/health/ready`)).json();
    expect([closed.ready, validate(closed)]).toEqual([false, true]);
    // No readiness route listed where none is served.
    const { base: plain } = await server('node:http', registry);
    const plainDoc = await (await fetch(`${plain}/openapi.json`)).json();
    expect([plainDoc.paths['/readyz'], plainDoc.components.schemas.Readiness]).toEqual([undefined, undefined]);
  });

  it('reports lag past maxLagMs as not ready', async () => {
    const health = {
      status: 'ok' as const,
      source: 'store' as const,
      listening: true,
      prompts: 0,
      lastApplied: null,
      lastCheckedAt: null,
      lagMs: 1_500,
      degradedSince: null,
      lastError: null,
      snapshotSavedAt: null,
    };
    const handler = createReadinessHandler({ sync: { health: () => health }, maxLagMs: 1_000 });
    const response = await handler(new Request('http://localhost/readyz'));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ ready: false, reasons: ['lag 1500 ms exceeds 1000 ms'] });
    const head = await handler(new Request('http://localhost/readyz', { method: 'HEAD' }));
    expect([head.status, await head.text()]).toEqual([503, '']);
    const post = await handler(new Request('http://localhost/readyz', { method: 'POST' }));
    expect([post.status, post.headers.get('allow'), await post.json()]).toEqual([
      405,
      'GET, HEAD',
      { error: 'Method not allowed: POST; allowed: GET, HEAD' },
    ]);
    const failing = createReadinessHandler({
      sync: {
        health: () => {
          throw new Error('broken');
        },
      },
    });
    expect(await (await failing(new Request('http://localhost/readyz'))).json()).toEqual({
      ready: false,
      reasons: ['health unavailable'],
    });
  });

  it('refuses a readiness option without a sync, with a path that is not one, or one the handler already routes', async () => {
    const { registry, sync } = await synced();
    await expect(server('node:http', registry, { readiness: { sync: {} as RegistrySync } })).rejects.toThrow(
      new TypeError('mcp-prompt-kit/http: readiness.sync must be a RegistrySync (an object with health())'),
    );
    await expect(server('node:http', registry, { readiness: { sync, path: 'readyz' } })).rejects.toThrow(
      new RangeError('mcp-prompt-kit/http: readiness.path must be a path such as /readyz, got "readyz"'),
    );
    await expect(server('node:http', registry, { readiness: { sync, path: '/prompts' } })).rejects.toThrow(
      new RangeError('mcp-prompt-kit/http: readiness.path /prompts is already a route of the handler'),
    );
    expect(() => createReadinessHandler({ sync, maxLagMs: -1 })).toThrow(
      new RangeError(
        'createReadinessHandler: readiness.maxLagMs must be an integer of milliseconds from 0 to 2147483647, got -1',
      ),
    );
  });
});
