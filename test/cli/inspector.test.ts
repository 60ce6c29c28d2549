/**
 * `mcp-prompt-kit serve` driven by the MCP inspector's CLI mode (`mcp-inspector --cli`, @modelcontextprotocol/inspector
 * 2.x), as a user trying a server from the command line would: over stdio the inspector starts the server as a child
 * process (from a Claude Desktop style config file, or a command after `--`); over streamable HTTP it connects to
 * `serve --http 0`. Both protocol eras: `--protocol-era legacy` (initialize) and `modern` (2026-07-28).
 *
 * The inspector declares Node >= 22.19 (engines): it runs under this Node when that is new enough, otherwise under a
 * Node binary of that major from scripts/node-binary.sh (cached in .tmp/node-<major>). The server it starts stays on
 * this Node (CLI_COMMAND).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_COMMAND, ROOT, startServeHttp, stderrOnFailure } from './process.js';
import type { CliResult } from './process.js';

const INSPECTOR_DIR = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json'));
const LAUNCHER = join(INSPECTOR_DIR, 'clients', 'launcher', 'build', 'index.js');
const SERVE = [
  ...CLI_COMMAND.args,
  'serve',
  join(ROOT, 'examples/prompts'),
  '--docs',
  `architecture=${join(ROOT, 'examples/docs')}`,
  '--docs',
  `docs=${join(ROOT, 'examples/style')}`,
];
const ADR_REQUEST = 'Draft an architecture decision record titled "Adopt JSON".';
const ADR_EMBEDDED = '# ADR 001: Use PostgreSQL for transactional data';

/** `[major, minor, patch]` of a `vX.Y.Z` or `X.Y.Z` version. */
function versionOf(text: string): [number, number, number] {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text);
  if (match === null) throw new Error(`not a version: '${text}'`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function atLeast(version: readonly number[], floor: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) {
    if ((version[i] ?? 0) !== (floor[i] ?? 0)) return (version[i] ?? 0) > (floor[i] ?? 0);
  }
  return true;
}

/**
 * The Node that meets the inspector's engines floor (`>=X.Y.Z`): this one, or the latest X.x from
 * scripts/node-binary.sh.
 */
async function inspectorNode(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(INSPECTOR_DIR, 'package.json'), 'utf8')) as {
    engines?: { node?: string };
  };
  const range = manifest.engines?.node ?? '';
  const floorText = /^>=\s*(\d+\.\d+\.\d+)$/.exec(range.trim())?.[1];
  if (floorText === undefined)
    throw new Error(`the inspector's engines.node is '${range}', not the '>=X.Y.Z' this test reads`);
  const floor = versionOf(floorText);
  if (atLeast(versionOf(process.version), floor)) return process.execPath;
  const run = promisify(execFile);
  const { stdout: bin } = await run('bash', [join(ROOT, 'scripts/node-binary.sh'), String(floor[0])], {
    cwd: ROOT,
    timeout: 240_000,
  });
  const node = join(bin.trim(), 'node');
  const { stdout: version } = await run(node, ['--version']);
  if (!atLeast(versionOf(version.trim()), floor))
    throw new Error(`${node} is ${version.trim()}; the inspector needs Node ${range}`);
  return node;
}

let node = '';
let home = '';
let config = '';

/** Runs `mcp-inspector --cli --format json ...args` to completion (killed after 150 s). */
function inspect(args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    // Its own home (it seeds ~/.mcp-inspector/mcp.json) and in-memory secrets: no OS keychain, nothing left behind.
    const env = { ...process.env, HOME: home, USERPROFILE: home, MCP_INSPECTOR_SECRET_STORE: 'memory' };
    // Its 15 s default to connect is short for a server started through tsx on a loaded machine: 90 s.
    const cli = [LAUNCHER, '--cli', '--format', 'json', '--connect-timeout', '90000', ...args];
    const child = spawn(node, cli, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The `result` of a successful run; a failed one throws with what the inspector (and the server) wrote on stderr. */
function resultOf<T>(run: CliResult): T {
  if (run.code !== 0) throw new Error(`the inspector exited with ${run.code}\n--- stderr ---\n${run.stderr.trimEnd()}`);
  return (JSON.parse(run.stdout) as { result: T }).result;
}

/** The error envelope, the last stderr line of a failed run. */
function errorOf(run: CliResult): { code: string; message: string } {
  expect(run.code).toBe(1);
  const last = run.stderr.trimEnd().split('\n').at(-1) ?? '';
  return (JSON.parse(last) as { error: { code: string; message: string } }).error;
}

interface Listed {
  prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[];
}
interface Got {
  _meta?: Record<string, unknown>;
  messages: { role: string; content: { type: string; text: string } }[];
}
interface Resources {
  resources: { uri: string; mimeType?: string }[];
}
interface Read {
  contents: { uri: string; mimeType?: string; text?: string }[];
}

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const getAdr = ['--method', 'prompts/get', '--prompt-name', 'create-adr', '--prompt-args', 'title=Adopt JSON'];

beforeAll(async () => {
  node = await inspectorNode();
  home = await mkdtemp(join(tmpdir(), 'mcp-prompt-kit-inspector-'));
  // The claude_desktop_config.json shape docs/cli.md shows, with the server started from source on this Node.
  config = join(home, 'claude_desktop_config.json');
  const server = { command: CLI_COMMAND.command, args: SERVE };
  await writeFile(config, JSON.stringify({ mcpServers: { 'architecture-prompts': server } }));
}, 300_000);

afterAll(async () => {
  if (home !== '') await rm(home, { recursive: true, force: true });
});

describe('mcp-prompt-kit serve with the MCP inspector CLI over stdio', () => {
  const configArgs = (): string[] => ['--config', config, '--server', 'architecture-prompts'];

  it('lists the prompts and gets one with arguments in both protocol eras, embedded documents included', async () => {
    // Independent inspector runs (each starts its own server): side by side.
    const [listed, legacy, modern] = await Promise.all([
      inspect([...configArgs(), '--method', 'prompts/list']),
      inspect(['--protocol-era', 'legacy', ...configArgs(), ...getAdr]),
      inspect(['--protocol-era', 'modern', ...getAdr, '--', CLI_COMMAND.command, ...SERVE]),
    ]);
    const prompts = resultOf<Listed>(listed).prompts;
    expect(prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'create-adr',
        'review-code-against-patterns',
        'explain_error',
        'review_code',
        'write_commit_message',
      ]),
    );
    expect(prompts.find((p) => p.name === 'create-adr')?.arguments).toContainEqual(
      expect.objectContaining({ name: 'title', required: true }),
    );
    const [old, now] = [resultOf<Got>(legacy), resultOf<Got>(modern)];
    for (const got of [old, now]) {
      expect(got.messages[0]?.role).toBe('user');
      expect(got.messages[0]?.content.text).toContain(ADR_REQUEST);
      expect(got.messages[0]?.content.text).toContain(ADR_EMBEDDED);
    }
    expect(now.messages).toEqual(old.messages);
    // A 2026-07-28 result names its server in _meta; an initialize-era one does not: the eras really differed.
    expect(now._meta?.[SERVER_INFO]).toMatchObject({ name: 'mcp-prompt-kit' });
    expect(old._meta?.[SERVER_INFO]).toBeUndefined();
  }, 240_000);

  it('lists and reads the --docs documents as resources', async () => {
    const [listed, read] = await Promise.all([
      inspect([...configArgs(), '--method', 'resources/list']),
      inspect([
        '--protocol-era',
        'modern',
        ...configArgs(),
        '--method',
        'resources/read',
        '--uri',
        'docs://style-guide.md',
      ]),
    ]);
    const uris = resultOf<Resources>(listed).resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        'architecture://adr/001-use-postgresql.md',
        'architecture://adr/template.md',
        'docs://style-guide.md',
      ]),
    );
    const contents = resultOf<Read>(read).contents;
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({ uri: 'docs://style-guide.md', mimeType: 'text/markdown' });
    expect(contents[0]?.text).toBe(await readFile(join(ROOT, 'examples/style/style-guide.md'), 'utf8'));
  }, 240_000);

  it("shows the server's error for an unknown prompt and for an argument outside its enum, exit 1", async () => {
    const [unknown, invalid] = await Promise.all([
      inspect([...configArgs(), '--method', 'prompts/get', '--prompt-name', 'no-such-prompt']),
      inspect([
        ...configArgs(),
        '--method',
        'prompts/get',
        '--prompt-name',
        'review_code',
        '--prompt-args',
        'code=x',
        'language=cobol',
      ]),
    ]);
    expect(errorOf(unknown).message).toBe('Unknown prompt: no-such-prompt');
    expect(errorOf(invalid).message).toBe('Prompt arguments do not conform to schema');
  }, 240_000);
});

describe('mcp-prompt-kit serve --http with the MCP inspector CLI', () => {
  it('gets a prompt and reads a document over streamable HTTP in both protocol eras', async () => {
    let stop: () => Promise<void> = async () => {};
    const served = await startServeHttp(
      join(ROOT, 'examples/prompts'),
      ['--docs', `architecture=${join(ROOT, 'examples/docs')}`, '--docs', `docs=${join(ROOT, 'examples/style')}`],
      (close) => (stop = close),
    );
    stderrOnFailure(served.stderr);
    try {
      const http = ['--server-url', served.url, '--transport', 'http'];
      const [legacy, modern, read] = await Promise.all([
        inspect(['--protocol-era', 'legacy', ...http, ...getAdr]),
        inspect(['--protocol-era', 'modern', ...http, ...getAdr]),
        inspect([
          '--protocol-era',
          'modern',
          ...http,
          '--method',
          'resources/read',
          '--uri',
          'architecture://adr/template.md',
        ]),
      ]);
      const [old, now] = [resultOf<Got>(legacy), resultOf<Got>(modern)];
      expect(old.messages[0]?.content.text).toContain(ADR_EMBEDDED);
      expect(now.messages).toEqual(old.messages);
      expect(now._meta?.[SERVER_INFO]).toMatchObject({ name: 'mcp-prompt-kit' });
      expect(old._meta?.[SERVER_INFO]).toBeUndefined();
      expect(resultOf<Read>(read).contents[0]?.text).toBe(
        await readFile(join(ROOT, 'examples/docs/adr/template.md'), 'utf8'),
      );
    } finally {
      await stop();
    }
  }, 240_000);
});
