/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned like scripts/conformance.mjs) against
 * `mcp-prompt-kit serve --http` serving the suite's fixtures as prompt FILES (Markdown, YAML, JSON, an image read
 * from a path) and the embedded resource from a --docs directory.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_COMMAND, ROOT } from './process.js';

const FIXTURES = join(ROOT, 'test/cli/fixtures/conformance');
const SCENARIOS = [
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'completion-complete',
];

const require = createRequire(import.meta.url);
const suitePackage = require.resolve('@modelcontextprotocol/conformance/package.json');
const suiteBin = join(dirname(suitePackage), (require(suitePackage) as { bin: { conformance: string } }).bin.conformance);

function runScenario(url: string, scenario: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [suiteBin, 'server', '--url', url, '--scenario', scenario], { cwd: ROOT });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('mcp-prompt-kit serve --http passes the official conformance prompt scenarios', () => {
  let server: ChildProcessWithoutNullStreams | undefined;
  let url = '';
  beforeAll(async () => {
    const child = spawn(
      CLI_COMMAND.command,
      [...CLI_COMMAND.args, 'serve', join(FIXTURES, 'prompts'), '--http', '0', '--docs', `test=${join(FIXTURES, 'docs')}`],
      { cwd: ROOT },
    );
    server = child;
    url = await new Promise<string>((resolve, reject) => {
      child.once('close', (code) => reject(new Error(`serve exited early (code ${code})`)));
      createInterface({ input: child.stdout }).once('line', resolve);
    });
  }, 30_000);
  afterAll(async () => {
    const child = server;
    if (child === undefined || child.exitCode !== null) return;
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    await closed;
  });

  for (const scenario of SCENARIOS) {
    it(scenario, { timeout: 90_000 }, async () => {
      const { code, output } = await runScenario(url, scenario);
      expect(output).not.toMatch(/FAILURE/);
      expect(code, output).toBe(0);
    });
  }
});
