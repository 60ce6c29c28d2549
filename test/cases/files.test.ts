import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { promptDefinitionSchema } from '../../src/index.js';
import {
  createDirectoryPromptStore,
  formatDiagnostic,
  loadPromptCases,
  loadPromptDirectory,
} from '../../src/fs/index.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import { tempDir, writeFiles } from '../fs/temp.js';

const GREET_YAML = `name: greet
arguments:
  - name: who
    required: true
messages:
  - role: user
    content: Hello {{who}}
cases:
  - name: greets Ada
    arguments: { who: Ada }
    contains: Hello Ada
`;

function lines(diagnostics: Parameters<typeof formatDiagnostic>[0][], dir: string): string[] {
  return diagnostics.map((d) => formatDiagnostic(d).split(`${dir}/`).join(''));
}

describe('cases in prompt files', () => {
  it('reads cases from YAML, Markdown front matter and JSON with their file and line', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'greet.yaml': GREET_YAML,
      'note.md': '---\nname: note\ncases:\n  - name: plain\n    contains: Remember\n---\nRemember this.\n',
      'j.json': JSON.stringify(
        { name: 'j', messages: [{ role: 'user', content: 'Hi' }], cases: [{ name: 'hi', contains: 'Hi' }] },
        null,
        2,
      ),
    });
    const { suites, diagnostics } = await loadPromptCases(dir);
    expect(diagnostics).toEqual([]);
    expect(suites.map((s) => [s.prompt, s.cases.map((c) => [c.name, c.line, c.pointer])])).toEqual([
      ['greet', [['greets Ada', 9, '/cases/0']]],
      ['j', [['hi', 10, '/cases/0']]],
      ['note', [['plain', 4, '/cases/0']]],
    ]);
    expect(suites[0]!.cases[0]!.file).toBe(join(dir, 'greet.yaml'));
  });

  it('keeps cases out of what the registry serves', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'greet.yaml': GREET_YAML });
    const withCases = await loadPromptDirectory(dir);
    await writeFiles(dir, { 'greet.yaml': GREET_YAML.slice(0, GREET_YAML.indexOf('cases:')) });
    const without = await loadPromptDirectory(dir);
    expect(withCases.definitions).toEqual(without.definitions);
    expect(Object.keys(withCases.definitions[0]!)).not.toContain('cases');
    const registry = new PromptRegistry();
    registry.add(withCases.definitions);
    expect(JSON.stringify(registry.list())).not.toContain('greets Ada');
  });

  it('reads <name>.cases.yaml and .cases.json beside a prompt and never loads them as prompts', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'greet.yaml': GREET_YAML,
      'greet.cases.yaml': 'cases:\n  - name: greets Grace\n    arguments: { who: Grace }\n    contains: Grace\n',
      'greet.cases.json': '[{ "name": "greets Bob", "arguments": { "who": "Bob" } }]',
    });
    const loaded = await loadPromptDirectory(dir);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.files.map((f) => f.name)).toEqual(['greet']);
    expect(loaded.cases[0]!.cases.map((c) => [c.name, c.file, c.line])).toEqual([
      ['greets Ada', join(dir, 'greet.yaml'), 9],
      ['greets Bob', join(dir, 'greet.cases.json'), 1],
      ['greets Grace', join(dir, 'greet.cases.yaml'), 2],
    ]);
  });

  it('runs only the cases of the file whose prompt is served when two files define the same name', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'a/greet.yaml': GREET_YAML,
      'b/greet.yaml': GREET_YAML.replace('greets Ada', 'greets Ada from b'),
    });
    const { suites, diagnostics } = await loadPromptCases(dir);
    expect(suites.map((s) => [s.prompt, s.file, s.cases.map((c) => c.name)])).toEqual([
      ['greet', join(dir, 'a/greet.yaml'), ['greets Ada']],
    ]);
    expect(lines(diagnostics, dir)).toEqual([
      "b/greet.yaml:1:1: /name: duplicate prompt name 'greet': already defined in a/greet.yaml (that one is used)",
    ]);
  });

  it('gives every problem of a case a file:line:col diagnostic without leaving the prompt out', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'greet.yaml': `${GREET_YAML}  - name: greets Ada
    arguments: { whom: Ada }
  - name: typo
    contain: x
  - name: wrong type
    arguments: [1]
  - name: bad error
    error: { code: -1 }
`,
      'greet.cases.yaml': '- name: typo\n- name: undeclared\n  arguments: { who: a, extra: 1 }\n',
    });
    const loaded = await loadPromptDirectory(dir);
    expect(loaded.definitions.map((d) => d.name)).toEqual(['greet']);
    expect(lines(loaded.diagnostics, dir)).toEqual([
      "greet.cases.yaml:1:3: /0/name: duplicate case name 'typo' (first at greet.yaml:14:5)",
      "greet.cases.yaml:3:24: /1/arguments/extra: argument 'extra' is not declared by the prompt",
      "greet.yaml:12:5: /cases/1/name: duplicate case name 'greets Ada' (first at greet.yaml:9:5)",
      "greet.yaml:13:18: /cases/1/arguments/whom: argument 'whom' is not declared by the prompt (did you mean 'who'?)",
      "greet.yaml:15:5: /cases/2/contain: unknown property 'contain' (did you mean 'contains'?)",
      'greet.yaml:17:5: /cases/3/arguments: arguments must be an object of argument values (got an array)',
      expect.stringMatching(/^greet\.yaml:19:14: \/cases\/4\/error\/code: unknown JSON-RPC error code -1/),
    ]);
  });

  it('lets a case that expects an error pass an undeclared argument', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'greet.yaml': `${GREET_YAML}  - name: rejects extra
    arguments: { who: a, extra: 1 }
    error: PROMPT_ARGUMENT_INVALID
`,
    });
    const { diagnostics, suites } = await loadPromptCases(dir);
    expect(diagnostics).toEqual([]);
    expect(suites[0]!.cases).toHaveLength(2);
  });

  it('refuses thousands of cases, deep arguments and oversized cases files with clear diagnostics', async () => {
    const dir = await tempDir();
    const many = Array.from({ length: 1_001 }, (_, i) => ({ name: `c${i}` }));
    let deep: unknown = 'x';
    for (let i = 0; i < 600; i++) deep = { d: deep };
    await writeFiles(dir, {
      'a.yaml': 'name: a\nmessages: [{ role: user, content: hi }]\n',
      'a.cases.json': JSON.stringify(many),
      'b.yaml': 'name: b\narguments: [{ name: d, type: object }]\nmessages: [{ role: user, content: hi }]\n',
      'b.cases.json': JSON.stringify([{ name: 'deep', arguments: { d: deep } }]),
      'c.yaml': 'name: c\nmessages: [{ role: user, content: hi }]\n',
      'c.cases.yaml': `${'- name: x\n'.repeat(5)}${'#'.repeat(1_100_000)}\n`,
      'd.yaml': 'name: d\nmessages: [{ role: user, content: hi }]\n',
      'd.cases.yaml': Array.from({ length: 4_000 }, (_, i) => `- name: c${i}\n  arguments: { a: 1 }\n`).join(''),
    });
    const { diagnostics, suites } = await loadPromptCases(dir);
    expect(suites).toEqual([]);
    const text = lines(diagnostics, dir);
    expect(text).toContainEqual(expect.stringMatching(/^a\.cases\.json:1:1: 1001 cases, over the limit of 1000 cases/));
    expect(text).toContainEqual(expect.stringMatching(/^b\.cases\.json:\d+:\d+: .*nest/));
    expect(text).toContainEqual(
      expect.stringMatching(/^c\.cases\.yaml: file is \d+ bytes, over the 1048576-byte limit/),
    );
    expect(text).toContainEqual(
      expect.stringMatching(/^d\.cases\.yaml:\d+:\d+: invalid YAML: more than 10000 YAML nodes/),
    );
  });

  it("keeps a file's cases when the directory store rewrites its prompt", async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'greet.yaml': GREET_YAML });
    const store = createDirectoryPromptStore(dir);
    await store.put({
      name: 'greet',
      arguments: [{ name: 'who' }],
      messages: [{ role: 'user', content: 'Hi {{who}}' }],
    });
    await store.close();
    const text = await readFile(join(dir, 'greet.yaml'), 'utf8');
    expect(text).toContain('Hi {{who}}');
    const { suites, diagnostics } = await loadPromptCases(dir);
    expect(diagnostics).toEqual([]);
    expect(suites[0]!.cases.map((c) => c.name)).toEqual(['greets Ada']);
    await writeFile(join(dir, 'unused'), '');
  });

  it("the examples' JSON prompt files, cases included, match the published JSON Schema", async () => {
    const validate = new Ajv({ allErrors: true }).compile(promptDefinitionSchema);
    for (const name of ['explain_error.json', 'write_commit_message.json']) {
      const data = JSON.parse(await readFile(new URL(`../../examples/prompts/${name}`, import.meta.url), 'utf8')) as {
        cases?: unknown[];
      };
      expect(data.cases?.length, name).toBeGreaterThan(0);
      expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});
