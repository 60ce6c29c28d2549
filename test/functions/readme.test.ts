/**
 * docs/functions.md's "Functions as tools" and "Response helpers" snippets ARE examples/functions/calculator.ts and
 * response-helpers.ts: shown verbatim, type-checked with the examples, and run here as child processes.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { blocksIn } from '../readme-blocks.js';
import { childCoverageEnv, tsNodeArgs } from '../support/processes.js';

const root = new URL('../../', import.meta.url);
const run = promisify(execFile);

function source(file: string): string {
  return readFileSync(new URL(file, root), 'utf8');
}

describe('docs/functions.md: functions as tools', () => {
  const file = 'examples/functions/calculator.ts';

  it('shows examples/functions/calculator.ts verbatim', () => {
    expect(blocksIn('docs/functions.md', 'Functions as tools', 'ts').map((b) => b.code)).toContain(source(file));
  });

  it('serves Add over stdio as the page says', async () => {
    const client = new Client({ name: 'readme-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: tsNodeArgs(fileURLToPath(new URL(file, root))),
        cwd: fileURLToPath(root),
        env: childCoverageEnv(),
        stderr: 'ignore',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toStrictEqual(['Add']);
      expect((await client.callTool({ name: 'Add', arguments: { x: 7, y: 3 } })).content).toStrictEqual([
        { type: 'text', text: '{"result":10}' },
      ]);
      const invalid = await client.callTool({ name: 'Add', arguments: { x: 'seven', y: 3 } });
      expect(invalid.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('docs/functions.md: response helpers', () => {
  const file = 'examples/functions/response-helpers.ts';

  it('shows examples/functions/response-helpers.ts verbatim', () => {
    expect(blocksIn('docs/functions.md', 'Response helpers', 'ts').map((b) => b.code)).toEqual([source(file)]);
  });

  it('prints exactly what each line’s comment says', async () => {
    const expected = source(file)
      .split('\n')
      .filter((line) => line.startsWith('show('))
      .map((line) => line.slice(line.lastIndexOf(' // ') + 4));
    const { stdout } = await run(process.execPath, tsNodeArgs(fileURLToPath(new URL(file, root))), {
      cwd: fileURLToPath(root),
    });
    expect(stdout.trimEnd().split('\n')).toStrictEqual(expected);
    expect(expected.length).toBeGreaterThan(5);
  });
});
