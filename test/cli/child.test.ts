/**
 * `mcp-prompt-kit` as a real child process, where the process boundary is the point: its exit code and which stream
 * gets what. Parsing and output are tested in-process (commands.test.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../fs/temp.js';
import { ROOT, runCli } from './process.js';

const EXAMPLES = join(ROOT, 'examples/prompts');

async function brokenDir(): Promise<string> {
  const dir = await tempDir();
  await writeFiles(dir, {
    'good.yaml':
      'name: good\narguments: [{name: who, required: true}]\nmessages: [{role: user, content: "Hello {{who}}"}]\n',
    'bad.json': '{\n  "name": "bad",\n  "messages": [\n    { "role": "system", "content": "x" }\n  ]\n}\n',
  });
  return dir;
}

describe('mcp-prompt-kit as a process', () => {
  it('sets its exit code and writes the report, diagnostics and summary, to stdout', async () => {
    const dir = await brokenDir();
    const result = await runCli(['check', dir]);
    expect(result.code, result.stderr).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`${join(dir, 'bad.json')}:4:7: /messages/0/role: `);
    expect(lines[1]).toBe('2 file(s), 1 prompt(s): 1 error(s), 0 warning(s)');
    expect(result.stderr).toBe('');
  });

  it('exits 0 with the version, and 2 with one line on stderr for a usage mistake', async () => {
    const [version, mistake] = await Promise.all([runCli(['--version']), runCli(['list', EXAMPLES, '--bogus'])]);
    expect(version, version.stderr).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
    expect(mistake).toEqual({ code: 2, stdout: '', stderr: 'mcp-prompt-kit list: unknown option --bogus\n' });
  });

  it('loads only what the command it runs needs: no package for --version, neither the SDK nor pg for check', async () => {
    const dir = await tempDir();
    const loads = async (args: string[]): Promise<string[]> => {
      const file = join(dir, `${args[0]}.txt`);
      const recorder = join(ROOT, 'test/cli/fixtures/record-loads.mjs');
      const env = {
        ...process.env,
        LOADS_FILE: file,
        NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import=${recorder}`,
      };
      const result = await runCli(args, { env });
      expect(result.code, result.stderr).toBe(0);
      return (await readFile(file, 'utf8')).trimEnd().split('\n');
    };
    const [version, check] = await Promise.all([
      loads(['--version']),
      loads([
        'check',
        EXAMPLES,
        '--docs',
        `architecture=${join(ROOT, 'examples/docs')}`,
        '--docs',
        `docs=${join(ROOT, 'examples/style')}`,
      ]),
    ]);
    expect(version.some((url) => url.endsWith('/src/cli/version.js'))).toBe(true);
    expect(version.filter((url) => url.includes('/node_modules/'))).toEqual([]);
    expect(check.some((url) => url.includes('/node_modules/ajv/'))).toBe(true);
    expect(check.filter((url) => /\/node_modules\/(@modelcontextprotocol|pg)\//.test(url))).toEqual([]);
  });
});
