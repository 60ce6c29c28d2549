/** The preview page's server over plain HTTP: who may talk to it, and what its JSON requests answer. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview } from '../../../src/cli/preview.js';
import type { RunningPreview } from '../../../src/cli/preview.js';
import { MAX_BODY_BYTES } from '../../../src/cli/preview/server.js';
import { waitFor } from '../../support/wait.js';
import { runCliInProcess } from '../process.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw request (node:http, so Host and Origin are exactly what the test says). */
function send(
  origin: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; firstChunkOnly?: boolean } = {},
): Promise<Answer> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (options.firstChunkOnly === true) {
            res.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const PROMPT = `
name: greet
title: Greet someone
description: Says hello
tags: [demo]
arguments:
  - name: who
    required: true
    pattern: "^[A-Za-z]+$"
    description: Whom to greet
  - name: tone
    enum: [warm, dry]
    default: warm
  - name: times
    type: integer
    minimum: 1
    maximum: 5
  - name: shout
    type: boolean
messages:
  - role: user
    content: "Hello {{who}} ({{tone}})"
`;

describe('preview server', () => {
  let dir: string;
  let preview: RunningPreview;
  let origin: string;
  let host: string;
  let token: string;
  const auth = (): Record<string, string> => ({ host, 'x-preview-token': token });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    send(origin, path, {
      method: 'POST',
      headers: { ...auth(), origin, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mpk-preview-'));
    await writeFile(join(dir, 'greet.yaml'), PROMPT);
    await writeFile(join(dir, 'broken.yaml'), 'name: broken\nmessages: [\n');
    preview = await startPreview({ dir, debounceMs: 20 });
    origin = preview.server.origin;
    host = new URL(origin).host;
    token = preview.server.token;
  });
  afterAll(async () => {
    await preview?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints a URL on loopback whose token has at least 128 random bits', () => {
    const url = new URL(preview.server.url);
    expect(url.hostname).toBe('127.0.0.1');
    const given = url.searchParams.get('token')!;
    expect(Buffer.from(given, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(given).toBe(token);
  });

  it('serves the page with the token in the query, and sets a cookie that later requests may carry instead', async () => {
    const page = await send(origin, `/?token=${token}`, { headers: { host } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const cookie = String(page.headers['set-cookie']).split(';', 1)[0]!;
    expect(cookie).toContain(token);
    const listing = await send(origin, '/api/listing', { headers: { host, cookie } });
    expect(listing.status).toBe(200);
  });

  it('refuses a request without the token, or with a wrong one', async () => {
    const none = await send(origin, '/', { headers: { host } });
    expect(none.status).toBe(403);
    expect(JSON.parse(none.body).error.message).toMatch(/Missing preview token/);
    const wrong = await send(origin, '/api/listing', { headers: { host, 'x-preview-token': `${token.slice(1)}x` } });
    expect(wrong.status).toBe(403);
    expect(JSON.parse(wrong.body).error.message).toMatch(/Wrong preview token/);
    const short = await send(origin, '/api/listing?token=abc', { headers: { host } });
    expect(short.status).toBe(403);
  });

  it('refuses a Host other than the bound host and port (DNS rebinding), even with the token', async () => {
    const port = new URL(origin).port;
    for (const bad of [
      `evil.example:${port}`,
      '127.0.0.1',
      `127.0.0.1:${Number(port) + 1}`,
      `localhost.evil:${port}`,
    ]) {
      const answer = await send(origin, '/api/listing', { headers: { host: bad, 'x-preview-token': token } });
      expect(answer.status, bad).toBe(403);
      expect(JSON.parse(answer.body).error.message).toMatch(/Host not allowed/);
    }
    const localhost = await send(origin, '/api/listing', {
      headers: { host: `localhost:${port}`, 'x-preview-token': token },
    });
    expect(localhost.status).toBe(200);
  });

  it('refuses a cross-origin request, a POST without Origin, and a cross-site fetch', async () => {
    const cross = await post('/api/render', { name: 'greet' }, { origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    expect(JSON.parse(cross.body).error.message).toMatch(/Origin not allowed/);
    const otherPort = await post('/api/render', { name: 'greet' }, { origin: 'http://127.0.0.1:1' });
    expect(otherPort.status).toBe(403);
    const noOrigin = await send(origin, '/api/render', {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: '{"name":"greet"}',
    });
    expect(noOrigin.status).toBe(403);
    expect(JSON.parse(noOrigin.body).error.message).toMatch(/Missing Origin/);
    const site = await send(origin, '/api/listing', { headers: { ...auth(), 'sec-fetch-site': 'cross-site' } });
    expect(site.status).toBe(403);
  });

  it('sends no CORS headers, not even to a preflight', async () => {
    const preflight = await send(origin, '/api/render', {
      method: 'OPTIONS',
      headers: { ...auth(), origin, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(405);
    const listing = await send(origin, '/api/listing', { headers: { ...auth(), origin } });
    for (const answer of [preflight, listing]) {
      expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('opens the event stream only with a same-origin Origin or Sec-Fetch-Site', async () => {
    const bare = await send(origin, '/api/events', { headers: auth() });
    expect(bare.status).toBe(403);
    const cross = await send(origin, '/api/events', { headers: { ...auth(), origin: 'http://evil.example' } });
    expect(cross.status).toBe(403);
    const same = await send(origin, '/api/events', {
      headers: { ...auth(), 'sec-fetch-site': 'same-origin' },
      firstChunkOnly: true,
    });
    expect(same.status).toBe(200);
    expect(same.headers['content-type']).toBe('text/event-stream');
    expect(same.body).toContain('"type":"hello"');
  });

  it('refuses a body over the limit with 413, and one that is not JSON with 415 or 400', async () => {
    const big = await send(origin, '/api/render', {
      method: 'POST',
      headers: { ...auth(), origin, 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 1) },
      body: 'x'.repeat(MAX_BODY_BYTES + 1),
    });
    expect(big.status).toBe(413);
    const text = await post('/api/render', {}, { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const broken = await send(origin, '/api/render', {
      method: 'POST',
      headers: { ...auth(), origin, 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(broken.status).toBe(400);
    const shape = await post('/api/render', { name: 'greet', arguments: { who: 1 } });
    expect(shape.status).toBe(400);
    expect(JSON.parse(shape.body).error.message).toBe('arguments.who must be a string');
  });

  it('lists prompts with their tags, and a file that serves no prompt as a problem with file:line:col', async () => {
    const listing = JSON.parse((await send(origin, '/api/listing', { headers: auth() })).body);
    expect(listing.prompts.map((p: { name: string }) => p.name)).toEqual(['greet']);
    expect(listing.prompts[0].tags).toEqual(['demo']);
    expect(listing.problems[0].text).toMatch(/broken\.yaml:\d+:\d+: /);
  });

  it('describes the form from the argument schema: select, integer, boolean, pattern, default', async () => {
    const prompt = JSON.parse((await send(origin, '/api/prompt?name=greet', { headers: auth() })).body);
    const byName = Object.fromEntries(prompt.fields.map((f: { name: string }) => [f.name, f]));
    expect(byName.who).toMatchObject({ control: 'text', required: true, pattern: '^[A-Za-z]+$' });
    expect(byName.tone).toMatchObject({ control: 'select', options: ['warm', 'dry'], default: 'warm' });
    expect(byName.times).toMatchObject({ control: 'integer', minimum: 1, maximum: 5 });
    expect(byName.shout).toMatchObject({ control: 'boolean', required: false });
    const unknown = await send(origin, '/api/prompt?name=nope', { headers: auth() });
    expect(unknown.status).toBe(404);
  });

  it('renders as prompts/get does, and answers a -32602 with its data', async () => {
    const ok = JSON.parse((await post('/api/render', { name: 'greet', arguments: { who: 'Ada' } })).body);
    expect(ok.result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada (warm)' } }]);
    const missing = JSON.parse((await post('/api/render', { name: 'greet', arguments: {} })).body);
    expect(missing.error.code).toBe(-32602);
    expect(missing.error.data.missing_arguments).toEqual(['who']);
    const invalid = JSON.parse(
      (await post('/api/render', { name: 'greet', arguments: { who: 'Ada', times: '9' } })).body,
    );
    expect(invalid.error.data.details[0].argument).toBe('times');
  });

  it('suggests completions for an argument from its declared values', async () => {
    const answer = JSON.parse(
      (await post('/api/complete', { name: 'greet', argument: 'tone', value: 'd', arguments: {} })).body,
    );
    expect(answer.values).toEqual(['dry']);
  });
});

/** Reads an event stream until `until` holds for the text so far (then closes it). */
function streamUntil(
  origin: string,
  headers: Record<string, string>,
  until: (text: string) => boolean,
): {
  opened: Promise<void>;
  done: Promise<string>;
} {
  const url = new URL('/api/events', origin);
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const done = new Promise<string>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('"hello"')) open();
        if (until(text)) {
          res.destroy();
          resolve(text);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
  return { opened, done };
}

describe('preview live updates and diffs', () => {
  let dir: string;
  let preview: RunningPreview;
  let headers: Record<string, string>;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
  const post = (path: string, body: unknown) =>
    send(preview.server.origin, path, {
      method: 'POST',
      headers: { ...headers, origin: preview.server.origin, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const edit = async (content: string) => {
    const before = preview.state.version;
    await writeFile(join(dir, 'greet.yaml'), content);
    await waitFor(() => preview.state.version > before, 30_000, 'the edit to reach the page state');
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mpk-preview-git-'));
    await writeFile(join(dir, 'greet.yaml'), PROMPT);
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'prompts');
    preview = await startPreview({ dir, debounceMs: 20 });
    headers = { host: new URL(preview.server.origin).host, 'x-preview-token': preview.server.token };
  });
  afterAll(async () => {
    await preview?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('pushes a change event to the page when a prompt file is saved', async () => {
    const stream = streamUntil(preview.server.origin, { ...headers, origin: preview.server.origin }, (text) =>
      text.includes('"type":"change"'),
    );
    await stream.opened;
    await writeFile(join(dir, 'greet.yaml'), PROMPT.replace('Hello', 'Hi'));
    expect(await stream.done).toContain('"set":["greet"]');
  });

  it('pushes a change event for a prompt when only its cases file is saved (the page runs its cases again)', async () => {
    const stream = streamUntil(preview.server.origin, { ...headers, origin: preview.server.origin }, (text) =>
      text.includes('"type":"change"'),
    );
    await stream.opened;
    await writeFile(join(dir, 'greet.cases.yaml'), 'cases:\n  - name: hello\n    arguments: {who: Ada}\n');
    expect(await stream.done).toContain('"set":["greet"]');
  });

  it('diffs the rendering against the previous version and against git HEAD', async () => {
    await edit(PROMPT.replace('Hello', 'Howdy'));
    const args = { name: 'greet', arguments: { who: 'Ada' } };
    const { diffs } = JSON.parse((await post('/api/diff', args)).body);
    const changed = (d: { lines: { op: string; text: string }[] }) =>
      d.lines.filter((l) => l.op !== ' ').map((l) => `${l.op}${l.text}`);
    expect(diffs.map((d: { against: string }) => d.against)).toEqual(['previous', 'git HEAD']);
    expect(changed(diffs[0])).toEqual(['-1. User: Hi Ada (warm)', '+1. User: Howdy Ada (warm)']);
    expect(changed(diffs[1])).toEqual(['-1. User: Hello Ada (warm)', '+1. User: Howdy Ada (warm)']);
  });

  it('diffs an error as text: the same -32602 at HEAD and now is no change', async () => {
    const { diffs } = JSON.parse((await post('/api/diff', { name: 'greet', arguments: {} })).body);
    expect(diffs[1].changed).toBe(false);
    expect(diffs[1].lines[0].text).toBe('Error -32602: Missing required prompt arguments');
  });

  it('runs the cases of a prompt and names their problems with file:line:col', async () => {
    await writeFile(
      join(dir, 'greet.cases.yaml'),
      'cases:\n  - name: greets\n    arguments: { who: Ada }\n    contains: Ada\n  - name: typo\n    arguments: { whom: x }\n',
    );
    const answer = JSON.parse((await post('/api/cases', { name: 'greet' })).body);
    expect(answer.report.results.map((r: { case: string; status: string }) => [r.case, r.status])).toEqual([
      ['greets', 'pass'],
    ]);
    expect(answer.problems).toHaveLength(1);
    expect(answer.problems[0]).toMatch(/greet\.cases\.yaml:\d+:\d+: .*whom/);
    const bad = await post('/api/cases', { prompt: 'greet' });
    expect(bad.status).toBe(400);
  });
});

describe('preview command', () => {
  it('refuses a host other machines can reach unless --allow-remote says so', async () => {
    const result = await runCliInProcess(['preview', 'examples/prompts', '--host', '0.0.0.0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not a loopback address.*--allow-remote/);
  });

  it('fails with exit 1 naming the address when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((taken.address() as AddressInfo).port);
      const result = await runCliInProcess(['preview', 'examples/prompts', '--port', port]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`mcp-prompt-kit preview: cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('names a bad --port', async () => {
    const result = await runCliInProcess(['preview', 'examples/prompts', '--port', '70000']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port must be');
  });
});
