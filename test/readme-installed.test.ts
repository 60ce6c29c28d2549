/**
 * The README and the docs/ pages as a new user meets them, outside the repository: the package is packed once
 * (the tarball `npm pack` makes of dist/ when dist/ is the build of the current sources, as in `npm test`, shared with
 * `npm run check:package`; else `npm pack` of the shared build), a fresh project in a temporary directory is set up by the README's own commands
 * (`npm init`, `npm pkg`, `npm install`: the package from the tarball, other packages linked from this repository's
 * node_modules at the versions the tests use), and every program and command of every page runs there, as its reader
 * would run it (the docs/ pages' TypeScript compiled by esbuild, as tsx would, and run by node: see nodeArgs).
 *
 * Generic by design: every ```ts and ```js block of every page (test/readme-blocks.ts groups them into programs, page
 * by page) and every line of a ```sh block is covered, so a snippet added anywhere in the pages runs here too. A program that serves over stdio
 * gets an MCP client that lists what it serves; one that prints a URL gets a request; the rest must exit with 0.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { transformSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distBuiltFrom } from '../scripts/dist-stamp.mjs';
import { packedTarball } from '../scripts/packed.mjs';
import { sourcesHash } from '../scripts/sources-hash.mjs';
import { createPostgresPromptStore } from '../src/stores/postgres/store.js';
import { ROOT, buildPackage } from './package/build-fixture.js';
import { allPrograms, allShellCommands, bareImports, commandKind, packageName, section } from './readme-blocks.js';
import type { Program, ShellCommand } from './readme-blocks.js';
import { startTestDatabase } from './stores/pg-server.js';
import type { TestDatabase } from './stores/pg-server.js';

const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  peerDependencies: Record<string, string>;
};
const PROGRAMS = allPrograms();
const COMMANDS = allShellCommands();
const CLI_COMMANDS = COMMANDS.filter((c) => commandKind(c.words) === 'cli');
const RUN_TIMEOUT_MS = 60_000;

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (killed after RUN_TIMEOUT_MS); never rejects on its exit code. */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = childEnv(),
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The environment of everything started in the project: no test runner options, port 0 for servers. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, NODE_OPTIONS: '', PORT: '0', ...extra };
}

function mustSucceed(what: string, result: Finished): Finished {
  if (result.code !== 0) throw new Error(`${what} exited with ${result.code}\n${result.stdout}${result.stderr}`);
  return result;
}

let temp: string;
let project: string;
let db: Promise<TestDatabase> | undefined;

/**
 * The packed package of the current sources: the tarball of dist/ when dist/ is their build (scripts/packed.mjs),
 * else `npm pack` of the shared build, staged as the package directory npm publishes from.
 */
async function pack(): Promise<string> {
  if (distBuiltFrom() === sourcesHash()) return packedTarball().tarball;
  const stage = join(temp, 'package');
  mkdirSync(stage);
  for (const file of ['package.json', 'README.md', 'LICENSE', 'schema'])
    cpSync(join(ROOT, file), join(stage, file), { recursive: true });
  cpSync(await buildPackage(), join(stage, 'dist'), { recursive: true });
  const { stdout } = mustSucceed(
    'npm pack',
    await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', temp], stage),
  );
  const [info] = JSON.parse(stdout) as [{ filename: string }];
  return join(temp, info.filename);
}

/** Makes `name` importable in the project: this repository's installed copy, linked (what `npm install` would add). */
function link(name: string): void {
  const target = join(ROOT, 'node_modules', name);
  if (!existsSync(target))
    throw new Error(
      `the pages' programs need ${name}, which this repository does not install: add it to devDependencies`,
    );
  const destination = join(project, 'node_modules', name);
  if (existsSync(destination)) return;
  mkdirSync(dirname(destination), { recursive: true });
  symlinkSync(target, destination, 'dir');
}

/**
 * Runs the README's setup commands in order, as written, except what `npm install` fetches: the package comes from the
 * tarball (installed by npm with its dependencies, from npm's cache where it can), other packages are linked.
 */
async function setUp(tarball: string): Promise<void> {
  const installs: string[] = [];
  for (const { words, text } of COMMANDS.filter((c) => commandKind(c.words) === 'setup')) {
    if (words[1] === 'init' || words[1] === 'pkg') mustSucceed(text, await run('npm', words.slice(1), project));
    else
      installs.push(
        ...words
          .slice(2)
          .filter((w) => !w.startsWith('-'))
          .map((w) => /^@?[^@]+/.exec(w)![0]),
      ); // name@version -> name
  }
  if (installs.includes(MANIFEST.name)) {
    const flags = ['--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', '--loglevel=error'];
    mustSucceed(`npm install ${MANIFEST.name}`, await run('npm', ['install', ...flags, tarball], project));
  }
  for (const name of installs.filter((n) => n !== MANIFEST.name)) link(packageName(name));
  // What each program imports, as its reader installs it.
  for (const program of PROGRAMS)
    for (const specifier of bareImports(program.code)) {
      const name = packageName(specifier);
      if (!existsSync(join(project, 'node_modules', name))) link(name);
    }
  // The repository directories the Install section tells readers to copy (data only: no example code).
  for (const [, dir] of section('Install').matchAll(/\]\((examples\/[\w./-]+)\)/g)) {
    cpSync(join(ROOT, dir!), join(project, dir!), { recursive: true, filter: (path) => !path.endsWith('.ts') });
  }
}

/** A throwaway database holding one prompt, for programs that read DATABASE_URL. */
function database(): Promise<TestDatabase> {
  db ??= (async () => {
    const started = await startTestDatabase();
    const pool = started.pool();
    const store = createPostgresPromptStore({ pool });
    await store.migrate();
    await store.put({
      name: 'greet',
      arguments: [{ name: 'who', required: true }],
      messages: [{ role: 'user', content: 'Hello, {{who}}!' }],
    });
    return started;
  })();
  return db;
}

function fileName(program: Program): string {
  const extension = program.lang === 'ts' ? 'ts' : program.format === 'cjs' ? 'cjs' : 'js';
  return `${program.page.replace(/\.md$/, '').replace(/\W/g, '-')}-line-${program.line}.${extension}`;
}

/**
 * How a program starts: the README's TypeScript through tsx, as its Install section tells readers to run it; the docs/
 * pages' TypeScript as the JavaScript esbuild makes of it (what tsx runs, without tsx's loader: about 1 s of CPU less
 * per process), written beside it; JavaScript with node.
 */
function nodeArgs(program: Program, file: string): string[] {
  if (program.lang !== 'ts') return [file];
  if (program.page === 'README.md') return ['--import', 'tsx', file];
  const compiled = file.replace(/\.ts$/, '.mjs');
  const { code } = transformSync(program.code, { loader: 'ts', format: 'esm', target: 'node20', sourcefile: file });
  writeFileSync(join(project, compiled), code);
  return [compiled];
}

/** Lists what an MCP server offers through `client`; at least one prompt or tool. */
async function listsSomething(client: Client): Promise<string[]> {
  const capabilities = client.getServerCapabilities() ?? {};
  const names: string[] = [];
  if (capabilities.prompts) names.push(...(await client.listPrompts()).prompts.map((p) => `prompt ${p.name}`));
  if (capabilities.tools) names.push(...(await client.listTools()).tools.map((t) => `tool ${t.name}`));
  return names;
}

/** Connects an MCP client to a stdio server started as `command args` in the project; returns what it lists. */
async function overStdio(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: project,
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'readme-installed', version: '1.0.0' });
  try {
    await client.connect(transport);
    return await listsSomething(client);
  } catch (error) {
    throw new Error(`${String(error)}\nstderr of ${[command, ...args].join(' ')}:\n${stderr}`);
  } finally {
    await client.close();
  }
}

/** Starts `command args`; resolves with the URL it prints first, or with how it finished if it exits before. */
function startOrFinish(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; child: ChildProcess } | Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let served = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const url = /^(https?:\/\/\S+)$/m.exec(stdout)?.[1];
      if (url !== undefined && !served) {
        served = true;
        clearTimeout(timer);
        resolve({ url, child });
      }
    });
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (!served) resolve({ code, stdout, stderr });
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGTERM');
  await closed;
}

/** What a server at `url` answers: an MCP endpoint (`…/mcp`) lists its prompts, an HTTP API its OpenAPI document. */
async function askServer(url: string): Promise<string> {
  if (new URL(url).pathname.endsWith('/mcp')) {
    const client = new Client({ name: 'readme-installed', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      return (await listsSomething(client)).join(', ');
    } finally {
      await client.close();
    }
  }
  const response = await fetch(`${url.replace(/\/$/, '')}/openapi.json`);
  const body = (await response.json()) as { openapi?: unknown };
  return `${response.status} openapi ${String(body.openapi)}`;
}

describe('the README and docs/ in a fresh project with the packed package', () => {
  beforeAll(async () => {
    temp = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-readme-'));
    project = join(temp, 'project');
    mkdirSync(project);
    await setUp(await pack());
  }, 300_000);

  afterAll(async () => {
    if (db !== undefined) await (await db).close();
    if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
  });

  it('sets up an ES module project with its own commands, the package installed from the tarball', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { type?: string };
    expect(manifest.type).toBe('module');
    const installed = realpathSync(join(project, 'node_modules', MANIFEST.name));
    expect(relative(project, installed).startsWith('..')).toBe(false);
    const resolved = createRequire(join(project, 'index.js')).resolve(MANIFEST.name);
    expect(relative(installed, resolved)).toBe(join('dist', 'index.cjs'));
    expect(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'))).toMatchObject({
      version: MANIFEST.version,
    });
  });

  it('names in its Install section every optional peer dependency its programs import', () => {
    const install = section('Install');
    const peers = new Set(Object.keys(MANIFEST.peerDependencies));
    const imported = new Set(
      PROGRAMS.flatMap((p) => bareImports(p.code).map(packageName)).filter((name) => peers.has(name)),
    );
    expect(imported.size).toBeGreaterThan(1);
    expect([...imported].filter((name) => !install.includes(`\`${name}\``))).toEqual([]);
  });

  it('knows how to run each of its shell commands', () => {
    const unknown = COMMANDS.filter((c) => commandKind(c.words) === 'unknown').map(
      (c) => `${c.page}:${c.line}: ${c.text}`,
    );
    expect(unknown, 'teach test/readme-blocks.ts (commandKind) and this test how a reader runs these').toEqual([]);
  });

  describe.concurrent('programs', () => {
    it.each(PROGRAMS.map((p) => [p.page, p.lines.join('+'), p.section, p] as const))(
      'runs the program of %s lines %s (%s)',
      async (_page, _lines, _section, program) => {
        const file = fileName(program);
        writeFileSync(join(project, file), program.code);
        const env = childEnv(program.code.includes('DATABASE_URL') ? { DATABASE_URL: (await database()).url } : {});
        if (/\bStdioServerTransport\b|\bserveStdio\b/.test(program.code)) {
          expect(await overStdio(process.execPath, nodeArgs(program, file), env)).not.toEqual([]);
          return;
        }
        const outcome = await startOrFinish(process.execPath, nodeArgs(program, file), env);
        if ('url' in outcome) {
          try {
            expect(await askServer(outcome.url)).toMatch(/^200 openapi 3\.|^prompt /);
          } finally {
            await stop(outcome.child);
          }
        } else {
          expect(outcome.code, `${file} failed:\n${outcome.stdout}${outcome.stderr}`).toBe(0);
        }
      },
      120_000,
    );
  });

  describe.concurrent('commands of the package', () => {
    const bin = (): string => join(project, 'node_modules', '.bin', MANIFEST.name);
    const argsOf = (c: ShellCommand): string[] => c.words.slice(c.words.indexOf(MANIFEST.name) + 1);

    it('has some to run', () => {
      expect(CLI_COMMANDS.length).toBeGreaterThan(2);
    });

    it.each(CLI_COMMANDS.map((c) => [c.page, c.text, c] as const))(
      'runs (%s) `%s`',
      async (_page, _text, command) => {
        const args = argsOf(command);
        if (args[0] === 'serve' && !args.includes('--http')) {
          expect(await overStdio(bin(), args, childEnv())).not.toEqual([]);
          return;
        }
        if (args[0] === 'serve') {
          const port = args.indexOf('--http') + 1;
          const outcome = await startOrFinish(
            bin(),
            args.map((a, i) => (i === port ? '0' : a)),
            childEnv(),
          );
          expect('url' in outcome, JSON.stringify(outcome)).toBe(true);
          if (!('url' in outcome)) return;
          try {
            expect(await askServer(outcome.url)).toMatch(/^prompt /);
          } finally {
            await stop(outcome.child);
          }
          return;
        }
        if (args[0] === 'preview') {
          // A page on a free port: its URL carries the token; the page answers with it.
          const outcome = await startOrFinish(bin(), args, childEnv());
          expect('url' in outcome, JSON.stringify(outcome)).toBe(true);
          if (!('url' in outcome)) return;
          try {
            const page = await fetch(outcome.url);
            expect(`${page.status} ${await page.text()}`).toMatch(/^200 .*<title>mcp-prompt-kit preview<\/title>/s);
          } finally {
            await stop(outcome.child);
          }
          return;
        }
        // push and pull talk to the run's database (the reader's DATABASE_URL).
        const env =
          args[0] === 'push' || args[0] === 'pull' ? childEnv({ DATABASE_URL: (await database()).url }) : childEnv();
        const result = await run(bin(), args, project, env);
        expect(result.code, `${command.text}:\n${result.stdout}${result.stderr}`).toBe(0);
      },
      120_000,
    );
  });
});
