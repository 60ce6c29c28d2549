import { describe, expect, it, vi } from 'vitest';
import { type PromptError, PromptRegistry, createMemoryPromptStore, syncRegistry } from '../../src/index.js';
import type { Logger, PromptStore, RegistryChangeEvent } from '../../src/index.js';
import { changeDelayOf } from '../../src/registry/change-delay.js';
import { captureLogs } from '../support/logs.js';
import { nextEvent, prompt } from './contract.js';
import { EVENT_WAIT_MS } from '../support/wait.js';

/** A memory store whose change notifications are lost while `deaf` is true; counts reads of definitions. */
function lossy(store: PromptStore): PromptStore & { deaf: boolean; gets: string[]; lists: number } {
  const wrapped = {
    deaf: false,
    gets: [] as string[],
    lists: 0,
    get: (name: string) => (wrapped.gets.push(name), store.get(name)),
    list: () => (wrapped.lists++, store.list()),
    revisions: store.revisions!.bind(store),
    put: store.put.bind(store),
    delete: store.delete.bind(store),
    watch: (callback: Parameters<PromptStore['watch']>[0]) =>
      store.watch((event) => {
        if (!wrapped.deaf) callback(event);
      }),
  };
  return wrapped;
}

/** A memory store whose reads fail while `down` is true, as a store behind a lost connection does. */
function unreliable(store: PromptStore): PromptStore & { down: boolean } {
  const wrapped = {
    down: false,
    get: (name: string) => (wrapped.down ? Promise.reject(new Error('connection refused')) : store.get(name)),
    list: () => (wrapped.down ? Promise.reject(new Error('connection refused')) : store.list()),
    put: store.put.bind(store),
    delete: store.delete.bind(store),
    watch: store.watch.bind(store),
  };
  return wrapped;
}

function wireError(pending: Promise<unknown>): Promise<unknown> {
  return pending.then(
    () => undefined,
    (e: PromptError) => e.toJsonRpcError(),
  );
}

function registryChange(
  registry: PromptRegistry,
  matches: (e: RegistryChangeEvent) => boolean,
): Promise<RegistryChangeEvent> {
  return nextEvent<RegistryChangeEvent>(registry.onChange.bind(registry), matches, 30_000);
}

describe('syncRegistry', () => {
  it('refuses a batch window that is negative, not a number or longer than setTimeout allows', async () => {
    for (const [batchMs, shown] of [
      [-1, '-1'],
      [Number.NaN, 'NaN'],
      [2 ** 31, '2147483648'],
      ['5', '"5"'],
    ] as const) {
      await expect(
        syncRegistry(createMemoryPromptStore([]), new PromptRegistry(), { batchMs: batchMs as number }),
      ).rejects.toThrow(
        new RangeError(`syncRegistry: batchMs must be a number of milliseconds from 0 to 2147483647, got ${shown}`),
      );
    }
  });

  it('keeps serving the last good set while the store cannot be read, then catches up', async () => {
    const store = unreliable(createMemoryPromptStore([prompt('kept', 'old {{who}}')]));
    const registry = new PromptRegistry();
    const warnings: unknown[] = [];
    const logger: Logger = { warn: (fields) => void warnings.push(fields['event']) };
    const sync = await syncRegistry(store, registry, { batchMs: 0, logger });
    try {
      store.down = true;
      await store.put(prompt('kept', 'new {{who}}'));
      await sync.settled();
      expect(warnings).toContain('prompt_sync_failed');
      expect((await registry.getPrompt('kept', { who: 'x' })).messages[0]?.content).toEqual({
        type: 'text',
        text: 'old x',
      });
      const caughtUp = registryChange(registry, (e) => e.names.includes('kept'));
      store.down = false;
      await caughtUp;
      expect((await registry.getPrompt('kept', { who: 'x' })).messages[0]?.content).toEqual({
        type: 'text',
        text: 'new x',
      });
    } finally {
      sync.close();
    }
  });

  it('gives up on a store read that never answers, keeps serving, and catches up once reads answer again', async () => {
    const base = createMemoryPromptStore([prompt('kept', 'old {{who}}')]);
    let silent = false;
    const hung: Promise<never>[] = [];
    const hang = <T>(read: () => Promise<T>): Promise<T> => {
      if (!silent) return read();
      const never = new Promise<never>(() => {});
      hung.push(never);
      return never;
    };
    const store: PromptStore = {
      get: (name, options) => hang(() => base.get(name, options)),
      list: (options) => hang(() => base.list(options)),
      put: base.put.bind(base),
      delete: base.delete.bind(base),
      watch: base.watch.bind(base),
    };
    const registry = new PromptRegistry();
    const logs = captureLogs();
    const sync = await syncRegistry(store, registry, { batchMs: 0, readTimeoutMs: 50, logger: logs.logger });
    try {
      silent = true;
      await base.put(prompt('kept', 'new {{who}}'));
      await vi.waitFor(() => expect(sync.health().lastError).toMatchObject({ code: 'SYNC_READ_TIMEOUT' }), {
        timeout: 30_000,
      });
      expect(hung.length).toBeGreaterThan(0);
      expect(logs.events()).toContain('prompt_sync_failed');
      expect((await registry.getPrompt('kept', { who: 'x' })).messages[0]?.content).toMatchObject({ text: 'old x' });
      const caughtUp = registryChange(registry, (e) => e.names.includes('kept'));
      silent = false;
      await caughtUp;
      expect((await registry.getPrompt('kept', { who: 'x' })).messages[0]?.content).toMatchObject({ text: 'new x' });
      expect(sync.health()).toMatchObject({ status: 'ok', degradedSince: null });
    } finally {
      sync.close();
    }
  });

  it('withholds a prompt the registry refuses and applies the rest of the batch', async () => {
    const store = createMemoryPromptStore([prompt('fine')]);
    const registry = new PromptRegistry();
    const warnings: Record<string, unknown>[] = [];
    const sync = await syncRegistry(store, registry, { logger: { warn: (fields) => void warnings.push(fields) } });
    try {
      const applied = registryChange(registry, (e) => e.names.includes('also-fine'));
      // Valid to store, refused by the registry: the placeholder names no declared argument.
      await store.put({ name: 'undeclared', messages: [{ role: 'user', content: 'Hello {{nobody}}' }] });
      await store.put(prompt('also-fine'));
      await applied;
      await sync.settled();
      expect(registry.list().prompts.map((p) => p.name)).toEqual(['also-fine', 'fine']);
      expect(warnings).toContainEqual(
        expect.objectContaining({ event: 'prompt_withheld', prompt: 'undeclared', code: 'INVALID_PROMPT_DEFINITION' }),
      );
      expect(sync.versions.has('undeclared')).toBe(false);
      // Withheld, not unknown: the client is not blamed for the server's broken entry.
      const error = await registry.getPrompt('undeclared').catch((e: unknown) => e);
      expect((error as PromptError).toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
      const fixed = registryChange(registry, (e) => e.names.includes('undeclared'));
      await store.put(prompt('undeclared'));
      await fixed;
      await sync.settled();
      expect(registry.has('undeclared')).toBe(true);
    } finally {
      sync.close();
    }
  });

  it('ends withholding a broken entry once it is deleted from the store: its name is unknown again', async () => {
    for (const path of ['event', 'reload'] as const) {
      const store = createMemoryPromptStore([
        prompt('fine'),
        { name: 'broken', messages: [{ role: 'user', content: '{{nobody}}' }] },
      ]);
      const registry = new PromptRegistry();
      const sync = await syncRegistry(store, registry, { batchMs: 0 });
      try {
        expect(await wireError(registry.getPrompt('broken'))).toEqual({ code: -32603, message: 'Internal error' });
        await store.delete('broken');
        await (path === 'event' ? sync.settled() : sync.reload());
        expect(await wireError(registry.getPrompt('broken'))).toEqual({
          code: -32602,
          message: 'Unknown prompt: broken',
        });
      } finally {
        sync.close();
      }
    }
  });

  it('never withholds, or removes, a prompt of the same name that another source registered', async () => {
    const store = createMemoryPromptStore([{ name: 'shared', messages: [{ role: 'user', content: '{{nobody}}' }] }]);
    const registry = new PromptRegistry();
    registry.add(prompt('shared'));
    const sync = await syncRegistry(store, registry, { batchMs: 0 });
    try {
      expect(registry.list().prompts.map((p) => p.name)).toEqual(['shared']);
      expect((await registry.getPrompt('shared', { who: 'x' })).messages).toHaveLength(1);
    } finally {
      sync.close();
    }
  });

  it('never removes prompts it did not add', async () => {
    const store = createMemoryPromptStore([prompt('stored')]);
    const registry = new PromptRegistry();
    registry.add(prompt('by-hand'));
    const sync = await syncRegistry(store, registry, { batchMs: 0 });
    try {
      await store.delete('stored');
      await sync.reload();
      expect(registry.list().prompts.map((p) => p.name)).toEqual(['by-hand']);
    } finally {
      sync.close();
    }
  });

  it('stops following the store once closed, keeping what it has', async () => {
    const store = createMemoryPromptStore([prompt('one')]);
    const registry = new PromptRegistry();
    const sync = await syncRegistry(store, registry, { batchMs: 0 });
    sync.close();
    await store.put(prompt('two'));
    await store.delete('one');
    await sync.settled();
    expect(registry.list().prompts.map((p) => p.name)).toEqual(['one']);
  });

  it('rejects when the first load fails', async () => {
    const store = unreliable(createMemoryPromptStore());
    store.down = true;
    await expect(syncRegistry(store, new PromptRegistry())).rejects.toThrow('connection refused');
  });

  it('repairs changes whose notifications were lost at the next reconcile, reading only the names that differ', async () => {
    const store = lossy(createMemoryPromptStore([prompt('same'), prompt('edited', 'old {{who}}'), prompt('deleted')]));
    const registry = new PromptRegistry();
    const logs = captureLogs();
    const sync = await syncRegistry(store, registry, { batchMs: 0, reconcileMs: 20, logger: logs.logger });
    try {
      expect(store.lists).toBe(1);
      store.deaf = true;
      const repaired = registryChange(registry, (e) => e.names.includes('added'));
      await store.put(prompt('edited', 'new {{who}}'));
      await store.delete('deleted');
      await store.put(prompt('added'));
      await repaired;
      await sync.settled();
      expect(registry.list().prompts.map((p) => p.name)).toEqual(['added', 'edited', 'same']);
      expect((await registry.getPrompt('edited', { who: 'x' })).messages[0]?.content).toEqual({
        type: 'text',
        text: 'new x',
      });
      // No full reload: only the two names whose versions moved were read.
      expect(store.lists).toBe(1);
      expect([...new Set(store.gets)].sort()).toEqual(['added', 'edited']);
      expect(logs.lines.find((l) => l.fields['event'] === 'prompt_sync_reconciled')?.fields).toEqual({
        event: 'prompt_sync_reconciled',
        label: null,
        changed: 2,
        removed: 1,
      });
    } finally {
      sync.close();
    }
  });

  it('reads nothing at a reconcile that finds the store unchanged', async () => {
    const store = lossy(createMemoryPromptStore([prompt('a')]));
    let checks = 0;
    const revisions = store.revisions!;
    store.revisions = async (options) => {
      checks++;
      return revisions(options);
    };
    const sync = await syncRegistry(store, new PromptRegistry(), { reconcileMs: 5 });
    try {
      const before = sync.health().lastCheckedAt!;
      await vi.waitFor(() => expect(checks).toBeGreaterThan(3), { timeout: EVENT_WAIT_MS });
      expect(store.gets).toEqual([]);
      expect(store.lists).toBe(1);
      expect(sync.health().lastCheckedAt).toBeGreaterThanOrEqual(before);
    } finally {
      sync.close();
    }
  });

  it('declares the reconcile interval as its change delay when the store reports more slowly, or never', async () => {
    const registry = new PromptRegistry();
    const slow = { ...createMemoryPromptStore(), changeDelayMs: 25_000 };
    const sync = await syncRegistry(slow, registry, { batchMs: 10 });
    expect(changeDelayOf(registry)).toBe(10_010);
    sync.close();
    const off = await syncRegistry(slow, registry, { batchMs: 10, reconcileMs: 0 });
    expect(changeDelayOf(registry)).toBe(25_010);
    off.close();
    const fast = await syncRegistry(createMemoryPromptStore(), registry, { batchMs: 10 });
    expect(changeDelayOf(registry)).toBe(10);
    fast.close();
    // A store that cannot be reconciled keeps the delay it reports.
    const { revisions: _, ...plain } = slow;
    const unreconciled = await syncRegistry(plain, registry, { batchMs: 10 });
    expect(changeDelayOf(registry)).toBe(25_010);
    unreconciled.close();
  });

  it('reports its health: ok, degraded while the store cannot be read or its feed is down, closed', async () => {
    const base = unreliable(createMemoryPromptStore([prompt('a')]));
    let feed = true;
    const store: PromptStore & { down: boolean } = Object.assign(base, { isListening: () => feed });
    const sync = await syncRegistry(store, new PromptRegistry(), { batchMs: 0, reconcileMs: 0 });
    try {
      expect(sync.health()).toEqual({
        status: 'ok',
        source: 'store',
        listening: true,
        prompts: 1,
        lastApplied: { prompt: 'a', version: 1, at: expect.any(Number) },
        lastCheckedAt: expect.any(Number),
        lagMs: 0,
        degradedSince: null,
        lastError: null,
        snapshotSavedAt: null,
      });
      feed = false;
      expect(sync.health()).toMatchObject({ status: 'degraded', listening: false, degradedSince: expect.any(Number) });
      feed = true;
      expect(sync.health()).toMatchObject({ status: 'ok', degradedSince: null });

      store.down = true;
      await store.put(prompt('b'));
      await sync.settled();
      const degraded = sync.health();
      expect(degraded).toMatchObject({
        status: 'degraded',
        prompts: 1,
        lastError: { error: 'Error', code: null, at: expect.any(Number) },
      });
      expect(degraded.lagMs).toBeGreaterThanOrEqual(0);
      expect(degraded.degradedSince).toBe(degraded.lastError!.at);
      store.down = false;
      await vi.waitFor(() => expect(sync.health()).toMatchObject({ status: 'ok', prompts: 2, lagMs: 0 }), {
        timeout: 30_000,
      });
      expect(sync.health().lastApplied).toMatchObject({ prompt: 'b', version: 1 });
    } finally {
      sync.close();
    }
    expect(sync.health()).toMatchObject({ status: 'closed', listening: false, degradedSince: null });
  });

  it('refuses a reconcile interval, snapshot wait or snapshot interval that is not a delay', async () => {
    for (const option of ['reconcileMs', 'snapshotAfterMs', 'snapshotIntervalMs'] as const) {
      await expect(syncRegistry(createMemoryPromptStore([]), new PromptRegistry(), { [option]: -1 })).rejects.toThrow(
        new RangeError(`syncRegistry: ${option} must be a number of milliseconds from 0 to 2147483647, got -1`),
      );
    }
  });

  it('reads everything in one query when a reconcile finds more names changed than it reads one by one', async () => {
    const store = lossy(createMemoryPromptStore([prompt('first')]));
    const registry = new PromptRegistry();
    const sync = await syncRegistry(store, registry, { batchMs: 0, reconcileMs: 20 });
    try {
      store.deaf = true;
      const repaired = registryChange(registry, (e) => e.names.includes('bulk-59'));
      for (let i = 0; i < 60; i++) await store.put(prompt(`bulk-${i}`));
      await repaired;
      expect(registry.list().prompts).toHaveLength(61);
      expect(store.gets).toEqual([]);
      expect(store.lists).toBe(2);
    } finally {
      sync.close();
    }
  });

  it('does not read a withheld entry again at each reconcile while its version stays', async () => {
    const store = lossy(createMemoryPromptStore([prompt('fine')]));
    const registry = new PromptRegistry();
    const logs = captureLogs();
    const sync = await syncRegistry(store, registry, { batchMs: 0, reconcileMs: 10, logger: logs.logger });
    try {
      store.deaf = true;
      // Valid to store, refused by the registry: the placeholder names no declared argument.
      await store.put({ name: 'refused', messages: [{ role: 'user', content: 'Hello {{nobody}}' }] });
      await vi.waitFor(() => expect(logs.events()).toContain('prompt_withheld'), { timeout: EVENT_WAIT_MS });
      await store.put(prompt('later'));
      await vi.waitFor(() => expect(registry.has('later')).toBe(true), { timeout: EVENT_WAIT_MS });
      // Read once when it appeared; the reconcile that found 'later' did not read it again.
      expect(store.gets.filter((n) => n === 'refused')).toEqual(['refused']);
      expect(await wireError(registry.getPrompt('refused'))).toEqual({ code: -32603, message: 'Internal error' });
    } finally {
      sync.close();
    }
  });
});
