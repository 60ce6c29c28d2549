/**
 * `mcp-prompt-kit pull`: a label of a real PostgreSQL store written back as prompt files; pushing what was pulled
 * changes nothing. The command runs in this process, except where the process is the point: the exit code of a pull
 * that cannot connect, with the database from DATABASE_URL (push.test.ts runs the documented pull as one too).
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemplatePromptDefinition } from '../../src/definition/types.js';
import { createPostgresPromptStore } from '../../src/stores/postgres/store.js';
import type { PostgresPromptStore } from '../../src/stores/postgres/store.js';
import { testDatabase } from '../stores/pg-database.js';
import type { TestDatabase } from '../stores/pg-server.js';
import { runCli, runCliInProcess } from './process.js';

const dirs: string[] = [];
let db: TestDatabase;
let store: PostgresPromptStore;
beforeAll(async () => {
  db = await testDatabase();
  store = createPostgresPromptStore({ pool: db.pool() });
  await store.migrate();
  for (const definition of PROMPTS) await store.put(definition);
});
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await db.close();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mpk-pull-'));
  dirs.push(dir);
  return dir;
}

/** Prompts whose text is easy to get wrong in a file: YAML look-alikes, edges of lines, nested schema data. */
const PROMPTS: TemplatePromptDefinition[] = [
  {
    name: 'review-code',
    title: 'Review code',
    description: 'Reviews code.\nSecond line: with a colon, # and "quotes"',
    tags: ['review', 'yes', '1.0', 'null'],
    icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png' }],
    _meta: { 'example.com/owner': 'team-a', nested: { n: 1.5, flag: false, list: [1, 'two', null] } },
    arguments: [
      { name: 'code', description: 'The code', required: true },
      { name: 'language', enum: ['ts', 'py', 'no'] },
    ],
    messages: [
      { role: 'user', content: 'Review this {{language}} code:\n\n```\n{{code}}\n```\n' },
      { role: 'assistant', content: { type: 'text', text: '  leading spaces, trailing newlines\n\n\n' } },
      { role: 'user', content: 'true' },
    ],
  },
  {
    name: 'with_schema',
    inputSchema: {
      type: 'object',
      properties: { count: { type: 'integer', minimum: 1, maximum: 10, default: 3 }, tone: { type: 'string' } },
      required: ['tone'],
    },
    messages: [{ role: 'user', content: 'Give {{count}} ideas in a {{tone}} tone: ünïcödé ✓ 🚀 ~ \\ \t tab' }],
  },
  { name: 'plain.one', messages: [{ role: 'user', content: 'key: value' }] },
];

const pull = (dir: string, ...args: string[]) => runCliInProcess(['pull', dir, '--database', db.url, ...args]);

describe('pull', () => {
  for (const format of ['json', 'yaml'] as const) {
    it(`writes each prompt of the label as a ${format} file that pushes back as no change`, async () => {
      const dir = tempDir();
      const pulled = await pull(dir, '--format', format, '--json');
      expect(pulled.code, pulled.stderr).toBe(0);
      const report = JSON.parse(pulled.stdout) as { written: { name: string; created: boolean }[] };
      expect(report.written.map((w) => [w.name, w.created])).toEqual([
        ['plain.one', true],
        ['review-code', true],
        ['with_schema', true],
      ]);
      expect(readdirSync(dir).sort()).toEqual([
        `plain.one.${format}`,
        `review-code.${format}`,
        `with_schema.${format}`,
      ]);
      const versions = (await db.pool().query('SELECT count(*)::int AS n FROM prompts_versions')).rows[0].n;
      const pushed = await runCliInProcess(['push', dir, '--database', db.url, '--json']);
      expect(pushed.code, pushed.stderr).toBe(0);
      expect(JSON.parse(pushed.stdout)).toMatchObject({ versionsWritten: 0, added: [], changed: [], storeOnly: [] });
      expect((await db.pool().query('SELECT count(*)::int AS n FROM prompts_versions')).rows[0].n).toBe(versions);
    });
  }

  it('does not rewrite a file whose content already matches, even written another way', async () => {
    const dir = tempDir();
    await pull(dir);
    // The same prompt, formatted by hand.
    writeFileSync(
      join(dir, 'plain.one.json'),
      '{"messages": [{"content": {"text": "key: value", "type": "text"}, "role": "user"}], "name": "plain.one"}',
    );
    const before = Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs]));
    const again = await pull(dir, '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ written: [], refused: [] });
    expect(Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs]))).toEqual(before);
    expect(readFileSync(join(dir, 'plain.one.json'), 'utf8')).toContain('"messages": [{"content"');
  });

  it('writes a changed prompt to its own file, in that file’s format and place', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'team'));
    writeFileSync(
      join(dir, 'team', 'plain.yaml'),
      'name: plain.one\nmessages:\n  - role: user\n    content: old text\n',
    );
    const { code, stdout, stderr } = await pull(dir);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`~ plain.one: version 1 -> ${join(dir, 'team', 'plain.yaml')}`);
    expect(readdirSync(join(dir, 'team'))).toEqual(['plain.yaml']);
    expect(readFileSync(join(dir, 'team', 'plain.yaml'), 'utf8')).toContain('key: value');
    expect(readdirSync(dir).filter((f) => f.startsWith('plain'))).toEqual([]);
  });

  it('keeps the example cases of a file it rewrites: they are the file’s, not the stored prompt’s', async () => {
    const dir = tempDir();
    const cases = [{ name: 'renders the value', contains: 'key: value' }];
    writeFileSync(
      join(dir, 'plain.json'),
      JSON.stringify({ name: 'plain.one', messages: [{ role: 'user', content: 'old text' }], cases }),
    );
    const { code, stderr } = await pull(dir);
    expect(code, stderr).toBe(0);
    const written = JSON.parse(readFileSync(join(dir, 'plain.json'), 'utf8')) as Record<string, unknown>;
    expect(written['messages']).toEqual([{ role: 'user', content: { type: 'text', text: 'key: value' } }]);
    expect(written['cases']).toEqual(cases);
    const tested = await runCliInProcess(['test', dir]);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
  });

  it('never replaces a file that is not the prompt’s own without --force', async () => {
    const dir = tempDir();
    const other = '{"name": "other", "messages": [{"role": "user", "content": "mine"}]}';
    writeFileSync(join(dir, 'plain.one.json'), other);
    writeFileSync(join(dir, 'review-code.json'), 'not json at all');
    const refused = await pull(dir);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      `! plain.one: ${join(dir, 'plain.one.json')} exists and is not this prompt's file`,
    );
    expect(refused.stdout).toContain(
      `! review-code: ${join(dir, 'review-code.json')} exists and is not this prompt's file`,
    );
    expect(refused.stdout).toContain('- other: in');
    expect(readFileSync(join(dir, 'plain.one.json'), 'utf8')).toBe(other);
    expect(readFileSync(join(dir, 'review-code.json'), 'utf8')).toBe('not json at all');
    // The one that was free was written.
    expect(readdirSync(dir).sort()).toEqual(['plain.one.json', 'review-code.json', 'with_schema.json']);

    const forced = await pull(dir, '--force');
    expect(forced.code, forced.stdout).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'plain.one.json'), 'utf8'))).toMatchObject({ name: 'plain.one' });
    expect(JSON.parse(readFileSync(join(dir, 'review-code.json'), 'utf8'))).toMatchObject({ name: 'review-code' });
  });

  it('fails with exit 3 when the database is unreachable, and refuses a format it does not write', async () => {
    const dir = tempDir();
    const down = await runCli(['pull', dir, '--timeout', '5000'], {
      env: { ...process.env, DATABASE_URL: 'postgres://reader:pull-Secret9@127.0.0.1:1/prompts' },
    });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('postgres://reader:***@127.0.0.1:1/prompts');
    expect(down.stdout + down.stderr).not.toContain('pull-Secret9');
    const toml = await pull(dir, '--format', 'toml');
    expect(toml.code).toBe(2);
    expect(toml.stderr).toContain('--format must be json or yaml');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('gives prompts whose names differ only in case files that differ in more than case', async () => {
    for (const name of ['Cased', 'cased', 'CASED'])
      await store.put({ name, messages: [{ role: 'user', content: name }] }, { labels: ['cased'] });
    const dir = tempDir();
    const pulled = await pull(dir, '--label', 'cased');
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['CASED.json', 'Cased-2.json', 'cased-3.json']);
    expect(JSON.parse(readFileSync(join(dir, 'cased-3.json'), 'utf8'))).toMatchObject({ name: 'cased' });
    // Pulled again, each prompt is found in its own file.
    const again = await pull(dir, '--label', 'cased');
    expect([again.code, readdirSync(dir).length]).toEqual([0, 3]);
  });

  it('reads another label, and says so when the database has no prompt table', async () => {
    await store.put({ name: 'staged', messages: [{ role: 'user', content: 'S' }] }, { labels: ['staging'] });
    const dir = tempDir();
    const staged = await pull(dir, '--label', 'staging', '--json');
    expect(staged.code, staged.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual(['staged.json']);

    const empty = await testDatabase();
    try {
      const missing = await runCliInProcess(['pull', tempDir(), '--database', empty.url]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('has no prompt table public.prompts (push creates it)');
    } finally {
      await empty.close();
    }
  });
});
