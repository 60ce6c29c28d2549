import { open, readFile, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PromptRegistry, syncRegistry } from '../../src/index.js';
import type { RegistryChangeEvent, StoreChangeEvent } from '../../src/index.js';
import { createDirectoryPromptStore } from '../../src/fs/index.js';
import { describeStoreContract, nextEvent, prompt } from '../stores/contract.js';
import { tempDir, waitFor, writeFiles } from './temp.js';

describeStoreContract(
  'directory source',
  async () => {
    const dir = await tempDir();
    const store = createDirectoryPromptStore(dir, { debounceMs: 20 });
    return {
      store,
      // A broken file at rest (last written a minute ago): a file still being written is read once it has stood still.
      corrupt: async (name) => {
        const file = join(dir, `${name}.json`);
        await writeFile(file, JSON.stringify({ name, messages: [{ role: 'system', content: 'x' }] }));
        const before = new Date(Date.now() - 60_000);
        await utimes(file, before, before);
      },
      close: () => store.close(),
    };
  },
  { versions: 'single', corruptible: true },
);

const yaml = (name: string, text: string) => `name: ${name}\nmessages:\n  - role: user\n    content: ${text}\n`;

const MARKER = 'zz-marker';

/** The text of a prompt's first message. */
function firstText(definition: { messages?: readonly { content: unknown }[] } | undefined): string | undefined {
  const content = definition?.messages?.[0]?.content;
  return typeof content === 'object' && content !== null && 'text' in content && typeof content.text === 'string'
    ? content.text
    : undefined;
}

/**
 * Resolves once the store watches with its first scan done: a marker file is rewritten until a change to it is
 * reported (a put), or the reset that says a change raced the first scan. A rewrite whose event is slow only costs
 * another rewrite; no result depends on how long anything took.
 */
async function firstScanDone(store: ReturnType<typeof createDirectoryPromptStore>, dir: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const seen = nextEvent<StoreChangeEvent>(
      store.watch.bind(store),
      (e) => e.type === 'reset' || (e.type === 'put' && e.name === MARKER),
      500,
    );
    await writeFile(join(dir, `${MARKER}.yaml`), yaml(MARKER, `v${attempt}`));
    if (
      await seen.then(
        () => true,
        () => false,
      )
    )
      return;
  }
  throw new Error('the store reported no change to the marker file');
}

describe('the directory source', () => {
  it('serves every format at version 1, the first file in sort order winning a name', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'a.json': JSON.stringify(prompt('greet', 'from json')),
      'b/greet.yaml': yaml('greet', 'from yaml'),
      'c.md': '---\nname: note\n---\nRemember {{who}}\n',
    });
    const store = createDirectoryPromptStore(dir);
    expect((await store.list()).map((e) => [e.name, e.version, e.definition.messages[0]?.content])).toEqual([
      ['greet', 1, { type: 'text', text: 'from json' }],
      ['note', 1, { type: 'text', text: 'Remember {{who}}' }],
    ]);
  });

  it('writes a new prompt as <name>.json and an edit into the file that defines it, in its format', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'sub/review.yaml': yaml('review', 'old'), 'note.md': '---\nname: note\n---\nold note\n' });
    const store = createDirectoryPromptStore(dir);
    await store.put(prompt('fresh'));
    await store.put(prompt('review', 'Review {{who}}'));
    await store.put(prompt('note', 'New note for {{who}}'));
    expect((await readdir(dir)).sort()).toEqual(['fresh.json', 'note.md', 'sub']);
    expect(JSON.parse(await readFile(join(dir, 'fresh.json'), 'utf8'))).toMatchObject({ name: 'fresh' });
    expect(await readFile(join(dir, 'sub/review.yaml'), 'utf8')).toMatch(/^name: review\n/);
    expect(await readFile(join(dir, 'note.md'), 'utf8')).toMatch(
      /^---\nname: note\n[\s\S]*---\nNew note for \{\{who\}\}\n$/,
    );
    expect((await store.get('review'))?.definition.messages[0]?.content).toEqual({
      type: 'text',
      text: 'Review {{who}}',
    });
    expect((await store.get('note'))?.definition.messages[0]?.content).toEqual({
      type: 'text',
      text: 'New note for {{who}}',
    });
  });

  it('gives prompts whose names differ only in case files that differ in more than case', async () => {
    const dir = await tempDir();
    const store = createDirectoryPromptStore(dir);
    await store.put(prompt('Greet', 'Hello {{who}}'));
    await store.put(prompt('greet', 'hi {{who}}'));
    await store.put(prompt('GREET', 'HI {{who}}'));
    expect((await readdir(dir)).sort()).toEqual(['GREET-3.json', 'Greet.json', 'greet-2.json']);
    expect((await store.list()).map((p) => [p.name, p.definition.messages[0]?.content])).toEqual([
      ['GREET', { type: 'text', text: 'HI {{who}}' }],
      ['Greet', { type: 'text', text: 'Hello {{who}}' }],
      ['greet', { type: 'text', text: 'hi {{who}}' }],
    ]);
  });

  it('keeps what a Markdown body cannot hold (several messages, an assistant turn) in the front matter', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'note.md': '---\nname: note\n---\nold note\n' });
    const store = createDirectoryPromptStore(dir);
    const turns = {
      name: 'note',
      messages: [
        { role: 'user' as const, content: 'Hi' },
        { role: 'assistant' as const, content: 'Hello' },
      ],
    };
    const saved = await store.put(turns);
    expect(saved.definition.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(await store.get('note')).toEqual(saved);
    expect(await readFile(join(dir, 'note.md'), 'utf8')).toMatch(
      /^---\nname: note\nmessages:\n[\s\S]*text: Hello\n---\n$/,
    );
  });

  it('refuses a definition the loader would refuse and leaves the file as it was', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'big.yaml': yaml('big', 'small') });
    const store = createDirectoryPromptStore(dir, { limits: { maxTemplateBytes: 100 } });
    await expect(store.put(prompt('big', 'x'.repeat(200)))).rejects.toMatchObject({
      code: 'INVALID_PROMPT_DEFINITION',
    });
    expect(await readFile(join(dir, 'big.yaml'), 'utf8')).toBe(yaml('big', 'small'));
    expect(await readdir(dir)).toEqual(['big.yaml']);
  });

  it('logs the file and the reason when a prompt cannot be served', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'broken.json': '{\n  "name": "broken",\n  "messages": [\n' });
    const logged: Record<string, unknown>[] = [];
    const store = createDirectoryPromptStore(dir, { logger: { error: (fields) => logged.push(fields) } });
    await expect(store.get('broken')).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(logged).toEqual([
      {
        event: 'prompt_store_invalid_file',
        prompt: 'broken',
        file: join(dir, 'broken.json'),
        reason: `${join(dir, 'broken.json')}:4:1: invalid JSON: unexpected end of the file: a value is missing`,
      },
    ]);
  });

  it('reports edits by other writers (an atomic save, a delete) to watchers', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'a.yaml': yaml('a', 'one'), 'b.yaml': yaml('b', 'two') });
    const store = createDirectoryPromptStore(dir, { debounceMs: 20 });
    const events: StoreChangeEvent[] = [];
    const unwatch = store.watch((e) => {
      if (e.type !== 'reset' && e.name !== MARKER) events.push(e);
    });
    await firstScanDone(store, dir);
    const put = nextEvent<StoreChangeEvent>(store.watch.bind(store), (e) => e.type === 'put' && e.name === 'a', 30_000);
    await writeFile(join(dir, '.a.yaml.tmp'), yaml('a', 'saved'));
    await rename(join(dir, '.a.yaml.tmp'), join(dir, 'a.yaml'));
    await put;
    const deleted = nextEvent<StoreChangeEvent>(store.watch.bind(store), (e) => e.type === 'delete', 30_000);
    await rm(join(dir, 'b.yaml'));
    expect(await deleted).toEqual({ type: 'delete', name: 'b' });
    expect(events).toEqual([
      { type: 'put', name: 'a', version: 1 },
      { type: 'delete', name: 'b' },
    ]);
    unwatch();
    await store.close();
  });

  it('never loses an edit made while watching starts: it is reported as a put, or as a reset to read everything again', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'a.yaml': yaml('a', 'one') });
    const store = createDirectoryPromptStore(dir, { debounceMs: 20 });
    try {
      const seen = nextEvent<StoreChangeEvent>(
        store.watch.bind(store),
        (e) => e.type === 'reset' || (e.type === 'put' && e.name === 'a'),
        30_000,
      );
      await writeFile(join(dir, 'a.yaml'), yaml('a', 'two'));
      await seen;
    } finally {
      await store.close();
    }
  });

  it('keeps a registry in step with edits made by hand, through syncRegistry', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'greet.yaml': yaml('greet', 'Hello') });
    const store = createDirectoryPromptStore(dir, { debounceMs: 20 });
    const registry = new PromptRegistry();
    const sync = await syncRegistry(store, registry, { batchMs: 0 });
    try {
      expect(registry.definitions().map((d) => d.name)).toEqual(['greet']);
      const changed = nextEvent<RegistryChangeEvent>(
        registry.onChange.bind(registry),
        (e) => e.names.includes('greet'),
        30_000,
      );
      await writeFile(join(dir, 'greet.yaml'), yaml('greet', 'Good morning'));
      await changed;
      expect((await registry.getPrompt('greet')).messages[0]?.content).toEqual({ type: 'text', text: 'Good morning' });
    } finally {
      sync.close();
      await store.close();
    }
  });
  it.each([
    ['over an existing file', true],
    ['as a new file', false],
  ])(
    'never serves or announces a file written in place half-written (%s): it applies once it has stood still for a window',
    async (_, existing) => {
      const body = (word: string) => Array.from({ length: 200 }, (_, i) => `${word} line ${i}.`).join('\n');
      const md = (word: string, name = 'doc') => `---\nname: ${name}\n---\n${body(word)}\n`;
      const dir = await tempDir();
      await writeFiles(dir, existing ? { 'doc.md': md('old') } : { 'other.md': md('other', 'other') });
      const before = existing ? [body('old')] : [];
      const store = createDirectoryPromptStore(dir, { debounceMs: 1_000 });
      const registry = new PromptRegistry();
      const sync = await syncRegistry(store, registry, { batchMs: 0 });
      const puts: StoreChangeEvent[] = [];
      const unwatch = store.watch((e) => e.type !== 'reset' && e.name === 'doc' && puts.push(e));
      const served: (string | undefined)[] = [];
      registry.onChange(() => served.push(firstText(registry.definitions().find((d) => d.name === 'doc'))));
      try {
        // A writer in place: truncates, writes half (a shorter prompt that parses), and finishes within the window.
        const whole = Buffer.from(md('new'));
        const half = Math.floor(whole.length / 2);
        const handle = await open(join(dir, 'doc.md'), existing ? 'r+' : 'wx');
        try {
          await handle.truncate(0);
          await handle.write(whole, 0, half, 0);
          // The store has read the half file (twice): it still serves the last good version, or nothing for a new file.
          expect(firstText((await store.get('doc'))?.definition)).toBe(before[0]);
          expect((await store.list()).filter((e) => e.name === 'doc').map((e) => firstText(e.definition))).toEqual(
            before,
          );
          await handle.write(whole, half, whole.length - half, half);
        } finally {
          await handle.close();
        }
        await waitFor(() => served.length > 0, 30_000, 'the new version');
        expect(served).toEqual([body('new')]);
        expect(puts).toEqual([{ type: 'put', name: 'doc', version: 1 }]);
        expect(firstText((await store.get('doc'))?.definition)).toBe(body('new'));
      } finally {
        unwatch();
        sync.close();
        await store.close();
      }
    },
  );

  it('keeps the last good version of a file broken in place, and logs the file with its place', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'a.yaml': yaml('a', 'good') });
    const logged: Record<string, unknown>[] = [];
    const store = createDirectoryPromptStore(dir, {
      debounceMs: 20,
      logger: { error: (fields) => logged.push(fields) },
    });
    expect(firstText((await store.get('a'))?.definition)).toBe('good');
    const events: StoreChangeEvent[] = [];
    const unwatch = store.watch((e) => events.push(e));
    try {
      await writeFile(join(dir, 'a.yaml'), 'name: a\nmessages: [{role: user, content: "goo\n');
      await waitFor(() => logged.length > 0, 30_000, 'the broken file to be logged');
      expect(logged).toEqual([
        {
          event: 'prompt_store_invalid_file',
          prompt: 'a',
          file: join(dir, 'a.yaml'),
          reason: expect.stringMatching(/^.*a\.yaml:\d+:\d+: /),
        },
      ]);
      const invalid: string[] = [];
      expect(
        (await store.list({ onInvalid: (name) => invalid.push(name) })).map((e) => firstText(e.definition)),
      ).toEqual(['good']);
      expect(invalid).toEqual([]);
      expect(firstText((await store.get('a'))?.definition)).toBe('good');
      expect(events.filter((e) => e.type !== 'reset')).toEqual([]);
      const fixed = nextEvent<StoreChangeEvent>(
        store.watch.bind(store),
        (e) => e.type === 'put' && e.name === 'a',
        30_000,
      );
      await writeFile(join(dir, 'a.yaml'), yaml('a', 'fixed'));
      await fixed;
      expect(firstText((await store.get('a'))?.definition)).toBe('fixed');
    } finally {
      unwatch();
      await store.close();
    }
  });
});
