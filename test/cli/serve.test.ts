/**
 * `mcp-prompt-kit serve` as a real child process, with real SDK clients: stdio (both protocol eras, SDK v1 and v2
 * clients), hot reload reaching a connected client, documents as resources, and streamable HTTP with Host and
 * Origin checks.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { StdioClientTransport as StdioClientV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpClientV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, wireError } from '../mcp/fixtures/clients.js';
import type { ClientKind, TestClient } from '../mcp/fixtures/clients.js';
import { tempDir, waitFor, writeFiles } from '../fs/temp.js';
import { childCoverageEnv } from '../support/processes.js';
import { CLI_COMMAND, ROOT, runCliInProcess, startServeHttp, stderrOnFailure } from './process.js';
import type { ServedHttp } from './process.js';

const DOCS = join(ROOT, 'examples/docs');
/** The per-request envelope of a 2026-07-28 request. */
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close().catch(() => {})));
});

const greet = (text: string) =>
  JSON.stringify({
    name: 'greet',
    arguments: [{ name: 'who', required: true }],
    messages: [{ role: 'user', content: text }],
  });

async function promptDir(dir?: string): Promise<string> {
  dir ??= await tempDir();
  await writeFiles(dir, {
    'greet.json': greet('Hello {{who}}'),
    'patterns.md': '---\nname: patterns\n---\nOur patterns:\n{{resource:architecture://patterns/*}}\n',
  });
  return dir;
}

async function textOf(client: TestClient, name: string, args: Record<string, string>): Promise<string | undefined> {
  const result = await client.getPrompt(name, args);
  const content = result.messages[0]?.content;
  return content?.type === 'text' ? content.text : undefined;
}

function stdioTransport(kind: ClientKind, args: string[], stderr: string[]): unknown {
  const params = {
    ...CLI_COMMAND,
    args: [...CLI_COMMAND.args, ...args],
    cwd: ROOT,
    env: childCoverageEnv(),
    stderr: 'pipe' as const,
  };
  const transport = kind === 'v1' ? new StdioClientV1(params) : new StdioClientV2(params);
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  return transport;
}

const PAIRINGS: [ClientKind, boolean][] = [
  ['v1', false],
  ['v2', false],
  ['v2', true],
];

describe('mcp-prompt-kit serve over stdio', () => {
  for (const [kind, modern] of PAIRINGS) {
    const era = modern ? '2026-07-28 (server/discover)' : '2025-11-25 (initialize)';
    it(`serves prompts and documents, and a --watch edit reaches the client in one list_changed: SDK ${kind} client, ${era}`, async () => {
      const dir = await promptDir();
      const stderr: string[] = [];
      stderrOnFailure(() => stderr.join(''));
      const client = createTestClient(kind, { modern });
      // A generous window: the two writes below land in it however slowly either process runs.
      await client.connect(
        stdioTransport(kind, ['serve', dir, '--watch', '--debounce', '1000', '--docs', `architecture=${DOCS}`], stderr),
      );
      open.push(() => client.close());

      const listed = await client.listPage();
      expect(listed.prompts.map((p) => p.name)).toEqual(['greet', 'patterns']);
      expect(await textOf(client, 'greet', { who: '<Ada & "Bob">' })).toBe('Hello <Ada & "Bob">');
      expect(await textOf(client, 'patterns', {})).toContain('--- architecture://patterns/cqrs.md ---\n# CQRS');
      const doc = await client.readResource('architecture://adr/template.md');
      expect(doc.contents[0]?.text).toMatch(/^# ADR NNN/);
      expect(
        await wireError(client.readResource('architecture://../prompts/architecture/create-adr.md')),
      ).toMatchObject({
        code: -32602,
        message: 'Resource access denied: architecture://../prompts/architecture/create-adr.md',
      });

      // An edit and an addition in one debounce window: one registry batch, one notification.
      await Promise.all([
        writeFile(join(dir, 'greet.json'), greet('Good morning, {{who}}!')),
        writeFile(join(dir, 'added.yaml'), 'name: added\nmessages: [{role: user, content: new}]\n'),
      ]);
      await waitFor(() => client.listChangedCount() >= 1, 30_000, 'notifications/prompts/list_changed');
      expect(await textOf(client, 'greet', { who: 'Ada' })).toBe('Good morning, Ada!');
      expect((await client.listPage()).prompts.map((p) => p.name)).toEqual(['added', 'greet', 'patterns']);
      // One more change, announced after anything the first batch could still send: then count what came.
      const reloads = () =>
        stderr
          .join('')
          .split('\n')
          .slice(0, -1)
          .filter((line) => line.includes('reloaded: '));
      await writeFile(join(dir, 'marker.yaml'), 'name: marker\nmessages: [{role: user, content: last}]\n');
      await waitFor(
        () => reloads().length >= 2 && client.listChangedCount() >= 2,
        30_000,
        'the reload of marker.yaml, announced',
      );
      expect(reloads()).toEqual([
        expect.stringMatching(/reloaded: (?=.*\+added)(?=.*~greet)/),
        expect.stringMatching(/reloaded: \+marker$/),
      ]);
      expect(client.listChangedCount()).toBe(2);
      expect((await client.listPage()).prompts.map((p) => p.name)).toEqual(['added', 'greet', 'marker', 'patterns']);
      expect(stderr.join('')).toMatch(/serving 2 prompt\(s\) from .* over stdio, watching for changes/);
    });
  }

  it('serve --watch serves resources/subscribe: an edit of a subscribed document reaches the client as resources/updated', async () => {
    const dir = await promptDir();
    const docs = await tempDir();
    await writeFiles(docs, { 'patterns/cqrs.md': '# CQRS\n', 'patterns/retry.md': '# Retry\n' });
    const stderr: string[] = [];
    stderrOnFailure(() => stderr.join(''));
    const client = createTestClient('v1');
    await client.connect(
      stdioTransport('v1', ['serve', dir, '--watch', '--debounce', '500', '--docs', `architecture=${docs}`], stderr),
    );
    open.push(() => client.close());
    expect(client.serverCapabilities()?.['resources']).toMatchObject({ subscribe: true });
    await client.subscribe('architecture://patterns/cqrs.md');
    // An edit of a document nobody subscribed to is not announced as updated.
    await writeFile(join(docs, 'patterns/retry.md'), '# Retry with backoff\n');
    await writeFile(join(docs, 'patterns/cqrs.md'), '# CQRS, revised\n');
    await waitFor(() => client.resourceUpdates().length >= 1, 30_000, 'notifications/resources/updated');
    expect(new Set(client.resourceUpdates())).toEqual(new Set(['architecture://patterns/cqrs.md']));
    expect((await client.readResource('architecture://patterns/cqrs.md')).contents[0]?.text).toBe('# CQRS, revised\n');
  });

  it('writes nothing but JSON-RPC messages to stdout', async () => {
    const dir = await promptDir();
    const child = spawn(CLI_COMMAND.command, [...CLI_COMMAND.args, 'serve', dir, '--docs', `architecture=${DOCS}`], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    open.push(async () => void child.kill());
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    stderrOnFailure(() => stderr);
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await waitFor(() => lines.length >= 1, 30_000, 'the initialize result');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'greet', arguments: {} } });
    send({ jsonrpc: '2.0', id: 3, method: 'resources/list', params: {} });
    await waitFor(() => lines.length >= 3, 30_000, 'the prompts/get error and the resources/list result');
    child.stdin.end();
    await new Promise((resolve) => child.once('close', resolve));
    type Message = {
      jsonrpc: string;
      id?: number;
      error?: { code: number; message: string };
      result?: { resources?: { uri: string; mimeType: string }[] };
    };
    const messages = lines.map((line) => JSON.parse(line) as Message);
    expect(messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
    expect(messages.find((m) => m.id === 2)).toMatchObject({
      error: { code: -32602, message: 'Missing required prompt arguments' },
    });
    const resources = messages.find((m) => m.id === 3)?.result?.resources ?? [];
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: 'architecture://adr/template.md', mimeType: 'text/markdown' }),
    );
    expect(resources.map((r) => r.uri)).toEqual([...resources.map((r) => r.uri)].sort());
    expect(stderr).toMatch(/mcp-prompt-kit: serving 2 prompt\(s\)/);
    expect(stderr).toMatch(/mcp-prompt-kit: stopping \(stdin closed\)/);
  });

  it('does not start when a prompt embeds documents no --docs root serves, naming it (exit 1)', async () => {
    const dir = await promptDir();
    const child = spawn(CLI_COMMAND.command, [...CLI_COMMAND.args, 'serve', dir], { cwd: ROOT });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(1);
    const file = join(dir, 'patterns.md');
    expect(stderr).toBe(
      `${file}:5:1: {{resource:architecture://patterns/*}}: nothing serves the scheme 'architecture' (no --docs given): pass --docs architecture=<dir>\n` +
        `mcp-prompt-kit serve: not starting: 1 prompt(s) would be left out or fail (errors above): patterns (${file}); ` +
        'fix them, or pass the --docs scheme=dir their documents need\n',
    );
  });

  it('does not start when a prompt file has an error, naming the prompt it would leave out (exit 1)', async () => {
    const dir = await promptDir();
    await writeFiles(dir, { 'broken.json': '{"name": "broken", "messages": [{"role": "system", "content": "x"}]}' });
    const child = spawn(
      CLI_COMMAND.command,
      [...CLI_COMMAND.args, 'serve', dir, '--watch', '--docs', `architecture=${DOCS}`],
      { cwd: ROOT },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(`${join(dir, 'broken.json')}:1:`);
    expect(stderr).toContain(
      `mcp-prompt-kit serve: not starting: 1 prompt(s) would be left out or fail (errors above): broken (${join(dir, 'broken.json')})`,
    );
  });

  it('a missing directory is a one-line error, exit 2', async () => {
    const result = await runCliInProcess(['serve', '/nonexistent/prompts', '--watch']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'mcp-prompt-kit serve: prompt directory /nonexistent/prompts does not exist\n',
    });
  });
});

/** Starts `serve --http 0`, stopped after the test (`until`: by the caller). */
function startHttp(
  dir: string,
  extra: string[] = [],
  until: (close: () => Promise<void>) => void = (close) => open.push(close),
): Promise<ServedHttp> {
  return startServeHttp(dir, extra, until);
}

describe('mcp-prompt-kit serve --http', () => {
  // One server for the tests that only read: the prompts and documents of promptDir(), in a directory of its own.
  let shared: { url: string; stderr: () => string };
  let sharedDir: string;
  let stopShared: () => Promise<void> = async () => {};
  beforeAll(async () => {
    sharedDir = await mkdtemp(join(tmpdir(), 'mcp-prompt-kit-serve-'));
    shared = await startHttp(
      await promptDir(sharedDir),
      ['--docs', `architecture=${DOCS}`],
      (close) => (stopShared = close),
    );
  });
  afterAll(async () => {
    await stopShared();
    await rm(sharedDir, { recursive: true, force: true });
  });

  const clients: [ClientKind, boolean][] = [
    ['v1', false],
    ['v2', false],
    ['v2', true],
  ];
  for (const [kind, modern] of clients) {
    it(`serves an SDK ${kind} client, ${modern ? '2026-07-28 era' : '2025-11-25 era'}`, async () => {
      const { url } = shared;
      stderrOnFailure(shared.stderr);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = createTestClient(kind, { modern });
      await client.connect(kind === 'v1' ? new HttpClientV1(new URL(url)) : new HttpClientV2(new URL(url)));
      open.push(() => client.close());
      expect((await client.listPage()).prompts.map((p) => p.name)).toEqual(['greet', 'patterns']);
      expect(await textOf(client, 'greet', { who: 'Ada' })).toBe('Hello Ada');
      expect(await wireError(client.getPrompt('greet', {}))).toMatchObject({
        code: -32602,
        message: 'Missing required prompt arguments',
      });
      expect((await client.readResource('architecture://patterns/outbox.md')).contents[0]?.text).toMatch(
        /^# Transactional outbox/,
      );
    });
  }

  it('answers the server/discover probe of the 2026-07-28 era', async () => {
    const { url } = shared;
    stderrOnFailure(shared.stderr);
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const body = JSON.parse(text) as { result: { supportedVersions: string[]; capabilities: Record<string, unknown> } };
    expect(body.result.supportedVersions).toContain('2026-07-28');
    // Without --watch nothing changes, so no list_changed is promised.
    expect(body.result.capabilities).toMatchObject({ prompts: { listChanged: false } });
    expect(body.result).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
  });

  /** The cache fields of prompts/list, resources/list, resources/read and server/discover as a client sees them. */
  async function cacheHintsOf(client: TestClient, modern = true): Promise<Record<string, unknown>[]> {
    const read = { uri: 'architecture://patterns/outbox.md' };
    const results = [
      await client.raw('prompts/list', {}),
      await client.raw('resources/list', {}),
      await client.raw('resources/read', read),
      ...(modern ? [await client.raw('server/discover', {})] : []),
    ] as Record<string, unknown>[];
    return results.map((r) => ({ ttlMs: r['ttlMs'], cacheScope: r['cacheScope'] }));
  }

  it('hints an hour for prompts and server/discover without --watch, and 0 for documents read from disk', async () => {
    stderrOnFailure(shared.stderr);
    const modern = createTestClient('v2', { modern: true });
    await modern.connect(new HttpClientV2(new URL(shared.url)));
    open.push(() => modern.close());
    const hour = { ttlMs: 3_600_000, cacheScope: 'public' };
    const live = { ttlMs: 0, cacheScope: 'public' };
    expect(await cacheHintsOf(modern)).toEqual([hour, live, live, hour]);
    const legacy = createTestClient('v2');
    await legacy.connect(new HttpClientV2(new URL(shared.url)));
    open.push(() => legacy.close());
    const none = { ttlMs: undefined, cacheScope: undefined };
    expect(await cacheHintsOf(legacy, false)).toEqual([none, none, none]);
  });

  it('derives the hints from --debounce with --watch, and --cache-ttl / --cache-scope override them', async () => {
    const [watched, overridden] = await Promise.all([
      promptDir().then((dir) =>
        startHttp(dir, ['--docs', `architecture=${DOCS}`, '--watch', '--debounce', '20', '--cache-scope', 'private']),
      ),
      promptDir().then((dir) => startHttp(dir, ['--docs', `architecture=${DOCS}`, '--cache-ttl', '1000'])),
    ]);
    stderrOnFailure(() => watched.stderr() + overridden.stderr());
    const clients = [createTestClient('v2', { modern: true }), createTestClient('v2', { modern: true })];
    await clients[0]!.connect(new HttpClientV2(new URL(watched.url)));
    await clients[1]!.connect(new HttpClientV2(new URL(overridden.url)));
    for (const client of clients) open.push(() => client.close());
    // Prompts: 6 watch windows then 10 × 50 ms of notifier debounce; documents: 2 watch windows.
    expect(await cacheHintsOf(clients[0]!)).toEqual([
      { ttlMs: 6 * 20 + 500, cacheScope: 'private' },
      { ttlMs: 40, cacheScope: 'private' },
      { ttlMs: 40, cacheScope: 'private' },
      { ttlMs: 3_600_000, cacheScope: 'private' },
    ]);
    expect(await cacheHintsOf(clients[1]!)).toEqual(Array(4).fill({ ttlMs: 1000, cacheScope: 'public' }));
  });

  it('refuses a --cache-ttl or --cache-scope it cannot send, exit 2', async () => {
    const dir = await promptDir();
    expect(await runCliInProcess(['serve', dir, '--cache-ttl', '-5'])).toMatchObject({
      code: 2,
      stderr: "mcp-prompt-kit serve: --cache-ttl must be an integer from 0 to 86400000, got '-5'\n",
    });
    expect(await runCliInProcess(['serve', dir, '--cache-ttl', '86400001'])).toMatchObject({ code: 2 });
    expect(await runCliInProcess(['serve', dir, '--cache-scope', 'shared'])).toMatchObject({
      code: 2,
      stderr: "mcp-prompt-kit serve: --cache-scope must be public or private, got 'shared'\n",
    });
  });

  // The 2026-07-28 standard headers: MCP-Protocol-Version and Mcp-Method on every request, Mcp-Name mirroring
  // params.name (prompts/get) or params.uri (resources/read), plain or as a =?base64?...?= sentinel.
  const HEADER_CELLS: {
    what: string;
    method: string;
    params: Record<string, unknown>;
    headers: Record<string, string>;
    mismatch?: RegExp;
  }[] = [
    {
      what: 'matching headers',
      method: 'prompts/get',
      params: { name: 'greet', arguments: { who: 'Ada' } },
      headers: { 'mcp-method': 'prompts/get', 'mcp-name': 'greet' },
    },
    {
      what: 'Mcp-Name as a base64 sentinel',
      method: 'prompts/get',
      params: { name: 'greet', arguments: { who: 'Ada' } },
      headers: { 'mcp-method': 'prompts/get', 'mcp-name': `=?base64?${btoa('greet')}?=` },
    },
    {
      what: 'Mcp-Method naming another method',
      method: 'prompts/get',
      params: { name: 'greet' },
      headers: { 'mcp-method': 'prompts/list', 'mcp-name': 'greet' },
      mismatch: /body names method prompts\/get but the Mcp-Method header names prompts\/list/,
    },
    {
      what: 'no Mcp-Method',
      method: 'prompts/list',
      params: {},
      headers: {},
      mismatch: /required Mcp-Method header is absent/,
    },
    {
      what: 'Mcp-Name naming another prompt',
      method: 'prompts/get',
      params: { name: 'greet' },
      headers: { 'mcp-method': 'prompts/get', 'mcp-name': 'patterns' },
      mismatch: /params\.name="greet" but the Mcp-Name header names "patterns"/,
    },
    {
      what: 'no Mcp-Name on prompts/get',
      method: 'prompts/get',
      params: { name: 'greet' },
      headers: { 'mcp-method': 'prompts/get' },
      mismatch: /required Mcp-Name header is absent/,
    },
    {
      what: 'an invalid base64 sentinel',
      method: 'prompts/get',
      params: { name: 'greet' },
      headers: { 'mcp-method': 'prompts/get', 'mcp-name': '=?base64?*?=' },
      mismatch: /invalid Base64 sentinel/,
    },
    {
      what: 'Mcp-Name naming another document',
      method: 'resources/read',
      params: { uri: 'architecture://adr/template.md' },
      headers: { 'mcp-method': 'resources/read', 'mcp-name': 'architecture://adr/other.md' },
      mismatch: /params\.uri="architecture:\/\/adr\/template\.md" but the Mcp-Name header/,
    },
    {
      what: 'Mcp-Method on a subscriptions/listen body that names another',
      method: 'subscriptions/listen',
      params: { notifications: { promptsListChanged: true } },
      headers: { 'mcp-method': 'prompts/list' },
      mismatch: /body names method subscriptions\/listen/,
    },
  ];
  for (const cell of HEADER_CELLS) {
    it(`${cell.mismatch === undefined ? 'serves' : 'refuses with 400 and -32020 (HeaderMismatch)'} a 2026-07-28 request with ${cell.what}`, async () => {
      stderrOnFailure(shared.stderr);
      const response = await fetch(shared.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          ...cell.headers,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: cell.method,
          params: { ...cell.params, _meta: MODERN_META },
        }),
      });
      const body = (await response.json()) as {
        result?: { messages: unknown[] };
        error?: { code: number; message: string };
      };
      if (cell.mismatch === undefined) {
        expect(response.status).toBe(200);
        expect(body.result?.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }]);
      } else {
        expect(response.status).toBe(400);
        expect(body.error?.code).toBe(-32020);
        expect(body.error?.message).toMatch(cell.mismatch);
      }
    });
  }

  it('asks a 2026-07-28 client that declared form elicitation for missing arguments, then renders its answers', async () => {
    const { url } = shared;
    stderrOnFailure(shared.stderr);
    const client = new ClientV2(
      { name: 'elicitation', version: '1' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
    );
    const asked: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { who: 'Ada' } };
    });
    await client.connect(new HttpClientV2(new URL(url)));
    open.push(() => client.close());
    // Each 2026-07-28 request is served by a server of its own: the retry lands on another one, which accepts it.
    const result = await client.getPrompt({ name: 'greet' });
    expect(result.messages[0]?.content).toEqual({ type: 'text', text: 'Hello Ada' });
    expect(asked).toEqual([
      {
        mode: 'form',
        message: "The prompt 'greet' needs: who",
        requestedSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
      },
    ]);
  });

  it('refuses a foreign Host header and a foreign Origin with 403, and unknown paths with 404', async () => {
    const { url } = shared;
    stderrOnFailure(shared.stderr);
    const { port } = new URL(url);
    const post = (headers: Record<string, string>, path = '/mcp') =>
      new Promise<number>((resolve, reject) => {
        // node:http lets us send any Host header (fetch does not).
        import('node:http').then(({ request }) => {
          const req = request(
            {
              host: '127.0.0.1',
              port,
              path,
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                ...headers,
              },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.once('error', reject);
          req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
        }, reject);
      });
    expect(await post({ host: 'evil.example' })).toBe(403);
    expect(await post({ host: `127.0.0.1:${port}`, origin: 'http://evil.example' })).toBe(403);
    expect(await post({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).not.toBe(403);
    expect(await post({ host: `127.0.0.1:${port}` }, '/other')).toBe(404);
  });
});

describe('mcp-prompt-kit serve --http --no-elicitation', () => {
  it('answers a 2026-07-28 client that declared form elicitation with the -32602, asking nothing', async () => {
    const served = await startHttp(await promptDir(), ['--docs', `architecture=${DOCS}`, '--no-elicitation']);
    stderrOnFailure(served.stderr);
    const client = new ClientV2(
      { name: 'elicitation', version: '1' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
    );
    let asked = 0;
    client.setRequestHandler('elicitation/create', async () => {
      asked++;
      return { action: 'accept', content: { who: 'Ada' } };
    });
    await client.connect(new HttpClientV2(new URL(served.url)));
    open.push(() => client.close());
    expect(await wireError(client.getPrompt({ name: 'greet' }))).toEqual({
      code: -32602,
      message: 'Missing required prompt arguments',
      data: { missing_arguments: ['who'], provided_count: 0, required_count: 1 },
    });
    expect(asked).toBe(0);
  });
});

describe('mcp-prompt-kit serve with example cases', () => {
  it('starts and serves a prompt whose example cases have a problem, printing the problem', async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      'greet.yaml': 'name: greet\nmessages: [{ role: user, content: hi }]\ncases:\n  - name: c\n    contans: hi\n',
    });
    const served = await startHttp(dir);
    stderrOnFailure(served.stderr);
    const client = createTestClient('v1');
    await client.connect(new HttpClientV1(new URL(served.url)));
    open.push(() => client.close());
    expect((await client.listPage()).prompts.map((p) => p.name)).toEqual(['greet']);
    expect(served.stderr()).toContain(`${join(dir, 'greet.yaml')}:5:5: /cases/0/contans: unknown property 'contans'`);
    expect(served.stderr()).not.toContain('not starting');
  });
});
