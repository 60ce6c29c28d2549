import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PromptRegistry, isPromptError } from '../../src/index.js';
import {
  DEFAULT_PROMPT_FILE_LIMITS,
  createFileAssetLoader,
  formatDiagnostic,
  loadPromptDirectory,
} from '../../src/fs/index.js';
import { tempDir, writeFiles } from './temp.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function load(files: Record<string, string | Uint8Array>, options = {}) {
  const dir = await tempDir();
  await writeFiles(dir, files);
  const result = await loadPromptDirectory(dir, options);
  const rel = (file: string) => file.slice(dir.length + 1);
  return {
    dir,
    ...result,
    names: result.definitions.map((d) => d.name),
    lines: result.diagnostics.map((d) => formatDiagnostic({ ...d, file: rel(d.file) })),
  };
}

describe('loadPromptDirectory: formats', () => {
  it('reads JSON, YAML (.yaml and .yml) and Markdown with front matter', async () => {
    const { definitions, diagnostics } = await load({
      'a.json': JSON.stringify({
        name: 'from-json',
        messages: [{ role: 'user', content: 'json {{x}}' }],
        arguments: [{ name: 'x' }],
      }),
      'b.yaml':
        'name: from-yaml\ndescription: yaml\nmessages:\n  - role: assistant\n    content: {type: text, text: "yaml"}\n',
      'c.yml': 'name: from-yml\nmessages:\n  - role: user\n    content: yml\n',
      'd.md': '---\nname: from-md\narguments:\n  - name: code\n    required: true\n---\n\nReview this:\n\n{{code}}\n\n',
    });
    expect(diagnostics).toEqual([]);
    expect(definitions.map((d) => [d.name, d.messages?.[0]?.content])).toEqual([
      ['from-json', { type: 'text', text: 'json {{x}}' }],
      ['from-yaml', { type: 'text', text: 'yaml' }],
      ['from-yml', { type: 'text', text: 'yml' }],
      ['from-md', { type: 'text', text: 'Review this:\n\n{{code}}' }],
    ]);
    expect(definitions[3]?.arguments).toEqual([{ name: 'code', required: true }]);
  });

  it('takes messages from Markdown front matter when the file has no body', async () => {
    const { definitions, diagnostics } = await load({
      'p.md':
        '---\nname: two-turns\nmessages:\n  - role: user\n    content: Hi\n  - role: assistant\n    content: Hello\n---\n',
    });
    expect(diagnostics).toEqual([]);
    expect(definitions[0]?.messages?.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('reads Markdown and YAML files with Windows line endings and a byte order mark', async () => {
    const { definitions, diagnostics } = await load({
      'win.md': '\ufeff---\r\nname: win\r\n---\r\nLine one\r\nLine two\r\n',
      'win.yaml': 'name: win-yaml\r\nmessages:\r\n  - role: user\r\n    content: hi\r\n',
    });
    expect(diagnostics).toEqual([]);
    expect(definitions.map((d) => [d.name, d.messages?.[0]?.content])).toEqual([
      ['win', { type: 'text', text: 'Line one\r\nLine two' }],
      ['win-yaml', { type: 'text', text: 'hi' }],
    ]);
  });

  it('walks subdirectories in sorted path order and ignores hidden files and editor backups', async () => {
    const prompt = (name: string) => JSON.stringify({ name, messages: [{ role: 'user', content: name }] });
    const { dir, names, files, diagnostics } = await load({
      'z.json': prompt('z'),
      'a/b.json': prompt('a-b'),
      'a.json': prompt('a'),
      'a/c/d.yaml': 'name: a-c-d\nmessages: [{role: user, content: x}]\n',
      '.hidden.json': '{ broken',
      '.git/config.json': '{ broken',
      'draft.json~': '{ broken',
      '#draft.json#': '{ broken',
      '.draft.json.swp': '{ broken',
      'draft.json.bak': '{ broken',
      'notes.txt': 'not a prompt',
    });
    expect(diagnostics).toEqual([]);
    expect(names).toEqual(['a', 'a-b', 'a-c-d', 'z']);
    expect(files.map((f) => f.file.slice(dir.length + 1))).toEqual(['a.json', 'a/b.json', 'a/c/d.yaml', 'z.json']);
  });

  it('throws an error naming a missing directory', async () => {
    const dir = join(await tempDir(), 'nope');
    const error = await loadPromptDirectory(dir).catch((e: unknown) => e);
    expect(isPromptError(error)).toBe(true);
    expect((error as Error).message).toBe(`prompt directory ${dir} does not exist`);
  });

  it('throws an error naming a path that is a file, or a directory that cannot be read, and why', async () => {
    const root = await tempDir();
    await writeFiles(root, { 'file.json': '{}' });
    await symlink(join(root, 'loop'), join(root, 'loop'));
    const messageOf = (dir: string) =>
      loadPromptDirectory(dir).then(
        () => 'loaded',
        (e: unknown) => (isPromptError(e) ? e.message : String(e)),
      );
    expect(await messageOf(join(root, 'file.json'))).toBe(
      `prompt directory ${join(root, 'file.json')} is not a directory`,
    );
    expect(await messageOf(join(root, 'loop'))).toBe(`prompt directory ${join(root, 'loop')} cannot be read (ELOOP)`);
  });
});

describe('loadPromptDirectory: diagnostics with their place', () => {
  it('gives the line and column of a JSON syntax error', async () => {
    const { lines, names } = await load({
      'bad.json': '{\n  "name": "x",\n  "messages": [\n  }\n',
      'trailing.json': '{\n  "name": "y",\n}\n',
      'good.json': JSON.stringify({ name: 'good', messages: [{ role: 'user', content: 'ok' }] }),
    });
    expect(names).toEqual(['good']);
    expect(lines).toEqual([
      "bad.json:4:3: invalid JSON: unexpected '}': expected a value",
      "trailing.json:2:14: invalid JSON: trailing comma: JSON allows no ',' before '}'",
    ]);
  });

  it('gives the line of the offending field for definition errors in JSON', async () => {
    const { lines } = await load({
      'p.json':
        '{\n  "name": "p",\n  "messages": [\n    { "role": "system", "content": "x" },\n    { "role": "user", "content": ["a"] }\n  ]\n}\n',
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^p\.json:4:7: \/messages\/0\/role: .*'system'/);
    expect(lines[1]).toMatch(/^p\.json:5:23: \/messages\/1\/content: .*array/);
  });

  it('gives YAML syntax errors and definition errors their lines', async () => {
    const { lines } = await load({
      'syntax.yaml': 'name: x\nmessages: [\n  {role: user\n',
      'dup.yaml': 'name: x\nname: y\nmessages: []\n',
      'schema.yaml': 'name: Bad Name\nmessages:\n  - role: user\n    content:\n      type: video\n',
    });
    expect(lines[0]).toBe("dup.yaml:2:1: invalid YAML: duplicate key 'name' (first at line 1)");
    expect(lines[1]).toMatch(/^schema\.yaml:1:1: \/name: /);
    expect(lines[2]).toMatch(/^schema\.yaml:5:7: \/messages\/0\/content\/type: .*'video'/);
    expect(lines[3]).toMatch(/^syntax\.yaml:\d+:\d+: invalid YAML: /);
    expect(lines).toHaveLength(4);
  });

  it('places Markdown front matter errors on the lines of the file', async () => {
    const { lines } = await load({
      'a.md': '---\nname: a\narguments:\n  - name: x\n    required: maybe\n---\nHi {{x}}\n',
      'b.md': '---\nname: b\n',
      'c.md': '---\nname: c\nmessages:\n  - role: user\n    content: Hi\n---\n\nand a body\n',
      'readme.md': '# Not a prompt\n',
    });
    expect(lines[0]).toMatch(/^a\.md:5:5: \/arguments\/0\/required: .*boolean/);
    expect(lines.slice(1)).toEqual([
      "b.md:1:1: front matter is not closed: add a line '---' after it",
      "c.md:8:1: the front matter gives 'messages' and the file has a body: keep one (the body is one user message)",
      'readme.md: warning: no YAML front matter (--- at the first line): not a prompt file, skipped',
    ]);
  });

  it('refuses YAML alias bombs instead of expanding them', async () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (const l of 'bcdefghij')
      bomb.push(
        `${l}: &${l} [${Array(10)
          .fill(`*${String.fromCharCode(l.charCodeAt(0) - 1)}`)
          .join(',')}]`,
      );
    const { lines, names } = await load({
      'bomb.yaml': `${bomb.join('\n')}\nname: x\nmessages: [{role: user, content: hi}]\n`,
    });
    expect(names).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      'bomb.yaml:4:29: invalid YAML: aliases that expand to more than 10000 YAML nodes (keys, values and entries)',
    );
  });

  it('reads front matter as data only: no script engines, no custom YAML tags', async () => {
    const { lines, names } = await load({
      'engine.md': '---js\n({ name: "x", messages: [] })\n---\nHi\n',
      'tag.yaml': 'name: tagged\nmessages: [{role: user, content: !!js/function "function () { return 1 }"}]\n',
      'custom.md': '---\nname: !include other.yaml\n---\nHi\n',
    });
    expect(names).toEqual([]);
    expect(lines).toEqual([
      'custom.md:2:7: invalid YAML: Unresolved tag: !include',
      'engine.md: warning: no YAML front matter (--- at the first line): not a prompt file, skipped',
      'tag.yaml:2:34: invalid YAML: Unresolved tag: tag:yaml.org,2002:js/function',
    ]);
  });

  it('reports a name defined twice, naming both files; the first file in sort order wins', async () => {
    const { definitions, lines } = await load({
      'b/greet.yaml': 'name: greet\nmessages: [{role: user, content: second}]\n',
      'a.json': JSON.stringify({ name: 'greet', messages: [{ role: 'user', content: 'first' }] }),
    });
    expect(definitions.map((d) => d.messages?.[0]?.content)).toEqual([{ type: 'text', text: 'first' }]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^b\/greet\.yaml:1:1: \/name: duplicate prompt name 'greet': already defined in .*\/a\.json \(that one is used\)$/,
    );
  });
});

describe('formatDiagnostic', () => {
  it('writes control characters of file names and messages as visible escapes, on one line', async () => {
    const { lines } = await load({ 'a\u001b[1Ab.json': '{"name": "x\u001b",', 'ok.json': '{}' });
    expect(lines[0]).toBe(
      'a\\x1b[1Ab.json:1:12: invalid JSON: unescaped control character in a string (write \\n, \\t, ...)',
    );
    expect(
      formatDiagnostic({
        file: 'dir/\u009bx\u2066.md',
        line: 1,
        column: 1,
        message: 'bad\nline\twith\rbreaks \u2028 \u007f',
        severity: 'error',
      }),
    ).toBe('dir/\\x9bx\\u2066.md:1:1: bad\\nline\\twith\\rbreaks \\u2028 \\x7f');
  });
});

describe('loadPromptDirectory: limits', () => {
  it('refuses a limit that is not a non-negative integer, naming the function, the limit and the value', async () => {
    const dir = await tempDir();
    const cases = [
      [{ maxFiles: Number.NaN }, 'limits.maxFiles', 'NaN'],
      [{ maxFileBytes: -1 }, 'limits.maxFileBytes', '-1'],
      [{ maxYamlNodes: 1.5 }, 'limits.maxYamlNodes', '1.5'],
      [{ maxTemplateBytes: '1000' }, 'limits.maxTemplateBytes', '"1000"'],
      [{ maxResourceDirectives: Number.POSITIVE_INFINITY }, 'limits.maxResourceDirectives', 'Infinity'],
    ] as const;
    for (const [limits, name, shown] of cases) {
      await expect(loadPromptDirectory(dir, { limits: limits as object })).rejects.toThrow(
        new RangeError(`loadPromptDirectory: ${name} must be a non-negative integer, got ${shown}`),
      );
    }
  });

  it('takes the default for a limit given as undefined', async () => {
    const { names } = await load(
      { 'a.json': JSON.stringify({ name: 'a', messages: [{ role: 'user', content: 'hi' }] }) },
      { limits: { maxFiles: undefined } },
    );
    expect(names).toEqual(['a']);
  });

  it('loads the first maxFiles files in sort order and reports that the rest were skipped', async () => {
    const prompt = (name: string) => JSON.stringify({ name, messages: [{ role: 'user', content: name }] });
    const { dir, names, diagnostics } = await load(
      { 'a.json': prompt('a'), 'b.json': prompt('b'), 'c.json': prompt('c') },
      { limits: { maxFiles: 2 } },
    );
    expect(names).toEqual(['a', 'b']);
    expect(diagnostics).toEqual([
      {
        file: dir,
        message:
          'more than 2 prompt files (or directories nested deeper than 16 levels, or more than 100000 entries to walk): the rest were skipped',
        severity: 'error',
      },
    ]);
  });

  it('reports deeply nested files instead of crashing', async () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const { lines, names } = await load({
      'a.json': `{"name": "a", "messages": [{"role": "user", "content": "x"}], "_meta": {"x": ${deep(100_000)}}}`,
      'b.yaml': `name: b\nmessages: [{role: user, content: x}]\n_meta: {x: ${deep(20_000)}}\n`,
      'ok.json': JSON.stringify({ name: 'ok', messages: [{ role: 'user', content: 'fine' }] }),
    });
    expect(names).toEqual(['ok']);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^a\.json:1:\d+: \/_meta\/x(\/0)+…?: nests deeper than 256 levels$/);
    expect(lines[1]).toMatch(/^b\.yaml:3:\d+: invalid YAML: /);
  });

  it('defaults to the limits of a prompt file: 1 MiB per file and template, 50 resource directives', async () => {
    expect(DEFAULT_PROMPT_FILE_LIMITS).toMatchObject({
      maxFileBytes: 1_048_576,
      maxTemplateBytes: 1_048_576,
      maxResourceDirectives: 50,
    });
    const directives = (n: number) => Array.from({ length: n }, (_, i) => `{{resource:docs://${i}}}`).join(' ');
    const { lines, names } = await load({
      'fifty.yaml': `name: fifty\nmessages: [{role: user, content: "${directives(50)}"}]\n`,
      'fifty-one.yaml': `name: fifty-one\nmessages: [{role: user, content: "${directives(51)}"}]\n`,
      'huge.json': JSON.stringify({ name: 'huge', messages: [{ role: 'user', content: 'x'.repeat(1_048_577) }] }),
    });
    expect(names).toEqual(['fifty']);
    expect(lines).toEqual([
      'fifty-one.yaml:2:1: /messages: prompt has 51 resource directives, over the limit of 50',
      expect.stringMatching(/^huge\.json: file is \d+ bytes, over the 1048576-byte limit for a prompt file$/),
    ]);
  });

  it('skips a file over the size limit with a diagnostic', async () => {
    const big = JSON.stringify({ name: 'big', messages: [{ role: 'user', content: 'x'.repeat(2_000) }] });
    const { lines, names } = await load({ 'big.json': big }, { limits: { maxFileBytes: 1_000 } });
    expect(names).toEqual([]);
    expect(lines).toEqual([`big.json: file is ${big.length} bytes, over the 1000-byte limit for a prompt file`]);
  });

  it('reports a template over the rendered-size limit and too many resource directives', async () => {
    const directives = Array.from({ length: 4 }, (_, i) => `{{resource:docs://${i}}}`).join('\n');
    const { lines, names } = await load(
      {
        'long.yaml': `name: long\nmessages:\n  - role: user\n    content: "${'y'.repeat(600)}"\n`,
        'many.yaml': `name: many\nmessages:\n  - role: user\n    content: "${directives.replace(/\n/g, '\\n')}"\n`,
      },
      { limits: { maxTemplateBytes: 500, maxResourceDirectives: 3 } },
    );
    expect(names).toEqual([]);
    expect(lines).toEqual([
      'long.yaml:4:5: /messages/0/content/text: template is 600 bytes, over the 500-byte rendered-size limit',
      'many.yaml:2:1: /messages: prompt has 4 resource directives, over the limit of 3',
    ]);
  });
});

describe('loadPromptDirectory: image and audio paths', () => {
  it('refuses an asset size limit that is not a non-negative integer', () => {
    expect(() => createFileAssetLoader('.', { maxBytes: Number.NaN })).toThrow(
      new RangeError('createFileAssetLoader: maxBytes must be a non-negative integer, got NaN'),
    );
  });

  it('reads image paths relative to their file, served through the file asset loader', async () => {
    const { dir, definitions, diagnostics } = await load({
      'icons/logo.png': PNG,
      'sub/show.yaml':
        'name: show\nmessages:\n  - role: user\n    content: {type: image, path: ../icons/logo.png, mimeType: image/png}\n',
    });
    expect(diagnostics).toEqual([]);
    expect(definitions[0]?.messages?.[0]?.content).toMatchObject({ type: 'image', path: 'icons/logo.png' });
    const registry = new PromptRegistry({ assets: createFileAssetLoader(dir) });
    registry.add(definitions);
    const result = await registry.getPrompt('show');
    expect(result.messages[0]?.content).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: Buffer.from(PNG).toString('base64'),
    });
  });

  it('refuses an image path whose symlink leads outside the directory', async () => {
    const outside = await tempDir();
    await writeFiles(outside, { 'secret.png': PNG });
    const dir = await tempDir();
    await writeFiles(dir, {
      'show.yaml':
        'name: show\nmessages:\n  - role: user\n    content: {type: image, path: logo.png, mimeType: image/png}\n',
    });
    await symlink(join(outside, 'secret.png'), join(dir, 'logo.png'));
    const { definitions, diagnostics } = await loadPromptDirectory(dir);
    expect(definitions).toEqual([]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      "image path 'logo.png' leads outside the prompt directory (it leads outside the root)",
    ]);
    // Registered by hand (past the loader), the asset loader still refuses it when the prompt is rendered.
    const registry = new PromptRegistry({ assets: createFileAssetLoader(dir) });
    registry.add({
      name: 'show',
      messages: [{ role: 'user', content: { type: 'image', path: 'logo.png', mimeType: 'image/png' } }],
    });
    await expect(registry.getPrompt('show')).rejects.toMatchObject({ code: 'RESOURCE_DENIED' });
  });

  it('reports a path leading outside the directory and a missing file', async () => {
    const { lines, names } = await load({
      'out.yaml':
        'name: out\nmessages:\n  - role: user\n    content: {type: image, path: ../../etc/passwd, mimeType: image/png}\n',
      'abs.yaml':
        'name: abs\nmessages:\n  - role: user\n    content: {type: audio, path: /etc/passwd, mimeType: audio/wav}\n',
      'missing.yaml':
        'name: missing\nmessages:\n  - role: user\n    content: {type: image, path: nope.png, mimeType: image/png}\n',
    });
    expect(names).toEqual([]);
    expect(lines).toEqual([
      "abs.yaml:4:28: /messages/0/content/path: audio path '/etc/passwd' leads outside the prompt directory",
      "missing.yaml:4:28: /messages/0/content/path: image file not found: 'nope.png' (relative to this file)",
      "out.yaml:4:28: /messages/0/content/path: image path '../../etc/passwd' leads outside the prompt directory",
    ]);
  });
});
