/**
 * Generated prompt files (contents in each format, hostile YAML, hostile names) and resource URIs: loading never
 * throws past the loader (a bad file is a located diagnostic), formatted diagnostics carry no raw control characters,
 * and the file resolver never serves a file from outside its root, within the per-case CPU and heap bounds.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { createFileResourceResolver, formatDiagnostic, loadPromptDirectory } from '../../src/fs/index.js';
import {
  checkProperty,
  expectPrototypeUntouched,
  fc,
  hostileJson,
  hostileKey,
  hostileString,
  hostileText,
  PROPERTY_TIMEOUT_MS,
  withinBudget,
} from '../support/properties.js';

let base = '';
let counter = 0;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mpk-properties-'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

/** A fresh directory per case. */
async function caseDir(): Promise<string> {
  const dir = join(base, `c${counter++}`);
  await mkdir(dir);
  return dir;
}

/** Definitions that are mostly well-formed, with hostile values in every field. */
const definition = fc.record(
  {
    name: fc.oneof(fc.constantFrom('review_code', 'a', 'x.y', 'bad name', ''), hostileString),
    description: hostileString,
    arguments: fc.oneof(
      fc.array(
        fc.record(
          {
            name: fc.oneof(fc.constantFrom('code', 'a.b'), hostileString),
            required: fc.boolean(),
            type: fc.constantFrom('string', 'integer', 'array', 'bogus'),
          },
          { requiredKeys: ['name'] },
        ),
        { maxLength: 3 },
      ),
      hostileJson,
    ),
    messages: fc.oneof(
      fc.array(
        fc.record({
          role: fc.constantFrom('user', 'assistant', 'system'),
          content: fc.oneof(hostileString, fc.constantFrom('{{code}}', '{{#code}}x{{/code}}', '{{')),
        }),
        { maxLength: 3 },
      ),
      hostileJson,
    ),
    extra: fc.dictionary(hostileKey, hostileJson, { maxKeys: 2 }),
  },
  { requiredKeys: ['name', 'messages'] },
);

/** YAML that is costly to read when nothing bounds it: alias bombs, deep nesting, wide maps, duplicate keys, tags. */
const hostileYaml = fc.oneof(
  fc.integer({ min: 1, max: 9 }).map(
    (n) =>
      `a: &a ["x","x","x","x","x","x","x","x","x"]\n${Array.from(
        { length: n },
        (_, i) =>
          `l${i + 1}: &l${i + 1} [${Array(9)
            .fill(i === 0 ? '*a' : `*l${i}`)
            .join(',')}]`,
      ).join('\n')}\nname: bomb\nmessages: []\n`,
  ),
  fc.integer({ min: 1, max: 5_000 }).map((n) => `name: deep\nmessages: ${'['.repeat(n)}${']'.repeat(n)}\n`),
  fc
    .integer({ min: 1, max: 40_000 })
    .map((n) => `name: wide\nmessages: []\n${Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join('\n')}\n`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `name: dup\nmessages: []\n${'k: 1\n'.repeat(n)}`),
  fc.constantFrom(
    'name: !!js/function "function(){}"\nmessages: []\n',
    'name: x\n<<: *undefined\n',
    '<<: {name: m}\nmessages: []\n',
    '--- \n---\nname: two docs\n',
    'name: "\\ud800"\nmessages: []\n',
    '\ufeffname: bom\nmessages: []\n',
  ),
);

const file = fc.oneof(
  { weight: 3, arbitrary: definition.map((d) => ({ ext: '.json', text: JSON.stringify(d) })) },
  { weight: 2, arbitrary: hostileText(definition).map((text) => ({ ext: '.json', text })) },
  { weight: 3, arbitrary: definition.map((d) => ({ ext: '.yaml', text: toYaml(d) })) },
  { weight: 2, arbitrary: hostileYaml.map((text) => ({ ext: '.yaml', text })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(definition, hostileString)
      .map(([d, body]) => ({ ext: '.md', text: `---\n${toYaml({ ...d, messages: undefined })}---\n${body}` })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('.md', '.yaml', '.json'), hostileString).map(([ext, text]) => ({ ext, text })),
  },
);

/** No C0 control character but newline and tab, and no DEL or C1 control, reaches a terminal through a diagnostic. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('prompt files over generated contents and names', () => {
  it(
    'loads any file content in any format to a definition or located diagnostics, within bounds',
    async () => {
      await checkProperty('fs: prompt files', file, async ({ ext, text }) => {
        const dir = await caseDir();
        await writeFile(join(dir, `p${ext}`), text);
        const loaded = await withinBudget(`load ${ext}`, () => loadPromptDirectory(dir));
        expect(loaded.definitions.length + loaded.diagnostics.length).toBeGreaterThan(0);
        for (const d of loaded.diagnostics) {
          expect(d.file).toContain(dir);
          if (d.line !== undefined) expect(d.line).toBeGreaterThanOrEqual(1);
          expect(formatDiagnostic(d)).not.toMatch(CONTROL);
        }
        expectPrototypeUntouched();
        await rm(dir, { recursive: true, force: true });
      });
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'loads files of any name without throwing, and quotes names without raw control characters',
    async () => {
      const name = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map((n) => n.replace(/[/\u0000]/g, '_'));
      await checkProperty(
        'fs: file names',
        fc.tuple(name, fc.constantFrom('.json', '.yaml', '.md', '')),
        async ([n, ext]) => {
          const dir = await caseDir();
          const fileName = `${n}${ext}`.slice(0, 200);
          if (fileName === '.' || fileName === '..') return;
          try {
            await writeFile(
              join(dir, fileName),
              ext === '.md'
                ? '---\nname: ok\n---\nHello'
                : ext === '.json'
                  ? '{"name":"ok","messages":[{"role":"sideways"}]}'
                  : 'name: [',
            );
          } catch {
            return; // a name this file system refuses
          }
          const loaded = await loadPromptDirectory(dir);
          for (const d of loaded.diagnostics) expect(formatDiagnostic(d)).not.toMatch(CONTROL);
          await rm(dir, { recursive: true, force: true });
        },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe('the file resolver over generated URIs', () => {
  const SECRET = 'outside-secret-0c5e';
  let resolver: ReturnType<typeof createFileResourceResolver>;
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });
  beforeAll(async () => {
    const outside = await mkdtemp(join(tmpdir(), 'mpk-resolver-'));
    const root = join(outside, 'root');
    await mkdir(join(root, 'docs', 'sub'), { recursive: true });
    await writeFile(join(outside, 'secret.md'), SECRET);
    await writeFile(join(root, 'docs', 'a.md'), '# A');
    await writeFile(join(root, 'docs', 'sub', 'b.md'), '# B');
    await writeFile(join(root, 'docs', 'bin'), Buffer.from([0, 1, 2, 255]));
    await symlink(join(outside, 'secret.md'), join(root, 'docs', 'link.md'));
    await symlink(outside, join(root, 'docs', 'up'));
    cleanups.push(() => rm(outside, { recursive: true, force: true }));
    resolver = createFileResourceResolver({ roots: { docs: join(root, 'docs') } });
  });

  it(
    'serves a document from inside its root, nothing, or a client error for any URI; never an outside file',
    async () => {
      const segment = fc.oneof(
        fc.constantFrom(
          'a.md',
          'a',
          'sub',
          'b.md',
          'b',
          '..',
          '.',
          '',
          'link.md',
          'up',
          'secret.md',
          '%2e%2e',
          '%2F',
          '%00',
          'bin',
          '*',
          '**',
        ),
        hostileString,
      );
      const uri = fc
        .tuple(
          fc.constantFrom('docs://', 'docs:///', 'docs:', 'other://', 'DOCS://', 'file:///'),
          fc.array(segment, { maxLength: 5 }),
        )
        .map(([scheme, parts]) => scheme + parts.join('/'));
      await checkProperty('fs: resource URIs', uri, async (u) => {
        const read = async (): Promise<void> => {
          try {
            const contents = await resolver.read(u);
            if (contents !== undefined && 'text' in contents) expect(contents.text).not.toContain(SECRET);
            const listed = await resolver.list(u);
            for (const c of listed) if ('text' in c) expect(c.text).not.toContain(SECRET);
          } catch (error) {
            if (!(error instanceof PromptError) || error.rpcCode !== -32602) throw error;
          }
        };
        await withinBudget(`read ${u.slice(0, 80)}`, read);
      });
    },
    PROPERTY_TIMEOUT_MS,
  );
});
