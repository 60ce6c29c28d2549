import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createExampleFunctions } from '../../examples/functions/app.js';
import { runCgi } from '../../src/http/index.js';
import { GATE_CASES, GATE_OPTIONS, HTTP_CASES, createCaseSource } from './cases.js';
import type { HttpCase } from './cases.js';
import type { HttpHandlerOptions } from '../../src/http/index.js';
import { childCoverageEnv, STARTS_CHILD_PROCESSES, tsNodeArgs } from '../support/processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs examples/cgi.ts as a real child process with CGI variables and the body on stdin. */
function cgi(
  env: Record<string, string>,
  body?: string | Uint8Array,
): Promise<{ head: string[]; body: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, tsNodeArgs('examples/cgi.ts'), {
      cwd: ROOT,
      env: {
        ...childCoverageEnv(),
        PATH: process.env['PATH'] ?? '',
        GATEWAY_INTERFACE: 'CGI/1.1',
        SERVER_PROTOCOL: 'HTTP/1.1',
        ...env,
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      const text = Buffer.concat(out).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      resolve({ head: text.slice(0, split).split('\r\n'), body: text.slice(split + 4), code });
    });
    child.stdin.end(body ?? '');
  });
}

describe.runIf(STARTS_CHILD_PROCESSES)('examples/cgi.ts as a CGI/1.1 child process', () => {
  it('answers PATH_INFO=/functions/NonExistent with Status: 404 Not Found and a JSON error', async () => {
    const r = await cgi(
      {
        REQUEST_METHOD: 'POST',
        PATH_INFO: '/functions/NonExistent',
        CONTENT_TYPE: 'application/json',
        CONTENT_LENGTH: '2',
      },
      '{}',
    );
    expect(r.head).toEqual(['Status: 404 Not Found', 'Content-Type: application/json; charset=utf-8']);
    expect(r.body).toBe('{"error":"Function not found: NonExistent"}');
    expect(r.code).toBe(0);
  });

  it('calls Add with the body on stdin: {"result":10}', async () => {
    const body = '{"x":7,"y":3}';
    const r = await cgi(
      {
        REQUEST_METHOD: 'POST',
        PATH_INFO: '/functions/Add',
        CONTENT_TYPE: 'application/json',
        CONTENT_LENGTH: String(body.length),
      },
      body,
    );
    expect(r.head[0]).toBe('Status: 200 OK');
    expect(r.body).toBe('{"result":10}');
  });

  it('lists prompts with QUERY_STRING and reads exactly CONTENT_LENGTH bytes', async () => {
    const list = await cgi({ REQUEST_METHOD: 'GET', PATH_INFO: '/prompts', QUERY_STRING: '' });
    expect(JSON.parse(list.body).result.prompts.map((p: { name: string }) => p.name)).toContain('review_code');
    const trailing = '{"x":1,"y":2}GARBAGE-AFTER-THE-BODY';
    const r = await cgi(
      { REQUEST_METHOD: 'POST', PATH_INFO: '/functions/Add', CONTENT_TYPE: 'application/json', CONTENT_LENGTH: '13' },
      trailing,
    );
    expect(r.body).toBe('{"result":3}');
  });
});

describe('runCgi', () => {
  const reasons: Record<number, string> = {
    200: 'OK',
    400: 'Bad Request',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    413: 'Content Too Large',
    415: 'Unsupported Media Type',
    500: 'Internal Server Error',
  };

  const rule = (options: HttpHandlerOptions) => async (_title: string, c: HttpCase) => {
    const source = createCaseSource();
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (d: Buffer) => chunks.push(d));
    const bytes =
      c.body === undefined ? new Uint8Array(0) : typeof c.body === 'string' ? new TextEncoder().encode(c.body) : c.body;
    const host = c.headers?.host ?? '127.0.0.1:8080';
    const env: Record<string, string> = {
      REQUEST_METHOD: c.method,
      PATH_INFO: c.path.split('?')[0]!,
      QUERY_STRING: c.path.split('?')[1] ?? '',
      SERVER_ADDR: '127.0.0.1',
      HTTP_HOST: host,
    };
    if (c.headers?.origin !== undefined)
      env['HTTP_ORIGIN'] = c.headers.origin === 'same' ? `http://${host}` : c.headers.origin;
    if (c.contentType !== undefined) env['CONTENT_TYPE'] = c.contentType;
    if (c.body !== undefined) env['CONTENT_LENGTH'] = String(bytes.byteLength);
    const status = await runCgi(source, { env, stdin: Readable.from([Buffer.from(bytes)]), stdout }, options);
    const text = Buffer.concat(chunks).toString('utf8');
    const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
    expect(status).toBe(c.status);
    expect(head.split('\r\n')[0]).toBe(`Status: ${c.status} ${reasons[c.status]}`);
    expect(head).toContain('Content-Type: application/json');
    if (c.allow !== undefined) expect(head).toContain(`Allow: ${c.allow}`);
    if (c.text !== undefined) expect(body).toBe(c.text);
    if (c.method !== 'HEAD') c.check?.(JSON.parse(body) as Record<string, unknown>);
    if (c.pings !== undefined) expect(source.pings()).toBe(c.pings);
  };

  it.each(HTTP_CASES.map((c) => [c.title, c] as const))('obeys the HTTP rule: %s', rule({}));
  it.each(GATE_CASES.map((c) => [c.title, c] as const))('obeys the Host and Origin lists: %s', rule(GATE_OPTIONS));

  it('answers a CONTENT_LENGTH longer than the body with 400, and a bad one too', async () => {
    const run = async (env: Record<string, string>, body: string) => {
      const stdout = new PassThrough();
      return runCgi(createExampleFunctions(), {
        env: { REQUEST_METHOD: 'POST', PATH_INFO: '/functions/Add', CONTENT_TYPE: 'application/json', ...env },
        stdin: Readable.from([Buffer.from(body)]),
        stdout,
      });
    };
    expect(await run({ CONTENT_LENGTH: '50' }, '{"x":1}')).toBe(400);
    expect(await run({ CONTENT_LENGTH: '-1' }, '{}')).toBe(400);
  });
});
