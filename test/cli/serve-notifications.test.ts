/**
 * `mcp-prompt-kit serve --watch`: list_changed reaches real SDK clients on every transport and protocol era. One
 * table: stdio and streamable HTTP, each with the 2025-11-25 era (v1 and v2 clients: unsolicited notifications, on
 * the session's GET stream over HTTP) and the 2026-07-28 era (v2 client: the `subscriptions/listen` stream). Every
 * case edits a prompt file and a document, sees `notifications/prompts/list_changed` and
 * `notifications/resources/list_changed` and `notifications/resources/updated` for the document it subscribed to
 * (2026: through the stream's `resourceSubscriptions`), then gets the new text. One HTTP server serves all the HTTP
 * cases.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StdioClientTransport as StdioClientV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpClientV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport as HttpClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient } from '../mcp/fixtures/clients.js';
import type { ClientKind, TestClient } from '../mcp/fixtures/clients.js';
import { waitFor, writeFiles } from '../fs/temp.js';
import { childCoverageEnv } from '../support/processes.js';
import { CLI_COMMAND, ROOT, startServeHttp, stderrOnFailure } from './process.js';
import type { ServedHttp } from './process.js';

type Transport = 'stdio' | 'http';
type Era = '2025-11-25' | '2026-07-28';

interface Case {
  transport: Transport;
  era: Era;
  kind: ClientKind;
  /** How list_changed travels in this cell (the delivery matrix of docs/mcp.md). */
  via: string;
}

const CASES: readonly Case[] = [
  { transport: 'stdio', era: '2025-11-25', kind: 'v1', via: 'unsolicited on the connection' },
  { transport: 'stdio', era: '2025-11-25', kind: 'v2', via: 'unsolicited on the connection' },
  { transport: 'stdio', era: '2026-07-28', kind: 'v2', via: 'the subscriptions/listen subscription' },
  { transport: 'http', era: '2025-11-25', kind: 'v1', via: "the session's GET stream" },
  { transport: 'http', era: '2025-11-25', kind: 'v2', via: "the session's GET stream" },
  { transport: 'http', era: '2026-07-28', kind: 'v2', via: 'the subscriptions/listen SSE stream' },
];

const greet = (text: string) =>
  JSON.stringify({
    name: 'greet',
    arguments: [{ name: 'who', required: true }],
    messages: [{ role: 'user', content: text }],
  });

const DOC = 'notes://guide.md';

let prompts: string;
let docs: string;
let http: ServedHttp;
let stopHttp: () => Promise<void> = async () => {};
const open: (() => Promise<void>)[] = [];

/** The arguments of `serve` for the shared directories. */
const serveArgs = (): string[] => [prompts, '--watch', '--debounce', '50', '--docs', `notes=${docs}`];

beforeAll(async () => {
  prompts = await mkdtemp(join(tmpdir(), 'mcp-prompt-kit-notify-'));
  docs = await mkdtemp(join(tmpdir(), 'mcp-prompt-kit-notify-docs-'));
  await writeFiles(prompts, { 'greet.json': greet('Hello {{who}}') });
  await writeFiles(docs, { 'guide.md': '# Guide\n' });
  http = await startServeHttp(serveArgs()[0]!, serveArgs().slice(1), (stop) => (stopHttp = stop));
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close().catch(() => {})));
});

afterAll(async () => {
  await stopHttp();
  await Promise.all([prompts, docs].map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * SDK v2's stdio client, probing the era in place: the base class probes `server/discover` on a second, throwaway
 * child (for servers that exit on it), which `serve` does not need; serve.test.ts covers that path.
 */
class InPlaceStdioClientV2 extends StdioClientV2 {}

/** Connects a client of the case to a fresh stdio child or to the shared HTTP server; `stderr` gets the server's. */
async function connect(c: Case): Promise<{ client: TestClient; stderr: () => string }> {
  const client = createTestClient(c.kind, c.era === '2026-07-28' ? { modern: true, resourceSubscriptions: [DOC] } : {});
  if (c.transport === 'http') {
    const url = new URL(http.url);
    await client.connect(c.kind === 'v1' ? new HttpClientV1(url) : new HttpClientV2(url));
    open.push(() => client.close());
    return { client, stderr: http.stderr };
  }
  const chunks: string[] = [];
  const params = {
    ...CLI_COMMAND,
    args: [...CLI_COMMAND.args, 'serve', ...serveArgs()],
    cwd: ROOT,
    env: childCoverageEnv(),
    stderr: 'pipe' as const,
  };
  const transport = c.kind === 'v1' ? new StdioClientV1(params) : new InPlaceStdioClientV2(params);
  transport.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  await client.connect(transport);
  open.push(() => client.close());
  return { client, stderr: () => chunks.join('') };
}

async function promptText(client: TestClient): Promise<string | undefined> {
  const content = (await client.getPrompt('greet', { who: 'Ada' })).messages[0]?.content;
  return content?.type === 'text' ? content.text : undefined;
}

describe('mcp-prompt-kit serve --watch: list_changed and resources/updated on every transport and era', () => {
  for (const [i, c] of CASES.entries()) {
    it(`reaches an SDK ${c.kind} client over ${c.transport}, ${c.era} era, through ${c.via}`, async () => {
      const { client, stderr } = await connect(c);
      stderrOnFailure(stderr);
      expect(client.serverCapabilities()).toMatchObject({
        prompts: { listChanged: true },
        resources: { listChanged: true },
      });
      if (c.era === '2026-07-28')
        expect(client.honoredFilter()).toEqual({
          promptsListChanged: true,
          resourcesListChanged: true,
          resourceSubscriptions: [DOC],
        });
      else await client.subscribe(DOC);
      const before = await promptText(client);
      expect(before).toMatch(/^(Hello|Case \d) Ada$/);

      // A prompt edit: one prompts/list_changed, then prompts/get has the new text.
      await writeFile(join(prompts, 'greet.json'), greet(`Case ${i} {{who}}`));
      await waitFor(() => client.listChangedCount() >= 1, 30_000, 'notifications/prompts/list_changed');
      expect(await promptText(client)).toBe(`Case ${i} Ada`);

      // A document edit under --docs: resources/list_changed and resources/updated for the subscribed URI (through
      // resources/subscribe, or the stream's resourceSubscriptions), then resources/read has the new text.
      await writeFile(join(docs, 'guide.md'), `# Guide, case ${i}\n`);
      await waitFor(() => client.resourcesChangedCount() >= 1, 30_000, 'notifications/resources/list_changed');
      await waitFor(() => client.resourceUpdates().includes(DOC), 30_000, 'notifications/resources/updated');
      expect((await client.readResource(DOC)).contents[0]?.text).toBe(`# Guide, case ${i}\n`);
    });
  }

  it("holds a 2025-era session's list_changed while it has no GET stream, and sends it when one opens", async () => {
    stderrOnFailure(http.stderr);
    const opened = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INITIALIZE }, {});
    const session = opened.headers.get('mcp-session-id');
    expect(session).not.toBeNull();
    await opened.text();
    const inSession = { 'mcp-session-id': session!, 'mcp-protocol-version': '2025-11-25' };
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, inSession)).status).toBe(202);

    await writeFile(join(prompts, 'greet.json'), greet('Held {{who}}'));
    const held = `session ${session!.slice(0, 8)}: no GET stream open; list_changed held until one opens`;
    await waitFor(() => http.stderr().includes(held), 30_000, 'the list_changed to be held');

    const stream = await fetch(http.url, { headers: { accept: 'text/event-stream', ...inSession } });
    expect(stream.status).toBe(200);
    const events = sse(stream);
    try {
      expect(await events.next()).toMatchObject({ method: 'notifications/prompts/list_changed' });
    } finally {
      await events.close();
    }
  });

  it('delivers on a subscriptions/listen stream only the change types its filter asks for', async () => {
    stderrOnFailure(http.stderr);
    const witness = createTestClient('v2', { modern: true });
    await witness.connect(new HttpClientV2(new URL(http.url)));
    open.push(() => witness.close());
    const listen = await post(
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'subscriptions/listen',
        params: { notifications: { promptsListChanged: true }, _meta: META },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
    );
    expect(listen.status).toBe(200);
    const events = sse(listen);
    try {
      expect(await events.next()).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { promptsListChanged: true } },
      });
      // A document change reaches the witness (it asked for both types), and with it every stream on the server.
      await writeFile(join(docs, 'guide.md'), '# Guide, filtered\n');
      await waitFor(() => witness.resourcesChangedCount() >= 1, 30_000, 'resources/list_changed at the witness');
      await writeFile(join(prompts, 'greet.json'), greet('Filtered {{who}}'));
      // The next message on the filtered stream is the prompt change: the document change never came.
      expect(await events.next()).toMatchObject({ method: 'notifications/prompts/list_changed' });
    } finally {
      await events.close();
    }
  });
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const INITIALIZE = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };

/** POSTs one JSON-RPC message to the shared HTTP server. */
function post(message: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(http.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
}

/** The JSON-RPC messages of an SSE response, one at a time. */
function sse(response: Response): { next(): Promise<Record<string, unknown>>; close(): Promise<void> } {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next() {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (data !== '') return JSON.parse(data) as Record<string, unknown>;
          continue;
        }
        const { done, value } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += value;
      }
    },
    close: () => reader.cancel().catch(() => {}),
  };
}
