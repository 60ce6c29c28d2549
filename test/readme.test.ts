/**
 * Every ```ts block of the README is code that runs: it is part of an example file, and that file is either run
 * here (examples/readme/*.ts, which also assert what the README's comments promise) or by the test that names it.
 * Its commands for a clone of the repository name scripts and files the repository has. (The same blocks and
 * commands run in a fresh project with the packed package in test/readme-installed.test.ts.)
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { README, blocks, commandKind, fences, shellCommands } from './readme-blocks.js';
import { childCoverageEnv } from './support/processes.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix) && !f.includes('node_modules'))
    .map((f) => join(dir, f));
}

const EXAMPLES = new Map(filesUnder('examples', '.ts').map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
const TESTS = filesUnder('test', '.ts')
  .filter((f) => relative('test', f) !== 'readme.test.ts')
  .map((f) => readFileSync(join(ROOT, f), 'utf8'));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

describe('README structure', () => {
  it('closes every fenced block on a line of its own', () => {
    const open = fences().filter((f) => !f.closed).map((f) => f.line);
    expect(open, 'fences opened at these lines never close').toEqual([]);
    const stray = README.split('\n').flatMap((l, i) => (/\S```|```\S*\s+\S/.test(l) && !/^```\S*\s*$/.test(l) ? [i + 1] : []));
    expect(stray, 'lines where a fence shares the line with text').toEqual([]);
  });

  it('links only to headings it has', () => {
    const inFence = new Set(fences().flatMap((f) => Array.from({ length: f.code.split('\n').length }, (_, k) => f.line + k)));
    const headings = new Set(
      README.split('\n')
        .filter((l, i) => !inFence.has(i + 1) && /^#{1,6} /.test(l))
        .map((l) => anchor(l.replace(/^#+ /, ''))),
    );
    const links = [...README.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((l) => !headings.has(l))).toEqual([]);
  });
});

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
    await promisify(execFile)(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, timeout: 90_000 });
  });

  it('names only scripts and files the repository has in its commands for a clone', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const repository = shellCommands().filter((c) => commandKind(c.words) === 'repository');
    expect(repository.length).toBeGreaterThan(3);
    const problems = repository.flatMap(({ line, words }) => {
      const args = words.slice(2).filter((w) => !w.startsWith('-'));
      if (words[1] === 'run' && !(args[0]! in scripts)) return [`line ${line}: no script '${args[0]}'`];
      if (words[1] === 'tsx' && !existsSync(join(ROOT, args[0]!))) return [`line ${line}: no file ${args[0]}`];
      return [];
    });
    expect(problems).toEqual([]);
  });

  it('shows a stdio client configuration that starts the example server', async () => {
    const config = blocks('json').find((b) => b.code.includes('"mcpServers"'));
    expect(config).toBeDefined();
    const parsed = JSON.parse(config!.code.split('/path/to/mcp-prompt-kit/').join(ROOT)) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const server = Object.values(parsed.mcpServers)[0]!;
    const client = new Client({ name: 'readme-config', version: '1.0.0' });
    // A client starts it from a directory of its own: the configuration must not depend on the working directory.
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args, cwd: tmpdir(), env: childCoverageEnv(), stderr: 'ignore' }));
    try {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toContain('review_code');
    } finally {
      await client.close();
    }
  }, 120_000);
});
