/**
 * The contract every PromptStore passes. A store's test file calls {@link describeStoreContract} with a factory that
 * builds a fresh, empty store (and, where the store can hold them, a way to plant an invalid entry); the directory
 * source's (test/fs/directory-store.test.ts):
 *
 *   describeStoreContract('directory source', async () => {
 *     const dir = await tempDir();
 *     const store = createDirectoryPromptStore(dir, { debounceMs: 20 });
 *     return {
 *       store,
 *       corrupt: async (name) => writeFile(join(dir, `${name}.json`), JSON.stringify({ name, messages: [{ role:
 *       'system', content: 'x' }] })),
 *       close: () => store.close(),
 *     };
 *   }, { versions: 'single', corruptible: true });
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PromptError, PromptRegistry, syncRegistry } from '../../src/index.js';
import type { PromptStore, RegistryChangeEvent, StoreChangeEvent, TemplatePromptDefinition } from '../../src/index.js';

/** A fresh, empty store and how to tear it down. */
export interface StoreFixture {
  store: PromptStore;
  /** Stores an entry under `name` that breaks the definition rules, bypassing `put` (a broken file, a bad row). */
  corrupt?: (name: string) => Promise<void>;
  close(): Promise<void>;
}

/** What the store promises beyond the common contract. */
export interface StoreContractOptions {
  /** `history`: every put makes a new, higher version; `single`: one version per prompt (the version never drops). */
  versions: 'history' | 'single';
  /** The fixture has `corrupt` (the store can hold entries that break the rules): run the invalid-entry case. */
  corruptible: boolean;
  /** The store has `revisions` (syncRegistry can reconcile it): run the revisions case. */
  reconcilable?: boolean;
  /** How long to wait for a watcher event (default 2,000 ms). */
  eventTimeoutMs?: number;
}

export function prompt(name: string, text = `Say hello to {{who}} from ${name}`): TemplatePromptDefinition {
  return {
    name,
    description: `The ${name} prompt`,
    arguments: [{ name: 'who', required: true }],
    messages: [{ role: 'user', content: text }],
  };
}

/** Resolves with the first event `matches` accepts; rejects after `timeoutMs`. */
export function nextEvent<E>(
  subscribe: (callback: (event: E) => void) => () => void,
  matches: (event: E) => boolean,
  timeoutMs: number,
): Promise<E> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = subscribe((event) => {
      if (!matches(event)) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

export function describeStoreContract(
  title: string,
  factory: () => Promise<StoreFixture>,
  options: StoreContractOptions,
): void {
  const timeoutMs = options.eventTimeoutMs ?? 30_000;
  describe(`${title}: the PromptStore contract`, () => {
    let fixture: StoreFixture;
    let store: PromptStore;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.close();
    });

    it('serves a stored definition back with a positive integer version', async () => {
      const stored = await store.put(prompt('greet'));
      expect(stored.name).toBe('greet');
      expect(Number.isSafeInteger(stored.version) && stored.version >= 1).toBe(true);
      const got = await store.get('greet');
      expect(got).toEqual(stored);
      expect(got?.definition.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Say hello to {{who}} from greet' } },
      ]);
      expect(got?.definition.description).toBe('The greet prompt');
    });

    it.runIf(options.reconcilable === true)(
      'reports the names and versions it serves and a fingerprint that moves with them',
      async () => {
        expect(store.revisions).toBeTypeOf('function');
        const revisions = store.revisions!.bind(store);
        const empty = await revisions();
        expect(empty.entries).toEqual([]);
        const b = await store.put(prompt('b'));
        const a = await store.put(prompt('a'));
        const listed = await revisions();
        expect(listed.entries).toEqual([
          { name: 'a', version: a.version },
          { name: 'b', version: b.version },
        ]);
        expect(listed.fingerprint).not.toBe(empty.fingerprint);
        expect(await revisions({ since: listed.fingerprint })).toEqual({ fingerprint: listed.fingerprint });
        await store.delete('b');
        const deleted = await revisions({ since: listed.fingerprint });
        expect(deleted.entries).toEqual([{ name: 'a', version: a.version }]);
      },
    );

    it('answers undefined for a prompt it does not have', async () => {
      expect(await store.get('missing')).toBeUndefined();
    });

    it('lists every prompt sorted by name', async () => {
      for (const name of ['b-two', 'a_one', 'c3', 'B-upper']) await store.put(prompt(name));
      expect((await store.list()).map((e) => e.name)).toEqual(['B-upper', 'a_one', 'b-two', 'c3']);
    });

    it('serves the newest definition after a second put, never with a lower version', async () => {
      const first = await store.put(prompt('edit', 'first {{who}}'));
      const second = await store.put(prompt('edit', 'second {{who}}'));
      if (options.versions === 'history') expect(second.version).toBe(first.version + 1);
      else expect(second.version).toBeGreaterThanOrEqual(first.version);
      const got = await store.get('edit');
      expect(got?.version).toBe(second.version);
      expect(got?.definition.messages[0]?.content).toEqual({ type: 'text', text: 'second {{who}}' });
    });

    it('rejects an invalid definition and stores nothing', async () => {
      const bad = {
        name: 'bad',
        messages: [{ role: 'system', content: 'Be brief' }],
      } as unknown as TemplatePromptDefinition;
      await expect(store.put(bad)).rejects.toMatchObject({ code: 'INVALID_PROMPT_DEFINITION' });
      expect(await store.get('bad')).toBeUndefined();
      expect(await store.list()).toEqual([]);
    });

    it('refuses a definition no registry can compile, naming the problem, and stores nothing', async () => {
      const cases: [TemplatePromptDefinition, RegExp][] = [
        [
          {
            name: 'defaulted',
            arguments: [{ name: 'x', required: true, default: 'y' }],
            messages: [{ role: 'user', content: 'Hi {{x}}' }],
          } as unknown as TemplatePromptDefinition,
          /\/arguments\/0\/default: a required argument cannot have a default/,
        ],
        [{ name: 'unclosed', messages: [{ role: 'user', content: 'Hi {{#x}}' }] }, /unclosed section "x"/],
      ];
      for (const [definition, message] of cases) {
        await expect(store.put(definition)).rejects.toMatchObject({ code: 'INVALID_PROMPT_DEFINITION', message });
        expect(await store.get(definition.name)).toBeUndefined();
      }
      // What depends on the serving registry is stored: a partial, a resource directive, an undeclared placeholder.
      await store.put({
        name: 'depends',
        messages: [{ role: 'user', content: '{{>header}} {{resource:docs://a}} {{who}}' }],
      });
      expect((await store.get('depends'))?.name).toBe('depends');
    });

    it('refuses a render function, which cannot be stored', async () => {
      const programmatic = { name: 'fn', render: () => 'hi' } as unknown as TemplatePromptDefinition;
      await expect(store.put(programmatic)).rejects.toMatchObject({ code: 'INVALID_PROMPT_DEFINITION' });
      expect(await store.get('fn')).toBeUndefined();
    });

    it('deletes a prompt and reports whether there was one', async () => {
      await store.put(prompt('gone'));
      expect(await store.delete('gone')).toBe(true);
      expect(await store.get('gone')).toBeUndefined();
      expect(await store.list()).toEqual([]);
      expect(await store.delete('gone')).toBe(false);
    });

    it('hands out copies that cannot change what it stores', async () => {
      await store.put(prompt('copy'));
      const got = await store.get('copy');
      (got!.definition as { description?: string }).description = 'changed';
      const listed = await store.list();
      (listed[0]!.definition as { description?: string }).description = 'changed too';
      expect((await store.get('copy'))?.definition.description).toBe('The copy prompt');
    });

    it('tells watchers about puts and deletes until they unwatch', async () => {
      const events: StoreChangeEvent[] = [];
      const unwatch = store.watch((event) => events.push(event));
      const put = nextEvent<StoreChangeEvent>(
        store.watch.bind(store),
        (e) => e.type === 'put' && e.name === 'watched',
        timeoutMs,
      );
      await store.put(prompt('watched'));
      await put;
      const deleted = nextEvent<StoreChangeEvent>(
        store.watch.bind(store),
        (e) => e.type === 'delete' && e.name === 'watched',
        timeoutMs,
      );
      await store.delete('watched');
      await deleted;
      unwatch();
      const seen = events.length;
      const later = nextEvent<StoreChangeEvent>(
        store.watch.bind(store),
        (e) => e.type === 'put' && e.name === 'after',
        timeoutMs,
      );
      await store.put(prompt('after'));
      await later;
      expect(events.length).toBe(seen);
      expect(events.some((e) => e.type === 'put' && e.name === 'watched')).toBe(true);
    });

    it('keeps a registry in step: loads everything, then follows puts, edits and deletes', async () => {
      await store.put(prompt('first'));
      const registry = new PromptRegistry();
      const sync = await syncRegistry(store, registry, { batchMs: 0 });
      try {
        expect(registry.list().prompts.map((p) => p.name)).toEqual(['first']);
        const added = nextEvent<RegistryChangeEvent>(
          registry.onChange.bind(registry),
          (e) => e.names.includes('second'),
          timeoutMs,
        );
        await store.put(prompt('second'));
        await added;
        const result = await registry.getPrompt('second', { who: 'Ada' });
        expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'Say hello to Ada from second' });
        const edited = nextEvent<RegistryChangeEvent>(
          registry.onChange.bind(registry),
          (e) => e.names.includes('first'),
          timeoutMs,
        );
        await store.put(prompt('first', 'Good morning, {{who}}'));
        await edited;
        expect((await registry.getPrompt('first', { who: 'Ada' })).messages[0]?.content).toEqual({
          type: 'text',
          text: 'Good morning, Ada',
        });
        const removed = nextEvent<RegistryChangeEvent>(
          registry.onChange.bind(registry),
          (e) => e.type === 'remove',
          timeoutMs,
        );
        await store.delete('first');
        expect((await removed).names).toEqual(['first']);
        expect(registry.has('first')).toBe(false);
      } finally {
        sync.close();
      }
    });

    it.runIf(options.corruptible)(
      'never serves an invalid entry: left out of list, get fails as an internal error',
      async () => {
        await store.put(prompt('good'));
        await fixture.corrupt!('broken');
        expect((await store.list()).map((e) => e.name)).toEqual(['good']);
        const error = await store.get('broken').then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(PromptError);
        expect((error as PromptError).code).toBe('INTERNAL_ERROR');
        expect((error as PromptError).toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
      },
    );
  });
}
