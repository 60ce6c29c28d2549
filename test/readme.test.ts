/**
 * Every ```ts block of the README is code that runs: it is part of an example file, and that file is either run
 * here (examples/readme/*.ts, which also assert what the README's comments promise) or by the test that names it.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix) && !f.includes('node_modules'))
    .map((f) => join(dir, f));
}

const EXAMPLES = new Map(filesUnder('examples', '.ts').map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
const TESTS = filesUnder('test', '.ts')
  .filter((f) => relative('test', f) !== 'readme.test.ts')
  .map((f) => readFileSync(join(ROOT, f), 'utf8'));

/** Every fenced block of `lang`, with the line it starts on. */
function blocks(lang: string): { line: number; code: string }[] {
  const out: { line: number; code: string }[] = [];
  const fence = new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g');
  for (const m of README.matchAll(fence)) out.push({ line: README.slice(0, m.index).split('\n').length, code: m[1]! });
  return out;
}

describe('README code blocks', () => {
  const tsBlocks = blocks('ts');

  it('has TypeScript blocks to check', () => {
    expect(tsBlocks.length).toBeGreaterThan(10);
  });

  it.each(tsBlocks.map((b) => [b.line, b.code] as const))('block at line %i is part of an example file that runs', (_line, code) => {
    const homes = [...EXAMPLES].filter(([, text]) => text.includes(code)).map(([file]) => file);
    expect(homes, 'not part of any file under examples/').not.toEqual([]);
    const run = homes.some((file) => file.startsWith(join('examples', 'readme')) || TESTS.some((t) => t.includes(file.split('\\').join('/'))));
    expect(run, `${homes.join(', ')}: no test runs it`).toBe(true);
  });

  it.each(filesUnder(join('examples', 'readme'), '.ts'))('%s runs and its assertions hold', async (file) => {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, timeout: 30_000 });
  });

  it('shows a stdio client configuration that starts the example server', async () => {
    const config = blocks('json').find((b) => b.code.includes('"mcpServers"'));
    expect(config).toBeDefined();
    const parsed = JSON.parse(config!.code.split('/path/to/mcp-prompt-kit/').join(ROOT)) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const server = Object.values(parsed.mcpServers)[0]!;
    const client = new Client({ name: 'readme-config', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args, cwd: ROOT, stderr: 'ignore' }));
    try {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toContain('review_code');
    } finally {
      await client.close();
    }
  }, 60_000);
});
