import { spawn } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PromptRegistry } from '../../src/index.js';
import { createFileAssetLoader, createFileResourceResolver } from '../../src/fs/index.js';
import { tempDir, writeFiles } from './temp.js';

async function docs(files: Record<string, string | Uint8Array> = {}) {
  const root = await tempDir();
  const dir = join(root, 'docs');
  await writeFiles(dir, {
    'patterns/cqrs.md': '# CQRS',
    'patterns/saga.md': '# Saga',
    'patterns/deep/outbox.md': '# Outbox',
    'adr/001-postgres.md': '# ADR 001',
    'guidelines.txt': 'Prefer pure functions.',
    ...files,
  });
  await writeFile(join(root, 'secret.txt'), 'top secret');
  return { root, dir };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('createFileResourceResolver: reading', () => {
  it('maps scheme://path to a file under the root, with the MIME type of its extension', async () => {
    const { dir } = await docs({ 'data/config.json': '{"a":1}', 'img/logo.png': Uint8Array.from([1, 2, 3]) });
    const resources = createFileResourceResolver({ roots: { architecture: dir } });
    expect(await resources.read('architecture://patterns/cqrs.md')).toEqual({
      uri: 'architecture://patterns/cqrs.md',
      mimeType: 'text/markdown',
      text: '# CQRS',
    });
    expect(await resources.read('architecture://data/config.json')).toMatchObject({
      mimeType: 'application/json',
      text: '{"a":1}',
    });
    expect(await resources.read('architecture://img/logo.png')).toEqual({
      uri: 'architecture://img/logo.png',
      mimeType: 'image/png',
      blob: Buffer.from([1, 2, 3]).toString('base64'),
    });
  });

  it('answers undefined for unknown files, directories and schemes it was not given', async () => {
    const { dir } = await docs();
    const resources = createFileResourceResolver({ roots: { architecture: dir } });
    expect(await resources.read('architecture://patterns/nope.md')).toBeUndefined();
    expect(await resources.read('architecture://patterns')).toBeUndefined();
    expect(await resources.read('other://patterns/cqrs.md')).toBeUndefined();
    expect(await resources.read('file:///etc/passwd')).toBeUndefined();
    expect(await codeOf(resources.readResource('architecture://patterns/nope.md'))).toBe('RESOURCE_NOT_FOUND');
  });

  it('finds a document named without its .md extension', async () => {
    const { dir } = await docs({ 'adr/002.markdown': '# 002' });
    const resources = createFileResourceResolver({ roots: { architecture: dir } });
    expect(await resources.read('architecture://adr/001-postgres')).toEqual({
      uri: 'architecture://adr/001-postgres',
      mimeType: 'text/markdown',
      text: '# ADR 001',
    });
    expect(await resources.read('architecture://adr/002')).toBeUndefined();
    const exact = createFileResourceResolver({ roots: { architecture: dir }, extensions: [] });
    expect(await exact.read('architecture://adr/001-postgres')).toBeUndefined();
  });

  it('expands globs: * within a segment, ** across segments, sorted by URI', async () => {
    const { dir } = await docs();
    const resources = createFileResourceResolver({ roots: { architecture: dir } });
    const uris = async (pattern: string) => (await resources.list(pattern)).map((c) => c.uri);
    expect(await uris('architecture://patterns/*')).toEqual([
      'architecture://patterns/cqrs.md',
      'architecture://patterns/saga.md',
    ]);
    expect(await uris('architecture://patterns/**')).toEqual([
      'architecture://patterns/cqrs.md',
      'architecture://patterns/deep/outbox.md',
      'architecture://patterns/saga.md',
    ]);
    expect(await uris('architecture://**/*.md')).toHaveLength(4);
    expect(await uris('other://**')).toEqual([]);
  });

  it('serves what prompts embed with {{resource:...}} directives', async () => {
    const { dir } = await docs();
    const registry = new PromptRegistry({ resources: createFileResourceResolver({ roots: { architecture: dir } }) });
    registry.add({
      name: 'p',
      messages: [{ role: 'user', content: 'Patterns:\n{{resource:architecture://patterns/*}}' }],
    });
    const result = await registry.getPrompt('p');
    expect(result.messages[0]?.content).toEqual({
      type: 'text',
      text: 'Patterns:\n--- architecture://patterns/cqrs.md ---\n# CQRS\n\n--- architecture://patterns/saga.md ---\n# Saga',
    });
  });

  it("embeds a resource block in the form of its declared mimeType, whatever the file's extension says", async () => {
    const { dir } = await docs({ 'notes/LICENSE': 'MIT License', 'data/table.csv': 'a,b' });
    const registry = new PromptRegistry({ resources: createFileResourceResolver({ roots: { architecture: dir } }) });
    registry.add({
      name: 'p',
      messages: [
        { role: 'user', content: { type: 'resource', uri: 'architecture://notes/LICENSE', mimeType: 'text/plain' } },
        {
          role: 'user',
          content: { type: 'resource', uri: 'architecture://data/table.csv', mimeType: 'application/octet-stream' },
        },
        { role: 'user', content: { type: 'resource', uri: 'architecture://notes/LICENSE' } },
      ],
    });
    const result = await registry.getPrompt('p');
    expect(result.messages.map((m) => m.content)).toEqual([
      {
        type: 'resource',
        resource: { uri: 'architecture://notes/LICENSE', mimeType: 'text/plain', text: 'MIT License' },
      },
      {
        type: 'resource',
        resource: {
          uri: 'architecture://data/table.csv',
          mimeType: 'application/octet-stream',
          blob: Buffer.from('a,b').toString('base64'),
        },
      },
      {
        type: 'resource',
        resource: {
          uri: 'architecture://notes/LICENSE',
          mimeType: 'application/octet-stream',
          blob: Buffer.from('MIT License').toString('base64'),
        },
      },
    ]);
  });

  it('lists every document for resources/list and reads it for resources/read', async () => {
    const { dir } = await docs();
    const resources = createFileResourceResolver({ roots: { architecture: dir } });
    const listed = await resources.listResources();
    expect(listed.map((r) => r.uri)).toEqual([
      'architecture://adr/001-postgres.md',
      'architecture://guidelines.txt',
      'architecture://patterns/cqrs.md',
      'architecture://patterns/deep/outbox.md',
      'architecture://patterns/saga.md',
    ]);
    expect(listed[1]).toEqual({
      uri: 'architecture://guidelines.txt',
      name: 'guidelines.txt',
      mimeType: 'text/plain',
      size: 22,
    });
    expect(await resources.readResource('architecture://guidelines.txt')).toEqual({
      contents: [{ uri: 'architecture://guidelines.txt', mimeType: 'text/plain', text: 'Prefer pure functions.' }],
    });
  });
});

describe('createFileResourceResolver: confinement', () => {
  const refused = [
    ['a .. segment', 'architecture://patterns/../../secret.txt'],
    ['a leading ..', 'architecture://../secret.txt'],
    ['an absolute path', 'architecture:///etc/passwd'],
    ['percent-encoded dots', 'architecture://%2e%2e/secret.txt'],
    ['percent-encoded dots in capitals', 'architecture://%2E%2E/secret.txt'],
    ['a percent-encoded slash', 'architecture://..%2fsecret.txt'],
    ['a percent-encoded backslash', 'architecture://..%5csecret.txt'],
    ['an encoded NUL byte', 'architecture://guidelines.txt%00.md'],
    ['a NUL byte', 'architecture://guidelines.txt\0.md'],
    ['a backslash', 'architecture://patterns\\..\\..\\secret.txt'],
    ['a hidden file', 'architecture://.env'],
    ['malformed percent-encoding', 'architecture://%E0%A4%A'],
    ['a lone surrogate', 'architecture://\ud800/x.md'],
    ['a lone surrogate in a glob directory', 'architecture://\udc00/*'],
  ] as const;
  for (const [what, uri] of refused) {
    it(`refuses ${what} with RESOURCE_DENIED, in a read and in a glob`, async () => {
      const { dir } = await docs({ '.env': 'SECRET=1' });
      const resources = createFileResourceResolver({ roots: { architecture: dir } });
      expect(await codeOf(resources.read(uri))).toBe('RESOURCE_DENIED');
      if (uri.includes('/', 'architecture://'.length))
        expect(await codeOf(resources.list(uri))).toBe('RESOURCE_DENIED');
    });
  }

  it('refuses a symlink leading outside the root, and serves one that stays inside', async () => {
    const { root, dir } = await docs();
    await symlink(join(root, 'secret.txt'), join(dir, 'escape.txt'));
    await symlink(join(root), join(dir, 'up'));
    await symlink(join(dir, 'patterns', 'cqrs.md'), join(dir, 'alias.md'));
    const resources = createFileResourceResolver({ roots: { architecture: dir } });
    expect(await codeOf(resources.read('architecture://escape.txt'))).toBe('RESOURCE_DENIED');
    expect(await codeOf(resources.read('architecture://up/secret.txt'))).toBe('RESOURCE_DENIED');
    expect(await resources.read('architecture://alias.md')).toMatchObject({ text: '# CQRS' });
    const listed = (await resources.listResources()).map((r) => r.uri);
    expect(listed).toContain('architecture://alias.md');
    expect(listed.filter((u) => u.includes('secret') || u.includes('escape'))).toEqual([]);
    expect((await resources.list('architecture://*')).map((c) => c.uri)).toEqual([
      'architecture://alias.md',
      'architecture://guidelines.txt',
    ]);
  });

  it('never serves a file from outside the root while a directory is swapped for a symlink during reads', async () => {
    const { root, dir } = await docs({ 'sub/doc.md': 'inside' });
    await writeFiles(root, { 'outside/doc.md': 'SECRET', 'outside/logo.png': 'SECRET' });
    await writeFile(join(dir, 'sub', 'logo.png'), 'inside');
    await symlink(join(root, 'outside'), join(dir, 'sub.link'));
    // A child process swaps docs/sub (a directory) with docs/sub.link (a symlink to ../outside), each rename atomic.
    const swapper = join(root, 'swap.mjs');
    await writeFile(
      swapper,
      `import { renameSync } from 'node:fs';
const [dir, count] = [process.argv[2], Number(process.argv[3])];
const at = (n) => dir + '/' + n;
process.stdout.write('go\\n');
for (let i = 0; i < count; i++) {
  renameSync(at('sub'), at('sub.real')); renameSync(at('sub.link'), at('sub'));
  renameSync(at('sub'), at('sub.link')); renameSync(at('sub.real'), at('sub'));
}
`,
    );
    const child = spawn(process.execPath, [swapper, dir, '4000'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    let running = true;
    void exited.then(() => (running = false));
    await Promise.race([new Promise<void>((resolve) => child.stdout.once('data', () => resolve())), exited]);
    const resources = createFileResourceResolver({ roots: { architecture: dir } });
    const assets = createFileAssetLoader(dir);
    const seen = { inside: 0, refused: 0, leaked: 0 };
    for (let reads = 0; running && reads < 20_000; reads++) {
      const results = await Promise.allSettled([
        resources.read('architecture://sub/doc.md'),
        assets.read('sub/logo.png', { promptName: 'p' }),
      ]);
      for (const result of results) {
        if (result.status === 'rejected') {
          seen.refused++;
          continue;
        }
        const value = result.value;
        const text =
          value instanceof Uint8Array
            ? Buffer.from(value).toString()
            : typeof value === 'string'
              ? value
              : value !== undefined && 'text' in value
                ? value.text
                : undefined;
        if (text === 'SECRET') seen.leaked++;
        else if (text === 'inside') seen.inside++;
        else seen.refused++;
      }
      resources.invalidate();
    }
    await exited;
    expect(seen.leaked).toBe(0);
    // The race was run: reads landed on both sides of the swap.
    expect(seen.inside).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  }, 120_000);

  it('refuses a glob whose directory part leaves the root', async () => {
    const { dir } = await docs();
    const resources = createFileResourceResolver({ roots: { architecture: dir } });
    expect(await codeOf(resources.list('architecture://../*'))).toBe('RESOURCE_DENIED');
  });
});

describe('createFileResourceResolver: listing index', () => {
  it('lists and expands globs from an index, walked again after invalidate() or indexTtlMs', async () => {
    const { dir } = await docs();
    const resources = createFileResourceResolver({ roots: { architecture: dir }, indexTtlMs: 600_000 });
    expect((await resources.listResources()).map((r) => r.name)).toContain('patterns/saga.md');
    await writeFiles(dir, { 'patterns/outbox.md': '# Outbox' });
    // The index was built before the file existed: neither the listing nor a glob walks the tree again.
    expect((await resources.listResources()).map((r) => r.name)).not.toContain('patterns/outbox.md');
    expect((await resources.list('architecture://patterns/*')).map((c) => c.uri)).not.toContain(
      'architecture://patterns/outbox.md',
    );
    expect(await resources.read('architecture://patterns/outbox.md')).toMatchObject({ text: '# Outbox' }); // reads go by path
    resources.invalidate();
    expect((await resources.listResources()).map((r) => r.name)).toContain('patterns/outbox.md');
    const fresh = createFileResourceResolver({ roots: { architecture: dir }, indexTtlMs: 0 });
    await fresh.listResources();
    await writeFiles(dir, { 'patterns/retry.md': '# Retry' });
    expect((await fresh.listResources()).map((r) => r.name)).toContain('patterns/retry.md');
  });

  it('gives one page after a URI, and says whether more follow', async () => {
    const { dir } = await docs();
    const resources = createFileResourceResolver({ roots: { architecture: dir } });
    const all = (await resources.listResources()).map((r) => r.uri);
    const first = await resources.listResourcesPage(undefined, 2);
    expect(first).toEqual({ resources: (await resources.listResources()).slice(0, 2), more: true });
    const rest = await resources.listResourcesPage(all[1], 10);
    expect(rest.resources.map((r) => r.uri)).toEqual(all.slice(2));
    expect(rest.more).toBe(false);
  });

  it('walks at most maxWalked entries per root: the listing is partial and logged, a glob is LIMIT_EXCEEDED', async () => {
    const { dir } = await docs();
    const warned: Record<string, unknown>[] = [];
    const resources = createFileResourceResolver({
      roots: { architecture: dir },
      maxWalked: 3,
      logger: { warn: (fields: Record<string, unknown>) => warned.push(fields) },
    });
    const listed = await resources.listResources();
    expect(listed.length).toBeLessThan(5);
    expect(warned).toEqual([
      { event: 'resource_walk_cut', scheme: 'architecture', root: dir, maxWalked: 3, maxListed: 10_000 },
    ]);
    const error = await resources.list('architecture://**').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LIMIT_EXCEEDED', data: { limit: 'maxWalked', max: 3 } });
    // A glob over a directory small enough to walk alone is still answered.
    expect((await resources.list('architecture://adr/*')).map((c) => c.uri)).toEqual([
      'architecture://adr/001-postgres.md',
    ]);
  });
});

describe('createFileResourceResolver: limits and cache', () => {
  it('refuses a document over maxDocumentBytes with LIMIT_EXCEEDED', async () => {
    const { dir } = await docs({ 'big.md': 'x'.repeat(2_000) });
    const resources = createFileResourceResolver({ roots: { architecture: dir }, maxDocumentBytes: 1_000 });
    expect(await codeOf(resources.read('architecture://big.md'))).toBe('LIMIT_EXCEEDED');
  });

  it('refuses a glob over maxMatches documents or maxTotalBytes before reading them', async () => {
    const { dir } = await docs();
    const few = createFileResourceResolver({ roots: { architecture: dir }, maxMatches: 2 });
    expect(await codeOf(few.list('architecture://patterns/**'))).toBe('LIMIT_EXCEEDED');
    const small = createFileResourceResolver({ roots: { architecture: dir }, maxTotalBytes: 10 });
    expect(await codeOf(small.list('architecture://patterns/*'))).toBe('LIMIT_EXCEEDED');
    expect(await small.list('architecture://patterns/cqrs*')).toHaveLength(1);
  });

  it('refuses a render whose embedded documents exceed the rendered-size limit with LIMIT_EXCEEDED', async () => {
    const { dir } = await docs({ 'patterns/big.md': 'y'.repeat(600) });
    const resources = createFileResourceResolver({ roots: { architecture: dir } });
    const registry = new PromptRegistry({ resources, limits: { maxRenderedBytes: 500 } });
    registry.add({ name: 'p', messages: [{ role: 'user', content: '{{resource:architecture://patterns/*}}' }] });
    expect(await codeOf(registry.getPrompt('p'))).toBe('LIMIT_EXCEEDED');
  });

  it('serves the new contents after a file changes (the cache follows file versions)', async () => {
    const { dir } = await docs();
    const resources = createFileResourceResolver({ roots: { architecture: dir } });
    expect(await resources.read('architecture://patterns/cqrs.md')).toMatchObject({ text: '# CQRS' });
    await writeFile(join(dir, 'patterns/cqrs.md'), '# CQRS v2');
    expect(await resources.read('architecture://patterns/cqrs.md')).toMatchObject({ text: '# CQRS v2' });
    await writeFile(join(dir, 'patterns/cqrs.md'), '# CQRS v3'); // same size as v2
    expect(await resources.read('architecture://patterns/cqrs.md')).toMatchObject({ text: '# CQRS v3' });
  });

  it('rejects invalid schemes and options at creation', () => {
    expect(() => createFileResourceResolver({ roots: { 'Bad Scheme': '.' } })).toThrow(
      /invalid URI scheme 'Bad Scheme'/,
    );
    expect(() => createFileResourceResolver({ roots: { docs: '.' }, maxMatches: 0 })).toThrow(
      /maxMatches must be a positive integer/,
    );
  });
});
