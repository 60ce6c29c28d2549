/**
 * Last-known-good snapshots of a synced registry: the document (format, version, label, checksum), a replica that
 * starts from it when its store cannot be read, and when a snapshot is saved (after reads from the store only,
 * coalesced).
 */
import { describe, expect, it } from 'vitest';
import { PromptRegistry, SNAPSHOT_FORMAT, createMemoryPromptStore, syncRegistry } from '../../src/index.js';
import type { PromptStore, RegistrySnapshotStorage, RegistryChangeEvent } from '../../src/index.js';
import { storableDefinition } from '../../src/stores/definition.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/stores/snapshot.js';
import { captureLogs } from '../support/logs.js';
import { EVENT_WAIT_MS, waitFor } from '../support/wait.js';
import { nextEvent, prompt } from './contract.js';

/** A memory store whose reads fail (refused, as a database that is down) while `down` is true. */
function unreliable(store: PromptStore): PromptStore & { down: boolean; reads: number } {
  const refused = (): Promise<never> =>
    Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
  const wrapped = {
    down: false,
    reads: 0,
    get: (name: string) => (wrapped.reads++, wrapped.down ? refused() : store.get(name)),
    list: () => (wrapped.reads++, wrapped.down ? refused() : store.list()),
    put: store.put.bind(store),
    delete: store.delete.bind(store),
    watch: store.watch.bind(store),
    changeDelayMs: 0,
  };
  return wrapped;
}

/** A snapshot kept in memory, counting saves. */
function memorySnapshot(text?: string): RegistrySnapshotStorage & { text: string | undefined; saves: number } {
  const kept = {
    describe: 'memory',
    text,
    saves: 0,
    load: async () => kept.text,
    save: async (next: string) => {
      kept.saves++;
      kept.text = next;
    },
  };
  return kept;
}

async function textOf(registry: PromptRegistry, name: string): Promise<unknown> {
  return (await registry.getPrompt(name, { who: 'x' })).messages[0]?.content;
}

describe('the snapshot document', () => {
  // As stores hold them: normalized (a message's text content as a content block).
  const prompts = [{ name: 'greet', version: 3, definition: storableDefinition(prompt('greet', 'Hi {{who}}')) }];

  it('reads back what it wrote: label, versions and definitions', async () => {
    const text = await encodeSnapshot('production', prompts, new Date(0));
    expect(JSON.parse(text)).toMatchObject({ format: SNAPSHOT_FORMAT, formatVersion: 1 });
    const reading = await decodeSnapshot(text, 'production');
    expect(reading).toEqual({
      ok: true,
      snapshot: { label: 'production', savedAt: '1970-01-01T00:00:00.000Z', prompts },
    });
  });

  it('refuses a truncated, edited, foreign, newer or other-label snapshot, saying why', async () => {
    const text = await encodeSnapshot('production', prompts, new Date(0));
    const document = JSON.parse(text) as Record<string, unknown>;
    const cases: [string, string, RegExp][] = [
      ['truncated', text.slice(0, text.length >> 1), /^not JSON \(truncated or corrupt/],
      ['empty', '', /^not JSON/],
      ['edited', text.replace('Hi {{who}}', 'Bye {{who}}'), /^checksum mismatch/],
      ['foreign', JSON.stringify({ prompts: [] }), /^not a registry snapshot/],
      ['newer', JSON.stringify({ ...document, formatVersion: 2 }), /^format version 2 is not 1/],
      ['without a checksum', JSON.stringify({ ...document, sha256: undefined }), /^missing body, savedAt or sha256/],
    ];
    for (const [what, broken, reason] of cases) {
      const reading = await decodeSnapshot(broken, 'production');
      expect(reading.ok, what).toBe(false);
      expect(!reading.ok && reading.reason, what).toMatch(reason);
    }
    expect(await decodeSnapshot(text, 'staging')).toEqual({
      ok: false,
      reason: 'taken for label "production", not "staging"',
    });
  });

  it('refuses a snapshot whose checksum holds but whose entries are not prompts of their names', async () => {
    const cases: [unknown, RegExp][] = [
      [
        [{ name: 'greet', version: 'one', definition: prompt('greet') }],
        /^prompts\[0\] is not \{ name, version, definition \}/,
      ],
      [[{ name: 'greet', version: 1, definition: prompt('other') }], /^prompts\[0\]: definition is named "other"/],
    ];
    for (const [prompts, reason] of cases) {
      const reading = await decodeSnapshot(await encodeSnapshot(null, prompts as never, new Date(0)), null);
      expect(!reading.ok && reading.reason).toMatch(reason);
    }
    const text = await encodeSnapshot(null, [], new Date(0));
    const reading = await decodeSnapshot(
      text.replace('"body":{"label":null,"prompts":[]}', '"body":{"label":1}'),
      null,
    );
    expect(!reading.ok && reading.reason).toBe('body is not { label, prompts }');
  });

  it('refuses a snapshot whose checksum holds but whose definition is not valid', async () => {
    const bad = [
      { name: 'greet', version: 1, definition: { name: 'greet', messages: [{ role: 'system', content: 'x' }] } },
    ];
    const text = await encodeSnapshot(null, bad as never, new Date(0));
    const reading = await decodeSnapshot(text, null);
    expect(!reading.ok && reading.reason).toMatch(/^prompts\[0\] \(greet\): /);
  });
});

describe('syncRegistry with a snapshot', () => {
  it('serves the snapshot at once when the store cannot be read at start, then catches up when it answers', async () => {
    const source = createMemoryPromptStore([prompt('kept', 'old {{who}}'), prompt('dropped')]);
    const snapshot = memorySnapshot();
    const first = await syncRegistry(source, new PromptRegistry(), { snapshot, snapshotIntervalMs: 0 });
    await waitFor(() => snapshot.saves === 1, EVENT_WAIT_MS, 'the first save');
    first.close();

    const store = unreliable(source);
    store.down = true;
    await source.put(prompt('kept', 'new {{who}}'));
    await source.delete('dropped');
    await source.put(prompt('added'));
    const registry = new PromptRegistry();
    const logs = captureLogs();
    const sync = await syncRegistry(store, registry, { snapshot, batchMs: 0, logger: logs.logger });
    try {
      expect(registry.list().prompts.map((p) => p.name)).toEqual(['dropped', 'kept']);
      expect(await textOf(registry, 'kept')).toEqual({ type: 'text', text: 'old x' });
      expect(logs.events()).toContain('prompt_sync_from_snapshot');
      expect(sync.health()).toMatchObject({
        status: 'degraded',
        source: 'snapshot',
        lastError: { error: 'Error', code: 'ECONNREFUSED' },
      });
      // Nothing read from the store yet: the good snapshot is not overwritten.
      expect(snapshot.saves).toBe(1);

      const caughtUp = nextEvent<RegistryChangeEvent>(
        registry.onChange.bind(registry),
        (e) => e.names.includes('added'),
        30_000,
      );
      store.down = false;
      await caughtUp;
      expect(registry.list().prompts.map((p) => p.name)).toEqual(['added', 'kept']);
      expect(await textOf(registry, 'kept')).toEqual({ type: 'text', text: 'new x' });
      expect(sync.health()).toMatchObject({ status: 'ok', source: 'store', degradedSince: null, lagMs: 0 });
      await waitFor(() => snapshot.saves === 2, EVENT_WAIT_MS, 'the save after catching up');
      const saved = await decodeSnapshot(snapshot.text!, null);
      expect(saved.ok && saved.snapshot.prompts.map((p) => p.name)).toEqual(['added', 'kept']);
    } finally {
      sync.close();
    }
  });

  it('rejects with the store error when the snapshot is unusable, and logs why it was ignored', async () => {
    const valid = await encodeSnapshot(null, [{ name: 'a', version: 1, definition: prompt('a') }], new Date());
    for (const text of [valid.slice(0, 40), valid.replace('"a"', '"b"'), '{"format":"other"}', undefined]) {
      const store = unreliable(createMemoryPromptStore());
      store.down = true;
      const logs = captureLogs();
      const snapshot = memorySnapshot(text);
      await expect(syncRegistry(store, new PromptRegistry(), { snapshot, logger: logs.logger })).rejects.toThrow(
        'ECONNREFUSED',
      );
      if (text !== undefined)
        expect(logs.lines.find((l) => l.fields['event'] === 'prompt_snapshot_unusable')?.fields).toMatchObject({
          snapshot: 'memory',
          reason: expect.any(String),
        });
      // Ignored, never replaced by what a failed read left.
      expect(snapshot.saves).toBe(0);
    }
  });

  it('survives a snapshot storage that throws on load or save', async () => {
    const logs = captureLogs();
    const failing: RegistrySnapshotStorage = {
      describe: 'broken',
      load: () => Promise.reject(new Error('EIO')),
      save: () => Promise.reject(new Error('ENOSPC')),
    };
    const sync = await syncRegistry(createMemoryPromptStore([prompt('a')]), new PromptRegistry(), {
      snapshot: failing,
      snapshotIntervalMs: 0,
      logger: logs.logger,
    });
    try {
      await waitFor(() => logs.events().includes('prompt_snapshot_save_failed'), EVENT_WAIT_MS, 'the failed save');
      expect(sync.health().snapshotSavedAt).toBeNull();
      const store = unreliable(createMemoryPromptStore());
      store.down = true;
      await expect(
        syncRegistry(store, new PromptRegistry(), { snapshot: failing, logger: logs.logger }),
      ).rejects.toThrow('ECONNREFUSED');
      expect(logs.lines.find((l) => l.fields['event'] === 'prompt_snapshot_unusable')?.fields).toMatchObject({
        reason: 'EIO',
      });
    } finally {
      sync.close();
    }
  });

  it('saves a burst of changes together: at most one save per interval', async () => {
    const store = createMemoryPromptStore([prompt('a')]);
    const snapshot = memorySnapshot();
    const registry = new PromptRegistry();
    const sync = await syncRegistry(store, registry, { snapshot, batchMs: 0, snapshotIntervalMs: 60_000 });
    try {
      await waitFor(() => snapshot.saves === 1, EVENT_WAIT_MS, 'the first save');
      for (let i = 0; i < 20; i++) await store.put(prompt(`p${i}`));
      await sync.settled();
      expect(registry.list().prompts).toHaveLength(21);
      // The next save waits for the interval; the twenty changes are one pending save, not twenty.
      expect(snapshot.saves).toBe(1);
    } finally {
      sync.close();
    }
  });

  it('starts from the store, not the snapshot, when the store answers', async () => {
    const stale = await encodeSnapshot(null, [{ name: 'old', version: 1, definition: prompt('old') }], new Date());
    const registry = new PromptRegistry();
    const sync = await syncRegistry(createMemoryPromptStore([prompt('fresh')]), registry, {
      snapshot: memorySnapshot(stale),
    });
    try {
      expect(registry.list().prompts.map((p) => p.name)).toEqual(['fresh']);
      expect(sync.health()).toMatchObject({ status: 'ok', source: 'store' });
    } finally {
      sync.close();
    }
  });

  it('serves the snapshot when the first read of the store does not answer in time, and the store once it does', async () => {
    const source = createMemoryPromptStore([prompt('late', 'from the store {{who}}')]);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hanging: PromptStore = {
      ...source,
      list: async (o) => (await gate, source.list(o)),
      watch: source.watch.bind(source),
    };
    const snapshot = memorySnapshot(
      await encodeSnapshot(
        null,
        [{ name: 'late', version: 1, definition: prompt('late', 'from the snapshot {{who}}') }],
        new Date(),
      ),
    );
    const registry = new PromptRegistry();
    const sync = await syncRegistry(hanging, registry, { snapshot, snapshotAfterMs: 0 });
    try {
      expect(await textOf(registry, 'late')).toEqual({ type: 'text', text: 'from the snapshot x' });
      expect(sync.health()).toMatchObject({ source: 'snapshot', status: 'degraded' });
      const fresh = nextEvent<RegistryChangeEvent>(
        registry.onChange.bind(registry),
        (e) => e.names.includes('late'),
        30_000,
      );
      release();
      await fresh;
      expect(await textOf(registry, 'late')).toEqual({ type: 'text', text: 'from the store x' });
      expect(sync.health().source).toBe('store');
    } finally {
      sync.close();
    }
  });

  it('refuses a snapshot option without load and save', async () => {
    await expect(
      syncRegistry(createMemoryPromptStore(), new PromptRegistry(), { snapshot: {} as RegistrySnapshotStorage }),
    ).rejects.toThrow(new TypeError('syncRegistry: snapshot must have load() and save(text) (see createFileSnapshot)'));
  });
});
