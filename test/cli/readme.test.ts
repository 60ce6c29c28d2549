/**
 * docs/files.md (prompt files, file resources, hot reload) and docs/cli.md (the command line): their code is the
 * example files verbatim, and every snippet runs (the TypeScript examples as child processes, each documented command
 * through the real CLI, the client configuration's arguments with a real SDK client).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { blocksIn, shellWords } from '../readme-blocks.js';
import { childCoverageEnv, tsNodeArgs } from '../support/processes.js';
import { CLI_COMMAND, ROOT, runCliInProcess, stderrOnFailure } from './process.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close().catch(() => {})));
});

/** The code of the ```lang blocks of a page under a heading. */
function blocks(page: string, heading: string, lang: string): string[] {
  return blocksIn(page, heading, lang).map((b) => b.code);
}

async function stdioClient(command: string, args: string[]): Promise<Client> {
  const client = new Client({ name: 'readme-test', version: '1.0.0' });
  const transport = new StdioClientTransport({ command, args, cwd: ROOT, env: childCoverageEnv(), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  stderrOnFailure(() => stderr);
  await client.connect(transport);
  cleanup.push(() => client.close());
  return client;
}

describe('docs/files.md: prompt files, file resources, hot reload', () => {
  it('shows examples/prompts/load-directory.ts verbatim, and it runs', async () => {
    const source = readFileSync(join(ROOT, 'examples/prompts/load-directory.ts'), 'utf8');
    expect(blocks('docs/files.md', 'Prompt files', 'ts')).toEqual([source]);
    const child = spawn(process.execPath, tsNodeArgs('examples/prompts/load-directory.ts'), { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    stderrOnFailure(() => stderr);
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
    expect(stdout).toMatch(
      /^Draft an architecture decision record titled "Adopt CQRS for reporting"\.\n\nFollow our ADR template exactly:\n\n# ADR NNN/,
    );
  });

  it('shows examples/prompts/architecture/create-adr.md verbatim as the Markdown format', () => {
    const source = readFileSync(join(ROOT, 'examples/prompts/architecture/create-adr.md'), 'utf8');
    expect(blocks('docs/files.md', 'Prompt files', 'md')).toEqual([source]);
  });

  it('shows examples/prompts/serve-directory.ts verbatim, and it serves the examples over stdio', async () => {
    const source = readFileSync(join(ROOT, 'examples/prompts/serve-directory.ts'), 'utf8');
    expect(blocks('docs/files.md', 'Hot reload', 'ts')).toEqual([source]);
    const client = await stdioClient(process.execPath, tsNodeArgs('examples/prompts/serve-directory.ts'));
    const names = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['create-adr', 'review-code-against-patterns', 'suggest-patterns']));
    const result = await client.getPrompt({ name: 'suggest-patterns', arguments: { problem: 'Reports are slow' } });
    const content = result.messages[0]?.content;
    expect(content?.type === 'text' ? content.text : '').toContain(
      '--- architecture://patterns/outbox.md ---\n# Transactional outbox',
    );
    const listed = (await client.listResources()).resources.map((r) => r.uri);
    expect(listed).toContain('architecture://adr/template.md');
    const doc = await client.readResource({ uri: 'architecture://adr/template.md' });
    expect(doc.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringMatching(/^# ADR NNN/) });
    await expect(client.readResource({ uri: 'architecture://../prompts/catalog.ts' })).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe('docs/cli.md: the command line', () => {
  it('shows examples/prompts/review_code.cases.yaml verbatim as the cases format, and the examples pass', async () => {
    const source = readFileSync(join(ROOT, 'examples/prompts/review_code.cases.yaml'), 'utf8');
    expect(blocks('docs/cli.md', 'Example cases', 'yaml')).toEqual([source]);
    const result = await runCliInProcess([
      'test',
      join(ROOT, 'examples/prompts'),
      '--docs',
      `architecture=${join(ROOT, 'examples/docs')}`,
      '--docs',
      `docs=${join(ROOT, 'examples/style')}`,
    ]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^\d+ case\(s\): \d+ passed, 0 failed\n$/);
  });

  const commands = blocks('docs/cli.md', 'Command line', 'sh')
    .flatMap((b) => b.split('\n'))
    .filter((line) => line.startsWith('npx mcp-prompt-kit '));

  it('documents check, list, render, serve (stdio and HTTP), openapi, preview and test', () => {
    expect(commands.map((c) => c.split(' ').slice(2, 3)[0])).toEqual([
      'check',
      'list',
      'render',
      'render',
      'serve',
      'serve',
      'openapi',
      'test',
      'preview',
    ]);
  });

  for (const line of commands.filter((c) => !c.includes(' serve ') && !c.includes(' preview '))) {
    it(`runs: ${line}`, async () => {
      const result = await runCliInProcess(shellWords(line).slice(2));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toBe('');
    });
  }

  it('serves over stdio with the documented serve command', async () => {
    const line = commands.find((c) => c.includes(' serve ') && !c.includes('--http'))!;
    const client = await stdioClient(CLI_COMMAND.command, [...CLI_COMMAND.args, ...shellWords(line).slice(2)]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('review-code-against-patterns');
  });

  it('serves over HTTP with the documented serve --http command', async () => {
    const line = commands.find((c) => c.includes('--http'))!;
    const args = shellWords(line)
      .slice(2)
      .map((a) => (a === '3001' ? '0' : a)); // a free port instead of 3001
    const child = spawn(CLI_COMMAND.command, [...CLI_COMMAND.args, ...args], { cwd: ROOT });
    cleanup.push(async () => void child.kill('SIGTERM'));
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    stderrOnFailure(() => stderr);
    const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('serves the page with the documented preview command, only with the printed token', async () => {
    const line = commands.find((c) => c.includes(' preview '))!;
    const child = spawn(CLI_COMMAND.command, [...CLI_COMMAND.args, ...shellWords(line).slice(2)], { cwd: ROOT });
    cleanup.push(async () => void child.kill('SIGTERM'));
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    stderrOnFailure(() => stderr);
    const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>mcp-prompt-kit preview</title>');
    const listing = await fetch(new URL('/api/listing', url), { headers: { cookie: page.headers.get('set-cookie')! } });
    const names = ((await listing.json()) as { prompts: { name: string }[] }).prompts.map((p) => p.name);
    expect(names).toContain('review-code-against-patterns');
    expect((await fetch(new URL('/api/listing', url))).status).toBe(403);
  });

  it('shows a stdio client configuration whose arguments start the server', async () => {
    const config = JSON.parse(blocks('docs/cli.md', 'Command line', 'json')[0]!) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const server = config.mcpServers['architecture-prompts']!;
    expect(server.command).toBe('npx');
    expect(server.args.slice(0, 3)).toEqual(['-y', 'mcp-prompt-kit', 'serve']);
    const args = server.args
      .slice(2)
      .map((a) =>
        a
          .replace('/path/to/prompts', 'examples/prompts')
          .replace('/path/to/docs', 'examples/docs')
          .replace('/path/to/style', 'examples/style'),
      );
    const client = await stdioClient(CLI_COMMAND.command, [...CLI_COMMAND.args, ...args]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('create-adr');
  });
});
