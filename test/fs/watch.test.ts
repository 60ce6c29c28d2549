import { mkdir, open, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PromptRegistry } from '../../src/index.js';
import type { RegistryChangeEvent, ResourceResolver } from '../../src/index.js';
import { createFileResourceResolver, watchPromptDirectory } from '../../src/fs/index.js';
import type { PromptDirectoryWatcher, PromptFileDiagnostic, WatchPromptDirectoryOptions } from '../../src/fs/index.js';
import { tempDir, waitFor, writeFiles } from './temp.js';

const DEBOUNCE_MS = 30;
const watchers: PromptDirectoryWatcher[] = [];
afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.close()));
});

const json = (name: string, text: string) =>
  JSON.stringify({ name, messages: [{ role: 'user', content: text }] }, null, 2);

/** A watched directory with a registry that records its events and how many synchronous bursts they came in. */
async function watched(
  files: Record<string, string>,
  options: WatchPromptDirectoryOptions = {},
  registry = new PromptRegistry(),
) {
  const dir = await tempDir();
  await writeFiles(dir, files);
  const events: RegistryChangeEvent[] = [];
  let bursts = 0;
  let inBurst = false;
  registry.onChange((event) => {
    events.push(event);
    if (!inBurst) {
      inBurst = true;
      bursts++;
      queueMicrotask(() => (inBurst = false));
    }
  });
  const diagnostics: PromptFileDiagnostic[] = [];
  const changes: unknown[] = [];
  const watcher = watchPromptDirectory(dir, registry, {
    debounceMs: DEBOUNCE_MS,
    onDiagnostic: (d) => diagnostics.push(d),
    onChange: (c) => changes.push(c),
    ...options,
  });
  watchers.push(watcher);
  await watcher.ready;
  const text = async (name: string) => {
    const result = await registry.getPrompt(name);
    const content = result.messages[0]?.content;
    return content?.type === 'text' ? content.text : undefined;
  };
  return { dir, registry, watcher, events, diagnostics, changes, text, bursts: () => bursts };
}

describe('watchPromptDirectory', () => {
  it('loads the directory before ready resolves', async () => {
    const { registry, text } = await watched({
      'a.json': json('a', 'first'),
      'sub/b.yaml': 'name: b\nmessages: [{role: user, content: bee}]\n',
    });
    expect(registry.definitions().map((d) => d.name)).toEqual(['a', 'b']);
    expect(await text('b')).toBe('bee');
  });

  it('rejects ready for a missing directory, naming it', async () => {
    const dir = join(await tempDir(), 'missing');
    const watcher = watchPromptDirectory(dir, new PromptRegistry());
    await expect(watcher.ready).rejects.toThrow(`prompt directory ${dir} does not exist`);
  });

  it('applies additions, changes, deletions and renames of one window as one registry step', async () => {
    // A window no slow machine outruns between four file operations (the step waits for it once).
    const { dir, registry, events, changes, bursts, text } = await watched(
      { 'a.json': json('a', 'one'), 'b.json': json('b', 'bee'), 'c.json': json('c', 'sea') },
      { debounceMs: 1_000 },
    );
    const before = bursts();
    const eventsBefore = events.length;
    await writeFile(join(dir, 'a.json'), json('a', 'two'));
    await unlink(join(dir, 'b.json'));
    await rename(join(dir, 'c.json'), join(dir, 'renamed.json'));
    await writeFile(join(dir, 'd.yaml'), 'name: d\nmessages: [{role: user, content: dee}]\n');
    await waitFor(() => changes.length >= 1, 30_000, 'one reload');
    const step = { bursts: bursts() - before, events: events.slice(eventsBefore) };
    // One more change, reloaded after anything the four could still cause: it must be the second reload.
    await writeFile(join(dir, 'e.yaml'), 'name: e\nmessages: [{role: user, content: eee}]\n');
    await waitFor(() => changes.length >= 2, 30_000, 'the reload of e.yaml');
    expect(changes).toEqual([
      { set: ['a', 'd'], removed: ['b'] },
      { set: ['e'], removed: [] },
    ]);
    expect(step).toEqual({
      bursts: 1,
      events: [
        { type: 'set', names: ['a', 'd'] },
        { type: 'remove', names: ['b'] },
      ],
    });
    expect(registry.definitions().map((d) => d.name)).toEqual(['a', 'c', 'd', 'e']);
    expect(await text('a')).toBe('two');
  });

  it('survives an atomic save (write a temp file, rename it over the prompt) and ignores swap and backup files', async () => {
    const { dir, changes, text, registry } = await watched({ 'a.json': json('a', 'one') });
    await writeFile(join(dir, '.a.json.swp'), '{ broken');
    await writeFile(join(dir, 'a.json~'), '{ broken');
    await writeFile(join(dir, '.a.json.tmp-123'), json('a', 'saved atomically'));
    await rename(join(dir, '.a.json.tmp-123'), join(dir, 'a.json'));
    await waitFor(() => changes.length === 1, 30_000, 'the reload');
    expect(await text('a')).toBe('saved atomically');
    expect(registry.size).toBe(1);
  });

  it('keeps the last good version of a file that stops parsing, reports where (callback and logger), and applies the fix', async () => {
    const logged: { level: string; fields: Record<string, unknown>; message: string }[] = [];
    const logger = {
      info: (fields: Record<string, unknown>, message: string) => logged.push({ level: 'info', fields, message }),
      warn: (fields: Record<string, unknown>, message: string) => logged.push({ level: 'warn', fields, message }),
    };
    const { dir, diagnostics, text, watcher, changes } = await watched({ 'a.json': json('a', 'good') }, { logger });
    await writeFile(join(dir, 'a.json'), '{\n  "name": "a",\n  "messages": [\n');
    await waitFor(() => diagnostics.length === 1, 30_000, 'a diagnostic');
    expect(diagnostics[0]).toMatchObject({ file: join(dir, 'a.json'), line: 4, column: 1, severity: 'error' });
    expect(diagnostics[0]?.message).toMatch(/^invalid JSON: unexpected end of the file/);
    expect(watcher.diagnostics).toHaveLength(1);
    expect(logged.filter((l) => l.level === 'warn')).toEqual([
      {
        level: 'warn',
        fields: { event: 'prompt_file_kept', file: join(dir, 'a.json'), prompt: 'a' },
        message: "keeping the last good version of 'a'",
      },
      {
        level: 'warn',
        fields: { event: 'prompt_file_diagnostic', file: join(dir, 'a.json'), line: 4 },
        message: `${join(dir, 'a.json')}:4:1: invalid JSON: unexpected end of the file: a value is missing`,
      },
    ]);
    expect(await text('a')).toBe('good');
    await writeFile(join(dir, 'a.json'), json('a', 'fixed'));
    await waitFor(() => changes.length === 1, 30_000, 'the fix');
    expect(await text('a')).toBe('fixed');
    expect(watcher.diagnostics).toEqual([]);
  });

  it('never serves a file written in place half-written: it applies once it has stood still for a window', async () => {
    const body = (word: string) => Array.from({ length: 400 }, (_, i) => `${word} line ${i}.`).join('\n');
    const md = (word: string) => `---\nname: doc\n---\n${body(word)}\n`;
    const { dir, registry, text } = await watched({ 'doc.md': md('old') }, { debounceMs: 150 });
    const served: string[] = [];
    registry.onChange(() => {
      const content = registry.definitions().find((d) => d.name === 'doc')?.messages?.[0]?.content;
      served.push(typeof content === 'string' ? content : content?.type === 'text' ? content.text : '');
    });
    // Written in place over several windows, in pieces far apart less than a window: a truncated file parses as a
    // shorter prompt.
    const whole = Buffer.from(md('new'));
    const handle = await open(join(dir, 'doc.md'), 'r+');
    await handle.truncate(0);
    for (let at = 0; at < whole.length; at += 256) {
      await handle.write(whole, at, Math.min(256, whole.length - at), at);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await handle.close();
    await waitFor(() => served.length > 0, 30_000, 'the new version');
    expect(await text('doc')).toBe(body('new'));
    expect(served).toEqual([body('new')]);
  });

  it.each([
    [
      'a.yaml',
      'name: a\nmessages: [{role: user, content: good}]\n',
      'name: a\nmessages: [{role: user, content: "goo\n',
      3,
    ],
    ['a.md', '---\nname: a\n---\ngood\n', '---\nname: a\nmessages: [\n', 1],
  ])(
    'keeps the last good version of %s when an in-place write leaves it unparsable, with its place',
    async (file, good, broken, line) => {
      const { dir, diagnostics, text } = await watched({ [file]: good });
      await writeFile(join(dir, file), broken);
      await waitFor(() => diagnostics.length === 1, 30_000, 'a diagnostic');
      expect(diagnostics[0]).toMatchObject({ file: join(dir, file), line, severity: 'error' });
      expect(await text('a')).toBe('good');
    },
  );

  it('keeps the last good version when a template no longer compiles', async () => {
    const { dir, diagnostics, text, changes } = await watched({
      'a.yaml': 'name: a\nmessages:\n  - role: user\n    content: good\n',
    });
    await writeFile(join(dir, 'a.yaml'), 'name: a\nmessages:\n  - role: user\n    content: "{{#open}}never closed"\n');
    await waitFor(() => diagnostics.length > 0, 30_000, 'a diagnostic');
    expect(diagnostics[0]).toMatchObject({ file: join(dir, 'a.yaml'), pointer: '/messages/0/content/text', line: 4 });
    expect(changes).toEqual([]);
    expect(await text('a')).toBe('good');
  });

  it('reports every change of its diagnostics: a file breaking, and its fix back to the same version', async () => {
    const seen: string[][] = [];
    const { dir, watcher } = await watched(
      { 'a.json': json('a', 'same') },
      { onDiagnosticsChange: (all) => seen.push(all.map((d) => d.file)) },
    );
    expect(seen).toEqual([]);
    await writeFile(join(dir, 'a.json'), '{"name": "a", "messages": [');
    await waitFor(() => seen.length === 1, 30_000, 'the broken file');
    expect(seen[0]).toEqual([join(dir, 'a.json')]);
    // Back to the version still served: no registry change, but the diagnostic is gone.
    await writeFile(join(dir, 'a.json'), json('a', 'same'));
    await waitFor(() => seen.length === 2, 30_000, 'the fix');
    expect(seen[1]).toEqual([]);
    expect(watcher.diagnostics).toEqual([]);
  });

  it('names the file each served prompt comes from, relative to the directory too', async () => {
    const { dir, watcher } = await watched({ 'sub/b.yaml': 'name: b\nmessages: [{role: user, content: bee}]\n' });
    expect(watcher.source('b')).toEqual({ file: join(dir, 'sub/b.yaml'), rel: 'sub/b.yaml' });
    expect(watcher.source('missing')).toBeUndefined();
    await rename(join(dir, 'sub/b.yaml'), join(dir, 'c.yaml'));
    await waitFor(() => watcher.source('b')?.rel === 'c.yaml', 30_000, 'the rename');
  });

  it('names the prompts whose cases file beside them was added, edited or removed, and no other', async () => {
    const cases: string[][] = [];
    const cases1 = 'cases:\n  - name: one\n    contains: bee\n';
    const { dir, changes } = await watched(
      {
        'sub/b.yaml': 'name: b\nmessages: [{role: user, content: bee}]\n',
        'sub/b.cases.yaml': cases1,
        'a.json': json('a', 'x'),
      },
      { onCasesChange: (names) => cases.push(names) },
    );
    await writeFile(join(dir, 'sub/b.cases.yaml'), `${cases1}  - name: two\n    contains: b\n`);
    await waitFor(() => cases.length === 1, 30_000, 'the cases edit');
    await writeFile(join(dir, 'a.cases.json'), '{"cases": []}');
    await waitFor(() => cases.length === 2, 30_000, 'the new cases file');
    await rm(join(dir, 'sub/b.cases.yaml'));
    await waitFor(() => cases.length === 3, 30_000, 'the removed cases file');
    expect(cases).toEqual([['b'], ['a'], ['b']]);
    expect(changes).toEqual([]);
  });

  it('removes the prompt of a deleted file', async () => {
    const { dir, registry, changes } = await watched({ 'a.json': json('a', 'x'), 'b.json': json('b', 'y') });
    await rm(join(dir, 'b.json'));
    await waitFor(() => changes.length === 1, 30_000, 'the reload');
    expect(changes).toEqual([{ set: [], removed: ['b'] }]);
    expect(registry.has('b')).toBe(false);
  });

  it('keeps serving while the directory is deleted, and follows it when it is re-created', async () => {
    const { dir, registry, diagnostics, text, changes } = await watched({
      'a.json': json('a', 'old'),
      'b.json': json('b', 'bee'),
    });
    await rm(dir, { recursive: true });
    await waitFor(() => diagnostics.some((d) => d.file === dir), 30_000, 'the missing-directory diagnostic');
    expect(diagnostics.at(-1)?.message).toBe('prompt directory is gone; its 2 prompt(s) stay served until it is back');
    expect(registry.size).toBe(2);
    await mkdir(dir);
    await writeFile(join(dir, 'a.json'), json('a', 'new'));
    await waitFor(() => changes.length === 1, 30_000, 'the reload after re-creation');
    expect(await text('a')).toBe('new');
    expect(registry.has('b')).toBe(false);
    // and it keeps watching the new directory
    await writeFile(join(dir, 'c.json'), json('c', 'sea'));
    await waitFor(() => registry.has('c'), 30_000, 'c');
  });

  it('follows a Kubernetes ConfigMap update (the ..data symlink swap)', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { '..2026_01_01/a.json': json('a', 'version 1'), '..2026_01_01/b.json': json('b', 'bee') });
    await symlink('..2026_01_01', join(dir, '..data'));
    await symlink('..data/a.json', join(dir, 'a.json'));
    await symlink('..data/b.json', join(dir, 'b.json'));
    const registry = new PromptRegistry();
    const changes: unknown[] = [];
    const watcher = watchPromptDirectory(dir, registry, { debounceMs: DEBOUNCE_MS, onChange: (c) => changes.push(c) });
    watchers.push(watcher);
    await watcher.ready;
    expect(registry.definitions().map((d) => d.name)).toEqual(['a', 'b']);
    // What the kubelet does: a new timestamped directory, a new ..data_tmp symlink renamed over ..data, old dir
    // removed.
    await writeFiles(dir, { '..2026_01_02/a.json': json('a', 'version 2'), '..2026_01_02/b.json': json('b', 'bee') });
    await symlink('..2026_01_02', join(dir, '..data_tmp'));
    await rename(join(dir, '..data_tmp'), join(dir, '..data'));
    await rm(join(dir, '..2026_01_01'), { recursive: true });
    await waitFor(() => changes.length >= 1, 30_000, 'the ConfigMap reload');
    const result = await registry.getPrompt('a');
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'version 2' });
    expect(registry.size).toBe(2);
  });

  it('gives a request in flight the version it started with, whole', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const resources: ResourceResolver = {
      read: async (uri) => {
        await gate;
        return { uri, text: 'DOC' };
      },
    };
    const { dir, registry, changes } = await watched(
      { 'a.json': json('a', 'old start {{resource:docs://x}} old end') },
      {},
      new PromptRegistry({ resources }),
    );
    const inFlight = registry.getPrompt('a');
    await writeFile(join(dir, 'a.json'), json('a', 'new start {{resource:docs://x}} new end'));
    await waitFor(() => changes.length === 1, 30_000, 'the reload');
    release();
    expect((await inFlight).messages[0]?.content).toEqual({ type: 'text', text: 'old start DOC old end' });
    expect((await registry.getPrompt('a')).messages[0]?.content).toEqual({
      type: 'text',
      text: 'new start DOC new end',
    });
  });

  it('reports a duplicate name once and serves the first file in sort order', async () => {
    const { dir, diagnostics, text, changes } = await watched({ 'a.json': json('greet', 'from a') });
    await writeFile(join(dir, 'b.json'), json('greet', 'from b'));
    await waitFor(() => diagnostics.length === 1, 30_000, 'the duplicate diagnostic');
    expect(diagnostics[0]?.message).toBe(
      `duplicate prompt name 'greet': already defined in ${join(dir, 'a.json')} (that one is used)`,
    );
    expect(await text('greet')).toBe('from a');
    await rm(join(dir, 'a.json'));
    await waitFor(() => changes.length === 1, 30_000, 'b taking over');
    expect(await text('greet')).toBe('from b');
  });

  it('watches the documents under the resolver roots too, refreshing its listing index on change', async () => {
    const docs = await tempDir();
    await writeFiles(docs, { 'patterns/cqrs.md': '# CQRS' });
    // The index would otherwise be used for ten minutes: only the watcher can make the new document appear.
    const resources = createFileResourceResolver({ roots: { architecture: docs }, indexTtlMs: 600_000 });
    const changed: string[][] = [];
    const { registry } = await watched(
      { 'p.yaml': 'name: p\nmessages: [{role: user, content: "{{resource:architecture://patterns/*}}"}]\n' },
      { resources, onResourcesChanged: (uris) => changed.push(uris) },
      new PromptRegistry({ resources }),
    );
    expect((await registry.getPrompt('p')).messages[0]?.content).toEqual({
      type: 'text',
      text: '--- architecture://patterns/cqrs.md ---\n# CQRS',
    });
    await writeFile(join(docs, 'patterns/cqrs.md'), '# CQRS, revised');
    await writeFile(join(docs, 'patterns/saga.md'), '# Saga');
    await waitFor(() => changed.flat().length >= 2, 30_000, 'document changes');
    expect([...new Set(changed.flat())].sort()).toEqual([
      'architecture://patterns/cqrs.md',
      'architecture://patterns/saga.md',
    ]);
    const result = await registry.getPrompt('p');
    expect(result.messages[0]?.content).toEqual({
      type: 'text',
      text: '--- architecture://patterns/cqrs.md ---\n# CQRS, revised\n\n--- architecture://patterns/saga.md ---\n# Saga',
    });
  });
});
