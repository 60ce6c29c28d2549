/**
 * `mcp-prompt-kit serve --http` for 2025-11-25 clients: sessions (Mcp-Session-Id) with the GET stream that carries
 * list_changed, bounded in number and idle time, ended by DELETE; capabilities only for what is delivered; and which
 * Host headers are accepted on and off loopback.
 */
import { request as httpRequest } from 'node:http';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { StreamableHTTPClientTransport as HttpClientV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport as HttpClientV2 } from '@modelcontextprotocol/client';
import { hostHeaderValidationResponse, localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { allowedHostname, planHttp } from '../../src/cli/hosts.js';
import { createTestClient } from '../mcp/fixtures/clients.js';
import type { TestClient } from '../mcp/fixtures/clients.js';
import { tempDir, waitFor, writeFiles } from '../fs/temp.js';
import { STARTS_CHILD_PROCESSES } from '../support/processes.js';
import { ROOT, runCliInProcess, startServeHttp } from './process.js';
import type { ServedHttp } from './process.js';

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

async function promptDir(): Promise<string> {
  const dir = await tempDir();
  await writeFiles(dir, { 'greet.json': greet('Hello {{who}}') });
  return dir;
}

/** Starts `serve <dir> --http 0 ...`, stopped after the test. */
function serveHttp(dir: string, extra: string[] = []): Promise<ServedHttp> {
  return startServeHttp(dir, extra, (stop) => open.push(stop));
}

async function textOf(client: TestClient, name: string, args: Record<string, string>): Promise<string | undefined> {
  const result = await client.getPrompt(name, args);
  const content = result.messages[0]?.content;
  return content?.type === 'text' ? content.text : undefined;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function initialize(id = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
}

/** POSTs initialize; resolves with the status, the session id and the body. */
async function openSession(url: string): Promise<{ status: number; session: string | null; body: string }> {
  const response = await fetch(url, { method: 'POST', headers: HEADERS, body: initialize() });
  return { status: response.status, session: response.headers.get('mcp-session-id'), body: await response.text() };
}

/** The result of the first JSON-RPC message in an SSE or JSON body. */
function firstMessage(body: string): { result?: Record<string, unknown>; error?: { code: number; message: string } } {
  const data = body.split('\n').find((line) => line.startsWith('data: '));
  return JSON.parse(data === undefined ? body : data.slice(6)) as {
    result?: Record<string, unknown>;
    error?: { code: number; message: string };
  };
}

describe.runIf(STARTS_CHILD_PROCESSES)('mcp-prompt-kit serve --http: 2025-11-25 sessions', () => {
  it('delivers list_changed for an addition and a removal to SDK v2 clients of both eras from one watched server', async () => {
    const dir = await promptDir();
    const served = await serveHttp(dir, ['--watch', '--debounce', '50']);
    const legacy = createTestClient('v2');
    await legacy.connect(new HttpClientV2(new URL(served.url)));
    open.push(() => legacy.close());
    const modern = createTestClient('v2', { modern: true });
    await modern.connect(new HttpClientV2(new URL(served.url)));
    open.push(() => modern.close());
    expect(await textOf(legacy, 'greet', { who: 'Ada' })).toBe('Hello Ada');
    expect(await textOf(modern, 'greet', { who: 'Ada' })).toBe('Hello Ada');
    await waitFor(() => served.stderr().includes('opened'), 30_000, 'the 2025 session to open');

    await writeFiles(dir, { 'added.yaml': 'name: added\nmessages: [{role: user, content: new}]\n' });
    await waitFor(
      () => legacy.listChangedCount() >= 1 && modern.listChangedCount() >= 1,
      30_000,
      'list_changed on both',
    );
    expect((await legacy.listPage()).prompts.map((p) => p.name)).toEqual(['added', 'greet']);
    expect(served.stderr()).toMatch(/mcp-prompt-kit: reloaded: \+added\n/);

    await rm(join(dir, 'added.yaml'));
    await waitFor(
      () => legacy.listChangedCount() >= 2 && modern.listChangedCount() >= 2,
      30_000,
      'list_changed for the removal',
    );
    expect((await modern.listPage()).prompts.map((p) => p.name)).toEqual(['greet']);
    expect(served.stderr()).toMatch(/mcp-prompt-kit: reloaded: -added\n/);
  });

  it('promises no list_changed without --watch, in either era', async () => {
    const served = await serveHttp(await promptDir(), ['--docs', `architecture=${join(ROOT, 'examples/docs')}`]);
    const legacy = createTestClient('v1');
    await legacy.connect(new HttpClientV1(new URL(served.url)));
    open.push(() => legacy.close());
    expect(legacy.serverCapabilities()).toMatchObject({
      prompts: { listChanged: false },
      resources: { listChanged: false },
    });
    const modern = createTestClient('v2', { modern: true });
    await modern.connect(new HttpClientV2(new URL(served.url)));
    open.push(() => modern.close());
    expect(modern.serverCapabilities()).toMatchObject({
      prompts: { listChanged: false },
      resources: { listChanged: false },
    });
    // Its subscriptions/listen stream is acknowledged with nothing honored.
    expect(modern.honoredFilter()).toEqual({});
  });

  it('refuses a request without Mcp-Session-Id (400) and an unknown one (404), and ends a session on DELETE', async () => {
    const served = await serveHttp(await promptDir());
    const list = (session?: string) =>
      fetch(served.url, {
        method: 'POST',
        headers: {
          ...HEADERS,
          'mcp-protocol-version': '2025-11-25',
          ...(session === undefined ? {} : { 'mcp-session-id': session }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'prompts/list' }),
      });
    const without = await list();
    expect(without.status).toBe(400);
    expect(firstMessage(await without.text()).error?.message).toMatch(/^Mcp-Session-Id header required/);
    const unknown = await list('00000000-0000-0000-0000-000000000000');
    expect(unknown.status).toBe(404);
    expect(firstMessage(await unknown.text()).error).toMatchObject({
      code: -32001,
      message: expect.stringMatching(/^Session not found/),
    });

    const { session } = await openSession(served.url);
    expect(session).not.toBeNull();
    const listed = await list(session!);
    expect(listed.status).toBe(200);
    expect(firstMessage(await listed.text()).result?.['prompts']).toEqual([expect.objectContaining({ name: 'greet' })]);
    const ended = await fetch(served.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': session!, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(ended.status).toBe(200);
    expect((await list(session!)).status).toBe(404);
    expect(served.stderr()).toMatch(/session [0-9a-f]{8} closed: ended by the client \(DELETE\) \(0 open\)/);
  });

  it('holds at most --max-sessions sessions: the one idle the longest makes room, and when none is idle a new one gets 503 saying why', async () => {
    const served = await serveHttp(await promptDir(), ['--max-sessions', '2']);
    const first = await openSession(served.url);
    const second = await openSession(served.url);
    expect([first.status, second.status]).toEqual([200, 200]);
    // Both idle (no request in flight, no stream open): the older one is closed for the new one.
    const third = await openSession(served.url);
    expect(third.status).toBe(200);
    expect(served.stderr()).toContain(
      `session ${first.session!.slice(0, 8)} closed: idle the longest, closed to make room for a new session (--max-sessions 2)`,
    );
    const ping = (session: string) =>
      fetch(served.url, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      });
    expect((await ping(first.session!)).status).toBe(404);
    expect((await ping(second.session!)).status).toBe(200);

    // A session whose client holds its GET stream open is in use: with both in use, nothing can make room.
    for (const session of [second.session!, third.session!]) {
      const stop = new AbortController();
      open.push(async () => stop.abort());
      const stream = await fetch(served.url, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
        signal: stop.signal,
      });
      expect(stream.status).toBe(200);
    }
    const refused = await openSession(served.url);
    expect(refused.status).toBe(503);
    expect(refused.session).toBeNull();
    expect(firstMessage(refused.body).error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/^Too many sessions: this server holds at most 2 at once and all are in use/),
    });
    const client = createTestClient('v1');
    await expect(client.connect(new HttpClientV1(new URL(served.url)))).rejects.toThrow(/Too many sessions/);
  });

  it('closes a session idle for --idle-timeout ms, but not one whose client holds the GET stream open', async () => {
    const served = await serveHttp(await promptDir(), ['--idle-timeout', '1000', '--watch']);
    const idle = await openSession(served.url);
    const listening = createTestClient('v1');
    const transport = new HttpClientV1(new URL(served.url));
    await listening.connect(transport);
    open.push(() => listening.close());
    await waitFor(
      () => served.stderr().includes(`session ${idle.session!.slice(0, 8)} closed: idle for 1000 ms`),
      30_000,
      'the idle session to close',
    );
    const gone = await fetch(served.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': idle.session!, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    expect(gone.status).toBe(404);
    // The listening client's GET stream keeps its session: it still answers, and still hears of changes.
    expect(served.stderr()).not.toContain(`session ${transport.sessionId!.slice(0, 8)} closed`);
    expect((await listening.listPage()).prompts.map((p) => p.name)).toEqual(['greet']);
  });
});

/** A request with any Host header (fetch cannot set one); resolves with the status. */
function withHost(url: string, host: string): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...HEADERS, host } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.end(initialize());
  });
}

describe('mcp-prompt-kit serve --http: Host headers', () => {
  it.runIf(STARTS_CHILD_PROCESSES)(
    'on loopback accepts loopback names only (DNS-rebinding protection), plus --allowed-host ones',
    async () => {
      const served = await serveHttp(await promptDir(), ['--allowed-host', 'Prompts.Internal']);
      const { port } = new URL(served.url);
      expect(await withHost(served.url, `localhost:${port}`)).toBe(200);
      expect(await withHost(served.url, `127.0.0.1:${port}`)).toBe(200);
      expect(await withHost(served.url, `prompts.internal:${port}`)).toBe(200);
      expect(await withHost(served.url, `attacker.example:${port}`)).toBe(403);
      expect(served.stderr()).not.toContain('warning');
    },
  );

  it('refuses to start off loopback without --allowed-host, saying what to pass', async () => {
    const result = await runCliInProcess(['serve', await promptDir(), '--http', '0', '--host', '0.0.0.0']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^mcp-prompt-kit serve: --host 0\.0\.0\.0 is not a loopback address, .*pass --allowed-host <name> \(repeatable\)/,
    );
  });

  it('off loopback accepts only the listed Host names, not even localhost, and has a warning to print', async () => {
    // Planned in-process: tests bind loopback only.
    const plan = await planHttp(0, '0.0.0.0', ['prompts.example.com', 'PROMPTS.example.com']);
    expect(plan.warning).toBe(
      'warning: listening on 0.0.0.0, reachable from other machines without authentication; accepting Host: prompts.example.com',
    );
    const hosts = plan.hosts(localhostAllowedHostnames());
    expect(hosts).toEqual(['prompts.example.com']);
    const status = (host: string) =>
      hostHeaderValidationResponse(new Request('http://x/mcp', { headers: { host } }), hosts)?.status ?? 200;
    expect(status('prompts.example.com:3001')).toBe(200);
    expect(status('localhost:3001')).toBe(403);
    expect(status('127.0.0.1:3001')).toBe(403);
    const loopback = await planHttp(0, '127.0.0.1', []);
    expect(loopback.warning).toBeUndefined();
    expect(loopback.hosts(localhostAllowedHostnames())).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect((await planHttp(0, '::1', [])).warning).toBeUndefined();
    await expect(planHttp(0, '::', [])).rejects.toThrow(/--host :: is not a loopback address/);
  });

  it('refuses an --allowed-host with a scheme, port or path, and compares names as Host headers are compared', () => {
    for (const value of [
      'http://a.example',
      'a.example:80',
      'a.example:3001',
      'a.example/x',
      'user@a.example',
      '',
      ' ',
    ]) {
      expect(() => allowedHostname(value)).toThrow(
        `serve: --allowed-host expects a host name or IP address without scheme, port or path (for example 192.168.1.10 or prompts.example.com), got '${value}'`,
      );
    }
    expect(['Prompts.Example.com', '192.168.1.10', '::1', '[fe80::1]'].map(allowedHostname)).toEqual([
      'prompts.example.com',
      '192.168.1.10',
      '[::1]',
      '[fe80::1]',
    ]);
  });
});
