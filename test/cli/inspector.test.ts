/**
 * `mcp-prompt-kit serve` driven by the MCP inspector's CLI mode (@modelcontextprotocol/inspector-cli), as a user
 * trying a server from the command line would: the inspector starts the server as a child process over stdio.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI_COMMAND, ROOT } from './process.js';

const INSPECTOR = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'index.js');

/** Runs the inspector CLI against `serve examples/prompts`; it reads its own name from `../package.json` of its cwd. */
async function inspect(...method: string[]): Promise<unknown> {
  const server = [
    ...CLI_COMMAND.args,
    'serve',
    join(ROOT, 'examples/prompts'),
    `--docs=architecture=${join(ROOT, 'examples/docs')}`,
    `--docs=docs=${join(ROOT, 'examples/style')}`,
  ];
  const { stdout } = await promisify(execFile)(process.execPath, [INSPECTOR, CLI_COMMAND.command, ...server, ...method], {
    cwd: join(ROOT, 'test'),
    timeout: 60_000,
  });
  return JSON.parse(stdout);
}

describe('mcp-prompt-kit serve with the MCP inspector CLI', () => {
  it('lists the prompts and gets one with arguments, embedded documents included', async () => {
    // Two independent inspector runs (each starts its own server): side by side.
    const [listed, got] = (await Promise.all([
      inspect('--method', 'prompts/list'),
      inspect('--method', 'prompts/get', '--prompt-name', 'create-adr', '--prompt-args', 'title=Adopt JSON'),
    ])) as [{ prompts: { name: string }[] }, { messages: { role: string; content: { type: string; text: string } }[] }];
    expect(listed.prompts.map((p) => p.name)).toContain('review-code-against-patterns');
    expect(got.messages[0]?.role).toBe('user');
    expect(got.messages[0]?.content.text).toContain('Draft an architecture decision record titled "Adopt JSON".');
    expect(got.messages[0]?.content.text).toContain('# ADR 001: Use PostgreSQL for transactional data');
  }, 120_000);
});
