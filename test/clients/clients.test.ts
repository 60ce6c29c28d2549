/**
 * `mcp-prompt-kit serve` with the MCP clients of the agent frameworks, each as an application would use it (test/clients/
 * drive.mjs): the Vercel AI SDK's `@ai-sdk/mcp`, Mastra's `@mastra/mcp` and LangChain's `@langchain/mcp-adapters`.
 * Each lists the prompts, gets one and gets it without its required argument, over stdio (the client starts the server)
 * and over streamable HTTP (one `serve --http 0` shared by all).
 *
 * Each client runs in a child process under the Node its package declares: the AI SDK and Mastra need Node 22 (a
 * binary of that major from scripts/node-binary.sh when this Node is older), LangChain runs on this Node. The servers
 * stay on this Node.
 */
import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_COMMAND, ROOT, startServeHttp, withStderr } from '../cli/process.js';
import { STARTS_CHILD_PROCESSES } from '../support/processes.js';

const DRIVER = join(ROOT, 'test/clients/drive.mjs');
const SERVE_ARGS = [
  join(ROOT, 'examples/prompts'),
  '--docs',
  `architecture=${join(ROOT, 'examples/docs')}`,
  '--docs',
  `docs=${join(ROOT, 'examples/style')}`,
];
const STDIO = { command: CLI_COMMAND.command, args: [...CLI_COMMAND.args, 'serve', ...SERVE_ARGS] };
const REQUEST = 'Draft an architecture decision record titled "Adopt JSON".';
const EMBEDDED = '# ADR 001: Use PostgreSQL for transactional data';

interface Driven {
  target: { stdio?: unknown; http?: string };
  failure?: string;
  prompts?: string[];
  text?: string;
  era?: string;
  error?: { code?: number; message: string; data?: unknown };
}

/** The major a client package's `engines.node` (`>=X` or `>=X.Y.Z`) asks for, checked against what this test knows. */
async function enginesMajor(name: string): Promise<number> {
  const require = createRequire(import.meta.url);
  const manifest = JSON.parse(await readFile(require.resolve(`${name}/package.json`), 'utf8')) as {
    engines?: { node?: string };
  };
  const match = /^>=\s*(\d+)(?:\.\d+){0,2}$/.exec(manifest.engines?.node?.trim() ?? '');
  if (match === null) throw new Error(`${name}: engines.node is '${manifest.engines?.node}', not '>=X[.Y.Z]'`);
  return Number(match[1]);
}

/** This Node when its major is at least `major`, else the latest `major`.x from scripts/node-binary.sh. */
async function nodeFor(major: number): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) >= major) return process.execPath;
  const { stdout } = await promisify(execFile)('bash', [join(ROOT, 'scripts/node-binary.sh'), String(major)], {
    cwd: ROOT,
    timeout: 240_000,
  });
  return join(stdout.trim(), 'node');
}

/** Runs drive.mjs for one client over stdio and over `http` under `node`; its results, one per transport. */
function drive(node: string, client: string, http: string): Promise<Driven[]> {
  const targets = JSON.stringify([{ stdio: STDIO }, { http }]);
  return new Promise((resolve, reject) => {
    const child = spawn(node, [DRIVER, client, targets], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.once('error', (error) => reject(withStderr(error, stderr)));
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(withStderr(new Error(`${client}: the driver exited with ${code}`), stderr));
      const results = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Driven);
      for (const result of results) {
        if (result.failure !== undefined)
          return reject(withStderr(new Error(`${client} ${JSON.stringify(result.target)}: ${result.failure}`), stderr));
      }
      resolve(results);
    });
  });
}

type Era = '2025-11-25' | '2026-07-28';

/**
 * What every client must show on each transport: the listing, the rendered prompt and the -32602 data, in the protocol
 * era the client chose (a 2026-07-28 result names its server in `_meta`) where its choice does not depend on timing.
 */
function expectPromptsAndErrorData(results: Driven[], eras: { stdio?: Era; http: Era }): void {
  expect(results.map((r) => Object.keys(r.target)[0])).toEqual(['stdio', 'http']);
  for (const result of results) {
    expect(result.prompts).toEqual(expect.arrayContaining(['create-adr', 'review_code', 'write_commit_message']));
    expect(result.text).toContain(REQUEST);
    expect(result.text).toContain(EMBEDDED);
    const era = result.target.http === undefined ? eras.stdio : eras.http;
    if (era !== undefined) expect(result.era).toBe(era);
    expect(result.error?.code).toBe(-32602);
    expect(result.error?.message).toContain('Missing required prompt arguments');
    expect(result.error?.data).toEqual({ missing_arguments: ['title'], provided_count: 0, required_count: 1 });
  }
}

let url = '';
let stop: () => Promise<void> = async () => {};

beforeAll(async () => {
  if (!STARTS_CHILD_PROCESSES) return;
  url = (await startServeHttp(SERVE_ARGS[0]!, SERVE_ARGS.slice(1), (close) => (stop = close))).url;
});

afterAll(async () => {
  await stop();
});

describe.runIf(STARTS_CHILD_PROCESSES).concurrent('agent framework MCP clients with mcp-prompt-kit serve', () => {
  it('the Vercel AI SDK client (@ai-sdk/mcp; 2026-07-28 era on HTTP) lists, gets and sees the -32602 data over stdio and HTTP', async () => {
    const node = await nodeFor(await enginesMajor('@ai-sdk/mcp'));
    // Over stdio it waits 1 s for the server/discover answer, then falls back to initialize: the era depends on how
    // fast the server starts.
    expectPromptsAndErrorData(await drive(node, 'ai-sdk', url), { http: '2026-07-28' });
  }, 300_000);

  it("Mastra's MCPClient (@mastra/mcp, 2026-07-28 era) lists, gets and sees the -32602 data over stdio and HTTP", async () => {
    const node = await nodeFor(await enginesMajor('@mastra/mcp'));
    // Its server/discover probe waits as long as any request (60 s by default): the era does not depend on timing.
    expectPromptsAndErrorData(await drive(node, 'mastra', url), { stdio: '2026-07-28', http: '2026-07-28' });
  }, 300_000);

  it("LangChain's MultiServerMCPClient (@langchain/mcp-adapters, 2025-11-25 era) lists, gets and sees the -32602 data over stdio and HTTP", async () => {
    const node = await nodeFor(await enginesMajor('@langchain/mcp-adapters'));
    expectPromptsAndErrorData(await drive(node, 'langchain', url), { stdio: '2025-11-25', http: '2025-11-25' });
  }, 300_000);
});
