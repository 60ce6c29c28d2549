import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../fs/temp.js';
import { ROOT, runCliInProcess } from './process.js';

const EXAMPLES = join(ROOT, 'examples/prompts');
const DOCS = `architecture=${join(ROOT, 'examples/docs')}`;
const STYLE = `docs=${join(ROOT, 'examples/style')}`;

async function brokenDir(): Promise<string> {
  const dir = await tempDir();
  await writeFiles(dir, {
    'good.yaml':
      'name: good\narguments: [{name: who, required: true}]\nmessages: [{role: user, content: "Hello {{who}}"}]\n',
    'bad.json': '{\n  "name": "bad",\n  "messages": [\n    { "role": "system", "content": "x" }\n  ]\n}\n',
    'broken.yaml': 'name: broken\nmessages: [\n',
  });
  return dir;
}

describe('mcp-prompt-kit check', () => {
  it('passes the examples (exit 0) and says what it checked', async () => {
    const result = await runCliInProcess(['check', EXAMPLES, '--docs', DOCS, '--docs', STYLE]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+ file\(s\), 6 prompt\(s\): 0 error\(s\), 0 warning\(s\)\n$/);
    expect(result.stderr).toBe('');
  });

  it('prints file:line:col: message per problem and exits 1', async () => {
    const dir = await brokenDir();
    const result = await runCliInProcess(['check', dir]);
    expect(result.code).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^${join(dir, 'bad.json')}:4:7: /messages/0/role: .*'system'`));
    expect(lines[1]).toMatch(new RegExp(`^${join(dir, 'broken.yaml')}:\\d+:\\d+: invalid YAML: `));
    expect(lines[2]).toBe('3 file(s), 1 prompt(s): 2 error(s), 0 warning(s)');
    expect(result.stderr).toBe('');
  });

  it('prints control characters of file names and contents as escapes, never raw', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'evil\u001b[2J\u001b]0;owned\u0007\u202e.json': '{"name": "evil", "messages": [',
      'dup\r\n.yaml': 'name: p\nmessages: [{role: user, content: hi}]\n"\u001b[31m": 1\n"\u001b[31m": 2\n',
    });
    const result = await runCliInProcess(['check', dir]);
    expect(result.code).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain("dup\\r\\n.yaml:4:1: invalid YAML: duplicate key '\\x1b[31m' (first at line 3)");
    expect(lines[1]).toContain('evil\\x1b[2J\\x1b]0;owned\\x07\\u202e.json:1:');
    // eslint-disable-next-line no-control-regex
    expect(result.stdout + result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202e]/);
  });

  it('prints JSON for machines with --json', async () => {
    const dir = await brokenDir();
    const result = await runCliInProcess(['check', dir, '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      files: number;
      prompts: number;
      errors: number;
      diagnostics: { file: string; line: number; pointer?: string }[];
    };
    expect(report).toMatchObject({ files: 3, prompts: 1, errors: 2, warnings: 0 });
    expect(report.diagnostics[0]).toMatchObject({
      file: join(dir, 'bad.json'),
      line: 4,
      column: 7,
      pointer: '/messages/0/role',
      severity: 'error',
    });
    expect(result.stderr).toBe('');
  });
});

describe('mcp-prompt-kit list and render', () => {
  it('lists names, arguments (* = required) and descriptions', async () => {
    const result = await runCliInProcess(['list', EXAMPLES]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split(/\s+/, 1)[0])).toEqual([
      'create-adr',
      'explain_error',
      'review-code-against-patterns',
      'review_code',
      'suggest-patterns',
      'write_commit_message',
    ]);
    expect(lines[2]).toMatch(/^review-code-against-patterns {2}code\*, language +Review a code snippet against/);
  });

  it('lists the prompts/list result with --json', async () => {
    const result = await runCliInProcess(['list', EXAMPLES, '--json']);
    const listing = JSON.parse(result.stdout) as { prompts: { name: string; arguments?: unknown[] }[] };
    expect(listing.prompts.find((p) => p.name === 'create-adr')?.arguments).toEqual([
      { name: 'title', description: 'What is being decided', required: true },
      expect.objectContaining({ name: 'context', description: 'Background, forces and options considered (optional)' }),
    ]);
  });

  it('renders a prompt with --arg values and embedded documents, without HTML escaping', async () => {
    const result = await runCliInProcess([
      'render',
      EXAMPLES,
      'review-code-against-patterns',
      '--arg',
      'code=if (a < b && c) {}',
      '--arg',
      'language=ts',
      '--docs',
      DOCS,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '1. User: Review the following ts code against our architectural patterns:\n\n```ts\nif (a < b && c) {}\n```',
    );
    expect(result.stdout).toContain(
      '--- architecture://patterns/cqrs.md ---\n# CQRS (Command Query Responsibility Segregation)',
    );
    expect(result.stdout).toContain('# Code review guidelines');
  });

  it('renders GetPromptResult JSON with --json and --args-json', async () => {
    const result = await runCliInProcess([
      'render',
      EXAMPLES,
      'create-adr',
      '--args-json',
      '{"title":"Adopt CQRS","context":"Reads dominate."}',
      '--json',
      '--docs',
      DOCS,
    ]);
    expect(result.code).toBe(0);
    const prompt = JSON.parse(result.stdout) as {
      messages: { role: string; content: { type: string; text: string } }[];
    };
    expect(prompt.messages).toHaveLength(1);
    expect(prompt.messages[0]?.content.text).toMatch(
      /^Draft an architecture decision record titled "Adopt CQRS"\.\n\nContext and options considered:\n\nReads dominate\.\n/,
    );
    expect(prompt.messages[0]?.content.text).toContain('# ADR NNN: <short title of the decision>');
  });

  it('refuses code over 10,000 characters for review-code-against-patterns, and renders without the optional language', async () => {
    const long = await runCliInProcess([
      'render',
      EXAMPLES,
      'review-code-against-patterns',
      '--arg',
      `code=${'x'.repeat(10_001)}`,
      '--docs',
      DOCS,
    ]);
    expect(long).toMatchObject({
      code: 1,
      stdout: '',
      stderr: "mcp-prompt-kit render: Argument 'code' exceeds 10000 characters\n",
    });
    const plain = await runCliInProcess([
      'render',
      EXAMPLES,
      'review-code-against-patterns',
      '--arg',
      `code=${'x'.repeat(10_000)}`,
      '--docs',
      DOCS,
    ]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('Review the following code against our architectural patterns:');
  });

  it('fails with one line and exit 1 when the prompt refuses the arguments', async () => {
    const missing = await runCliInProcess(['render', EXAMPLES, 'create-adr', '--docs', DOCS]);
    expect(missing).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'mcp-prompt-kit render: Missing required prompt arguments: title\n',
    });
    const unknown = await runCliInProcess(['render', EXAMPLES, 'nope']);
    expect(unknown).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^mcp-prompt-kit render: Unknown prompt: nope\n$/),
    });
  });

  it('refuses an --args-json number JSON.parse would change instead of rendering the changed one', async () => {
    const result = await runCliInProcess([
      'render',
      EXAMPLES,
      'create-adr',
      '--args-json',
      '{"title":9007199254740993}',
      '--docs',
      DOCS,
    ]);
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'mcp-prompt-kit render: Prompt arguments do not conform to schema: title would become a different ' +
        'integer (a double holds whole numbers exactly only up to ±9007199254740991)\n',
    });
  });
});

describe('mcp-prompt-kit openapi', () => {
  it("prints a valid OpenAPI 3.1 document of the directory's prompts as the HTTP handlers serve them", async () => {
    const result = await runCliInProcess([
      'openapi',
      EXAMPLES,
      '--docs',
      DOCS,
      '--title',
      'Architecture prompts',
      '--base-path',
      '/api',
    ]);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout) as {
      openapi: string;
      info: { title: string };
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Architecture prompts');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/prompts', '/api/prompts/review-code-against-patterns']),
    );
    const { validate } = await import('@readme/openapi-parser');
    expect((await validate(doc as never)).valid).toBe(true);
  });

  it('exits 1 and names the file when a prompt file has an error', async () => {
    const dir = await brokenDir();
    const result = await runCliInProcess(['openapi', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(join(dir, 'bad.json'));
    expect(Object.keys((JSON.parse(result.stdout) as { paths: object }).paths)).toContain('/prompts/good');
  });
});

describe('mcp-prompt-kit usage', () => {
  it('prints --help and --version', async () => {
    const help = await runCliInProcess(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: mcp-prompt-kit <command> \[options\]/);
    for (const command of ['check', 'list', 'openapi', 'pull', 'push', 'render', 'serve']) {
      const commandHelp = await runCliInProcess([command, '--help']);
      expect(commandHelp.code).toBe(0);
      expect(commandHelp.stdout).toMatch(new RegExp(`^Usage: mcp-prompt-kit ${command} <dir>`));
    }
    const version = await runCliInProcess(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  }, 120_000); // seven child processes, one after another

  const mistakes: [string[], string][] = [
    [
      ['frobnicate'],
      "mcp-prompt-kit: unknown command 'frobnicate' (commands: check, list, openapi, preview, pull, push, render, serve, test; see --help)",
    ],
    [['check'], 'mcp-prompt-kit check: missing <dir>'],
    [['check', 'a', 'b'], "mcp-prompt-kit check: unexpected argument 'b'"],
    [['list', EXAMPLES, '--bogus'], 'mcp-prompt-kit list: unknown option --bogus'],
    [['render', EXAMPLES, 'x', '--arg'], 'mcp-prompt-kit render: option --arg needs a value'],
    [['render', EXAMPLES, 'x', '--arg', 'novalue'], "mcp-prompt-kit render: --arg expects key=value, got 'novalue'"],
    [
      ['render', EXAMPLES, 'x', '--args-json', '{nope'],
      "mcp-prompt-kit render: --args-json is not valid JSON: line 1, column 2: expected a property name in double quotes, got 'n'",
    ],
    [
      ['check', EXAMPLES, '--docs', 'nodir'],
      "mcp-prompt-kit check: --docs expects scheme=directory (for example architecture=./docs), got 'nodir'",
    ],
    [
      ['render', EXAMPLES, 'create-adr', '--docs', 'architecture=/nonexistent/docs'],
      'mcp-prompt-kit render: --docs architecture=/nonexistent/docs: not a directory',
    ],
    [
      ['serve', EXAMPLES, '--http', 'abc'],
      "mcp-prompt-kit serve: --http must be an integer from 0 to 65535, got 'abc'",
    ],
    [['serve', EXAMPLES, '--host', '0.0.0.0'], 'mcp-prompt-kit serve: --host needs --http <port>'],
    [['check', '/nonexistent/prompts'], 'mcp-prompt-kit check: prompt directory /nonexistent/prompts does not exist'],
  ];
  for (const [args, message] of mistakes) {
    it(`exits 2 with one line for: ${args.map((a) => a.replace(ROOT, '')).join(' ')}`, async () => {
      const result = await runCliInProcess(args);
      expect(result).toEqual({ code: 2, stdout: '', stderr: `${message}\n` });
    });
  }
});

describe('mcp-prompt-kit check: the documents prompts embed', () => {
  it('reports a directive nothing under --docs serves at its file:line:col, as an error', async () => {
    const result = await runCliInProcess(['check', EXAMPLES, '--docs', DOCS]);
    expect(result.code).toBe(1);
    const file = join(EXAMPLES, 'review_code.json');
    expect(result.stdout).toBe(
      `${file}:14:144: {{resource:docs://style-guide}}: nothing serves the scheme 'docs' (--docs gives architecture=): pass --docs docs=<dir>\n` +
        '6 file(s), 6 prompt(s): 1 error(s), 0 warning(s)\n',
    );
  });

  it('reports unknown documents, unknown schemes (also of templated resource blocks) and globs matching nothing', async () => {
    const dir = await tempDir();
    const docs = await tempDir();
    await writeFiles(docs, { 'adr/001.md': '# ADR 1\n' });
    await writeFiles(dir, {
      'a.md':
        '---\nname: a\n---\nIntro\n\nSee {{resource:docs://adr/001}} and\n{{ resource:docs://adr/999.md }}\n{{resource:docs://none/*.md}}\n',
      'b.yaml':
        'name: b\narguments: [{name: id, required: true}]\nmessages:\n  - role: user\n    content: {type: resource, uri: "wiki://{{id}}"}\n  - role: user\n    content: {type: resource, uri: "docs://adr/{{id}}"}\n',
    });
    const result = await runCliInProcess(['check', dir, '--docs', `docs=${docs}`, '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { errors: number; warnings: number; diagnostics: unknown[] };
    expect(report).toMatchObject({ errors: 2, warnings: 1 });
    expect(report.diagnostics).toEqual([
      {
        file: join(dir, 'a.md'),
        line: 7,
        column: 1,
        severity: 'error',
        message: `{{resource:docs://adr/999.md}}: no such document under --docs docs=${docs}`,
      },
      {
        file: join(dir, 'a.md'),
        line: 8,
        column: 1,
        severity: 'warning',
        message: `{{resource:docs://none/*.md}} matches no document under --docs docs=${docs}`,
      },
      {
        file: join(dir, 'b.yaml'),
        line: 5,
        column: 37,
        severity: 'error',
        message:
          "resource block uri 'wiki://{{id}}': nothing serves the scheme 'wiki' (--docs gives docs=): pass --docs wiki=<dir>",
      },
    ]);
  });

  it('checks and renders the example review_code with the flags docs/cli.md shows', async () => {
    const check = await runCliInProcess(['check', EXAMPLES, '--docs', DOCS, '--docs', STYLE]);
    expect(check.code, check.stdout).toBe(0);
    const rendered = await runCliInProcess([
      'render',
      EXAMPLES,
      'review_code',
      '--arg',
      'code=if (a < b) {}',
      '--docs',
      STYLE,
    ]);
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(rendered.stdout).toContain('Our style guide:\n# Style guide\n\n- Prefer small, pure functions');
  }, 120_000);
});

describe('mcp-prompt-kit render: arguments', () => {
  it('applies --arg and --args-json in the order given, a later one overriding the keys it sets', async () => {
    const text = async (args: string[]) => {
      const result = await runCliInProcess(['render', EXAMPLES, 'create-adr', '--docs', DOCS, '--json', ...args]);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { messages: { content: { text: string } }[] }).messages[0]!.content.text;
    };
    expect(await text(['--args-json', '{"title":"From JSON","context":"C"}', '--arg', 'title=From arg'])).toMatch(
      /^Draft an architecture decision record titled "From arg"\.\n\nContext and options considered:\n\nC\n/,
    );
    expect(await text(['--arg', 'title=From arg', '--args-json', '{"title":"From JSON"}'])).toMatch(
      /^Draft an architecture decision record titled "From JSON"\./,
    );
  }, 120_000);

  it('names the line and column of an --args-json syntax error', async () => {
    const result = await runCliInProcess([
      'render',
      EXAMPLES,
      'create-adr',
      '--args-json',
      '{"title": "x",\n  "context": ,}',
    ]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^mcp-prompt-kit render: --args-json is not valid JSON: line 2, column 14: /),
    });
  });
});

describe('mcp-prompt-kit usage: negative numbers', () => {
  const cases: [string[], string][] = [
    [['serve', EXAMPLES, '--http', '-1'], "mcp-prompt-kit serve: --http must be an integer from 0 to 65535, got '-1'"],
    [
      ['serve', EXAMPLES, '--debounce', '-5'],
      "mcp-prompt-kit serve: --debounce must be an integer from 0 to 60000, got '-5'",
    ],
    [
      ['serve', EXAMPLES, '--http', '0', '--max-sessions', '-2'],
      "mcp-prompt-kit serve: --max-sessions must be an integer from 1 to 100000, got '-2'",
    ],
    [['serve', EXAMPLES, '--max-sessions', '5'], 'mcp-prompt-kit serve: --max-sessions needs --http <port>'],
    [
      ['render', EXAMPLES, 'x', '--arg', '-x'],
      "mcp-prompt-kit render: option --arg needs a value (to give one that starts with '-', write --arg=-...)",
    ],
  ];
  for (const [args, message] of cases) {
    it(`reads a negative number as the option's value and refuses it by range: ${args.slice(2).join(' ')}`, async () => {
      expect(await runCliInProcess(args)).toEqual({ code: 2, stdout: '', stderr: `${message}\n` });
    });
  }
});
