import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../fs/temp.js';
import { STARTS_CHILD_PROCESSES } from '../support/processes.js';
import { ROOT, runCli, runCliInProcess } from './process.js';

const EXAMPLES = join(ROOT, 'examples/prompts');
const DOCS = [
  '--docs',
  `architecture=${join(ROOT, 'examples/docs')}`,
  '--docs',
  `docs=${join(ROOT, 'examples/style')}`,
];

const GREET = `# the greeting prompt
name: greet
arguments:
  - name: who
    required: true
messages:
  - role: user
    content: |
      Hello {{who}}
      Be nice.
cases:
  - name: greets Ada   # a comment that stays
    arguments: { who: Ada }
    messages:
      - role: user
        content: Hello Bob
  - name: new case
    arguments:
      who: Grace
  - { name: flow case, arguments: { who: Flo } }
  - name: needs who
    error: { code: -32602, missing_arguments: [who] }
`;

async function greetDir(extra: Record<string, string> = {}): Promise<string> {
  const dir = await tempDir();
  await writeFiles(dir, { 'greet.yaml': GREET, ...extra });
  return dir;
}

/** The command runs in this process; as a child where the process is the point: its exit code and its own output. */
describe('mcp-prompt-kit test', () => {
  it.runIf(STARTS_CHILD_PROCESSES)("runs the examples' cases and they all pass", async () => {
    const result = await runCli(['test', EXAMPLES, ...DOCS]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^\d+ case\(s\): (\d+) passed, 0 failed\n$/);
    expect(result.code).toBe(0);
  });

  it.runIf(STARTS_CHILD_PROCESSES)(
    'prints a failed snapshot with its file:line:col and a unified diff, and exits 1',
    async () => {
      const dir = await greetDir();
      const result = await runCli(['test', dir]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe(
        [
          `FAIL greet › greets Ada (${join(dir, 'greet.yaml')}:12:5)`,
          '  the rendered messages differ from the snapshot',
          '    --- expected',
          '    +++ actual',
          '    @@ -1,3 +1,6 @@',
          '     messages[0].role: "user"',
          '     messages[0].content.type: "text"',
          '    -messages[0].content.text: "Hello Bob"',
          '    +messages[0].content.text: |',
          '    +  Hello Ada',
          '    +  Be nice.',
          '    +  ',
          '4 case(s): 3 passed, 1 failed',
          '',
        ].join('\n'),
      );
    },
  );

  it('gives the same output over repeated runs', async () => {
    const dir = await greetDir({
      'b.cases.json': '[]',
      'b.json': '{"name":"b","messages":[{"role":"user","content":"x"}]}',
    });
    const runs = await Promise.all([1, 2, 3].map(() => runCliInProcess(['test', dir, '--reporter', 'junit'])));
    expect(new Set(runs.map((r) => r.stdout)).size).toBe(1);
  });

  it('rewrites only the messages of each case with --update, keeping everything else byte for byte', async () => {
    const dir = await greetDir({
      'note.md': '---\nname: note\ncases:\n  - name: plain   # kept\n---\nRemember <this>.\n',
      'j.json':
        '{ "name": "j", "messages": [{ "role": "user", "content": "Hi" }],\n  "cases": [{ "name": "c", "messages": [] }] }\n',
    });
    const result = await runCliInProcess(['test', dir, '--update']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('updated 5 snapshot(s)\n6 case(s): 6 passed, 0 failed\n');
    expect(result.code).toBe(0);
    expect(await readFile(join(dir, 'greet.yaml'), 'utf8')).toBe(
      GREET.replace('        content: Hello Bob\n', '        content: |\n          Hello Ada\n          Be nice.\n')
        .replace(
          '      who: Grace\n',
          '      who: Grace\n    messages:\n      - role: user\n        content: |\n          Hello Grace\n          Be nice.\n',
        )
        .replace('{ who: Flo } }', '{ who: Flo }, messages: [{"role":"user","content":"Hello Flo\\nBe nice.\\n"}] }'),
    );
    expect(await readFile(join(dir, 'note.md'), 'utf8')).toBe(
      '---\nname: note\ncases:\n  - name: plain   # kept\n    messages:\n      - role: user\n        content: Remember <this>.\n---\nRemember <this>.\n',
    );
    expect(await readFile(join(dir, 'j.json'), 'utf8')).toBe(
      '{ "name": "j", "messages": [{ "role": "user", "content": "Hi" }],\n  "cases": [{ "name": "c", "messages": [{"role":"user","content":"Hi"}] }] }\n',
    );
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const again = await runCliInProcess(['test', dir]);
    expect(again.stdout).toBe('6 case(s): 6 passed, 0 failed\n');
  });

  it('leaves cases with failing contains or error expectations alone on --update', async () => {
    const dir = await tempDir();
    const text = 'name: p\nmessages: [{ role: user, content: hi }]\ncases:\n  - name: c\n    contains: bye\n';
    await writeFiles(dir, { 'p.yaml': text });
    const result = await runCliInProcess(['test', dir, '--update']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FAIL p › c');
    expect(await readFile(join(dir, 'p.yaml'), 'utf8')).toBe(text);
  });

  it('writes JUnit XML with every name and message escaped, to stdout or atomically to --output', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'p.yaml':
        'name: p\nmessages: [{ role: user, content: "a <b> & \\"c\\" \\u0001" }]\ncases:\n  - name: "x<&\\"\'>"\n    notContains: "<b>"\n  - name: ok\n',
    });
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="mcp-prompt-kit test" tests="2" failures="1" errors="0">',
      '  <testsuite name="p" tests="2" failures="1" errors="0">',
      `    <testcase classname="p" name="x&lt;&amp;&quot;&apos;&gt;" file="${join(dir, 'p.yaml')}" line="4">`,
      '      <failure message="the text blocks contain &quot;&lt;b&gt;&quot;, which must not appear" type="notContains">the text blocks contain "&lt;b&gt;", which must not appear',
      'actual:',
      'a &lt;b&gt; &amp; "c" \\u0001</failure>',
      '    </testcase>',
      `    <testcase classname="p" name="ok" file="${join(dir, 'p.yaml')}" line="6"/>`,
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n');
    const stdout = await runCliInProcess(['test', dir, '--reporter', 'junit']);
    expect(stdout.code).toBe(1);
    expect(stdout.stdout).toBe(xml);
    const file = join(dir, 'out', 'junit.xml');
    await writeFiles(dir, { 'out/old': '' });
    const written = await runCliInProcess(['test', dir, '--reporter', 'junit', '--output', file]);
    expect(written.code).toBe(1);
    expect(await readFile(file, 'utf8')).toBe(xml);
    expect(written.stdout).toMatch(/^FAIL p › x<&"'>/);
    expect(await readdir(join(dir, 'out'))).toEqual(['junit.xml', 'old']);
  });

  it('runs only the cases --filter names', async () => {
    const dir = await greetDir();
    const result = await runCliInProcess(['test', dir, '--filter', 'greet/needs']);
    expect(result).toMatchObject({ code: 0, stdout: '1 case(s): 1 passed, 0 failed\n' });
    const none = await runCliInProcess(['test', dir, '--filter', 'nothing']);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe("mcp-prompt-kit test: no case matches --filter 'nothing'\n");
  });

  it('exits 2 with the diagnostics when a case or a prompt file has an error', async () => {
    const dir = await greetDir({ 'greet.cases.yaml': '- name: x\n  arguments: { whom: 1 }\n' });
    const result = await runCliInProcess(['test', dir]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `${join(dir, 'greet.cases.yaml')}:2:16: /0/arguments/whom: argument 'whom' is not declared by the prompt (did you mean 'who'?)\n` +
        `mcp-prompt-kit test: 1 error(s) in ${dir}: fix them (see 'check') before running cases\n`,
    );
  });

  it('exits 2 on usage mistakes', async () => {
    const dir = await greetDir();
    for (const [args, message] of [
      [['test'], 'mcp-prompt-kit test: missing <dir>'],
      [['test', dir, '--reporter', 'tap'], "mcp-prompt-kit test: --reporter must be one of default, junit, got 'tap'"],
      [['test', dir, '--output', 'x.xml'], 'mcp-prompt-kit test: --output needs --reporter junit'],
      [['test', join(dir, 'nope')], `mcp-prompt-kit test: prompt directory ${join(dir, 'nope')} does not exist`],
    ] as const) {
      const result = await runCliInProcess(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toBe(`${message}\n`);
    }
  });

  it('check reports case problems like the rest of the file', async () => {
    const dir = await greetDir();
    await writeFile(join(dir, 'greet.cases.json'), '[{ "name": "greets Ada" }]');
    const result = await runCliInProcess(['check', dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `${join(dir, 'greet.cases.json')}:1:4: /0/name: duplicate case name 'greets Ada' (first at ${join(dir, 'greet.yaml')}:12:5)`,
    );
  });
});
