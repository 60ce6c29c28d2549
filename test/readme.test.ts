/**
 * Every block of the README and of every docs/ page is run by a test, and every link between the pages holds.
 * ```ts blocks are part of an example file, and that file is either run here (examples/readme/*.ts, which also assert
 * what the pages' comments promise) or by the test that names it; every ```ts and ```js program and every ```sh
 * command runs in a fresh project with the packed package (test/readme-installed.test.ts); the other blocks are
 * claimed below by the test that runs them. The pages' commands for a clone of the repository name scripts and files
 * the repository has.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { createPromptRetrievalTool } from '../src/agent/index.js';
import { PromptRegistry, parsePromptDefinition } from '../src/index.js';
import {
  PAGES,
  README,
  allShellCommands,
  anchors,
  blocksIn,
  commandKind,
  fences,
  links,
  pageText,
  section,
} from './readme-blocks.js';
import type { Fence } from './readme-blocks.js';
import { childCoverageEnv, tsNodeArgs } from './support/processes.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix) && !f.includes('node_modules'))
    .map((f) => join(dir, f));
}

const EXAMPLES = new Map(filesUnder('examples', '.ts').map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
const EXAMPLE_FILES = new Set(
  readdirSync(join(ROOT, 'examples'), { recursive: true, encoding: 'utf8' })
    .map((f) => join('examples', f))
    .filter((f) => !f.includes('node_modules') && statSync(join(ROOT, f)).isFile())
    .map((f) => readFileSync(join(ROOT, f), 'utf8')),
);
const TESTS = filesUnder('test', '.ts')
  .filter((f) => relative('test', f) !== 'readme.test.ts')
  .map((f) => readFileSync(join(ROOT, f), 'utf8'));

/** Every fenced block of every page, with its page. */
const ALL_FENCES = PAGES.flatMap((page) => fences(pageText(page)).map((f) => ({ page, ...f })));

/**
 * The blocks that are neither programs nor commands, each claimed by the test that runs it (which reads it with
 * `blocksIn(page, heading, lang)`): a block nobody claims fails 'every block of every page is run by a test'.
 */
const CLAIMS: { page: string; heading: string; lang: string; test: string }[] = [
  {
    page: 'docs/mcp.md',
    heading: 'Add prompts to your existing MCP server',
    lang: 'json',
    test: 'test/readme.test.ts',
  },
  { page: 'docs/cli.md', heading: 'Command line', lang: 'json', test: 'test/cli/readme.test.ts' },
  { page: 'docs/cli.md', heading: 'Example cases', lang: 'yaml', test: 'test/cli/readme.test.ts' },
  { page: 'docs/agents.md', heading: 'Agents', lang: 'json', test: 'test/readme.test.ts' },
  { page: 'docs/prompts.md', heading: 'Prompt definitions', lang: 'text', test: 'test/readme.test.ts' },
];

/** How a block is run: by its language, or by the test that claims it. */
function runBy(fence: Fence & { page: string }): string | undefined {
  if (fence.lang === 'ts' || fence.lang === 'js') return 'test/readme-installed.test.ts (programs)';
  if (fence.lang === 'sh') return 'test/readme-installed.test.ts (commands)';
  // A prompt file shown as it is: the CLI tests check and serve examples/prompts.
  if (fence.lang === 'md')
    return EXAMPLE_FILES.has(fence.code) ? 'test/cli/readme.test.ts (examples/prompts)' : undefined;
  const claim = CLAIMS.find(
    (c) =>
      c.page === fence.page &&
      c.lang === fence.lang &&
      blocksIn(c.page, c.heading, c.lang).some((b) => b.code === fence.code),
  );
  return claim?.test;
}

describe('the README and the docs/ pages', () => {
  it('has the README and a page per concern', () => {
    expect(PAGES[0]).toBe('README.md');
    expect(PAGES.filter((p) => p.startsWith('docs/')).length).toBeGreaterThan(10);
  });

  it('keeps the README within 15 KB', () => {
    expect(Buffer.byteLength(README)).toBeLessThanOrEqual(15 * 1024);
  });

  it.each(PAGES)('%s closes every fenced block on a line of its own', (page) => {
    const text = pageText(page);
    const open = fences(text)
      .filter((f) => !f.closed)
      .map((f) => f.line);
    expect(open, 'fences opened at these lines never close').toEqual([]);
    const stray = text
      .split('\n')
      .flatMap((l, i) => (/\S```|```\S*\s+\S/.test(l) && !/^ *```\S*\s*$/.test(l) ? [i + 1] : []));
    expect(stray, 'lines where a fence shares the line with text').toEqual([]);
  });

  it.each(PAGES)('%s links only to files the repository has and to headings their pages have', (page) => {
    const problems = links(pageText(page)).flatMap(({ line, target }) => {
      if (/^[a-z]+:/i.test(target)) return [];
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? page : normalize(join(dirname(page), decodeURIComponent(path)));
      if (file.startsWith('..') || !existsSync(join(ROOT, file))) return [`line ${line}: ${target}: no file ${file}`];
      if (anchor === undefined) return [];
      if (!file.endsWith('.md')) return [`line ${line}: ${target}: an anchor into a file that is not a page`];
      return anchors(readFileSync(join(ROOT, file), 'utf8')).has(anchor)
        ? []
        : [`line ${line}: ${target}: no heading #${anchor} in ${file}`];
    });
    expect(problems).toEqual([]);
  });

  it('links from the README to every docs/ page', () => {
    const targets = new Set(links(README).map((l) => l.target.split('#')[0]));
    expect(PAGES.filter((p) => p !== 'README.md' && !targets.has(p))).toEqual([]);
  });

  it('tells a clone to run `npm ci && npm run demo` and `npm ci && npm test`, the test command .ci/run runs', () => {
    expect(section('Install')).toMatch(/^npm ci && npm run demo +#/m);
    expect(section('Install')).toMatch(/^npm ci && npm test +#/m);
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#') && !/^(set|cd) /.test(l));
    // The preview page's browser tests need Debian's Chromium, which the README's test line names too.
    expect(ci).toEqual([
      'command -v chromium || (apt-get update && apt-get install -y chromium)',
      'npm ci',
      'npm test',
    ]);
    expect(section('Install')).toMatch(/^npm ci && npm test +#.*Chromium/m);
  });
});

describe('the code blocks of every page', () => {
  const tsBlocks = ALL_FENCES.filter((f) => f.lang === 'ts');

  it('has TypeScript blocks to check', () => {
    expect(tsBlocks.length).toBeGreaterThan(10);
  });

  it.each(ALL_FENCES.map((f) => [`${f.page}:${f.line}`, f] as const))('block %s is run by a test', (_where, fence) => {
    expect(
      runBy(fence),
      `a ${fence.lang === '' ? 'plain' : fence.lang} block nobody runs: claim it in CLAIMS with the test that runs it`,
    ).toBeDefined();
    if (fence.lang === 'json') expect(() => JSON.parse(fence.code)).not.toThrow();
  });

  it('claims only blocks the pages have, and names tests that read them by page and heading', () => {
    for (const claim of CLAIMS) {
      expect(blocksIn(claim.page, claim.heading, claim.lang).length).toBeGreaterThan(0);
      const source =
        claim.test === 'test/readme.test.ts'
          ? readFileSync(fileURLToPath(import.meta.url), 'utf8')
          : readFileSync(join(ROOT, claim.test), 'utf8');
      expect(source, claim.test).toContain(`'${claim.page}'`);
      expect(source, claim.test).toContain(`'${claim.heading}'`);
    }
  });

  it.each(tsBlocks.map((b) => [`${b.page}:${b.line}`, b.code] as const))(
    'block %s is part of an example file that runs',
    (_where, code) => {
      const homes = [...EXAMPLES].filter(([, text]) => text.includes(code)).map(([file]) => file);
      expect(homes, 'not part of any file under examples/').not.toEqual([]);
      const run = homes.some(
        (file) =>
          file.startsWith(join('examples', 'readme')) || TESTS.some((t) => t.includes(file.split('\\').join('/'))),
      );
      expect(run, `${homes.join(', ')}: no test runs it`).toBe(true);
    },
  );

  it.each(filesUnder(join('examples', 'readme'), '.ts'))('%s runs and its assertions hold', async (file) => {
    await promisify(execFile)(process.execPath, tsNodeArgs(file), { cwd: ROOT, timeout: 90_000 });
  });

  it('names only scripts and files the repository has in its commands for a clone', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    const repository = allShellCommands().filter((c) => commandKind(c.words) === 'repository');
    expect(repository.length).toBeGreaterThan(3);
    const problems = repository.flatMap(({ page, line, words }) => {
      const args = words.slice(2).filter((w) => !w.startsWith('-'));
      if (words[1] === 'run' && !(args[0]! in scripts)) return [`${page}:${line}: no script '${args[0]}'`];
      if (words[1] === 'tsx' && !existsSync(join(ROOT, args[0]!))) return [`${page}:${line}: no file ${args[0]}`];
      return [];
    });
    expect(problems).toEqual([]);
  });

  it('shows a stdio client configuration that starts the example server', async () => {
    const [config] = blocksIn('docs/mcp.md', 'Add prompts to your existing MCP server', 'json');
    const parsed = JSON.parse(config!.code.split('/path/to/mcp-prompt-kit/').join(ROOT)) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const server = Object.values(parsed.mcpServers)[0]!;
    const client = new Client({ name: 'readme-config', version: '1.0.0' });
    // A client starts it from a directory of its own: the configuration must not depend on the working directory.
    await client.connect(
      new StdioClientTransport({
        command: server.command,
        args: server.args,
        cwd: tmpdir(),
        env: childCoverageEnv(),
        stderr: 'ignore',
      }),
    );
    try {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toContain('review_code');
    } finally {
      await client.close();
    }
  }, 120_000);

  it('shows the text the agent tool answers for the agent example prompt', async () => {
    const [shown] = blocksIn('docs/agents.md', 'Agents', 'json');
    const served = new PromptRegistry();
    served.add({
      name: 'review_code',
      description: 'Review a snippet of code',
      arguments: [{ name: 'code', required: true }],
      messages: [{ role: 'user', content: 'Review this code:\n{{code}}' }],
    });
    expect(EXAMPLES.get(join('examples', 'agent-tool.ts'))).toContain("content: 'Review this code:\\n{{code}}'");
    const tool = createPromptRetrievalTool({ integrations: { examples: served } });
    const text = await tool.execute({
      integrationId: 'examples',
      promptName: 'review_code',
      arguments: { code: 'let total = a + b' },
    });
    tool.close();
    expect(`${text}\n`).toBe(shown!.code);
  });

  it('shows the message a definition error prints', () => {
    const [shown] = blocksIn('docs/prompts.md', 'Prompt definitions', 'text');
    const broken = { name: 'review', messages: [{ role: 'system', content: 'Review this.' }] };
    let message = '';
    try {
      parsePromptDefinition(broken, { source: 'prompts/review.json' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(shown!.code.trimEnd());
  });
});
