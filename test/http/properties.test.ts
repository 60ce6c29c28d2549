/**
 * Generated HTTP requests (methods, paths, queries, content types, bodies) against the fetch handler, the node
 * handler behind a real server on 127.0.0.1 and CGI: every answer is a JSON body (none for HEAD) with a status below
 * 500, within the per-case CPU and heap bounds, and nothing pollutes `Object.prototype`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, createNodeHandler, runCgi } from '../../src/http/index.js';
import type { HttpSource } from '../../src/http/index.js';
import { wellFormed } from '../../src/encoding.js';
import { FunctionRegistry, defineFunction } from '../../src/index.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import {
  amplifyingJsonText,
  checkProperty,
  expectPrototypeUntouched,
  fc,
  holds,
  hostileJson,
  hostileString,
  hostileText,
  PROPERTY_TIMEOUT_MS,
  withinBudget,
} from '../support/properties.js';

function source(): HttpSource {
  const prompts = new PromptRegistry();
  prompts.add([
    {
      name: 'review_code',
      arguments: [
        { name: 'code', required: true },
        { name: 'n', type: 'integer' },
      ],
      messages: [{ role: 'user', content: '{{code}} {{n}}' }],
    },
    { name: 'plain', messages: [{ role: 'assistant', content: 'Hello' }] },
  ]);
  const functions = new FunctionRegistry().add([
    defineFunction({
      name: 'Add',
      arguments: [
        { name: 'x', type: 'number', required: true },
        { name: 'y', type: 'number', required: true },
      ],
      run: ({ x, y }) => x + y,
    }),
    defineFunction({
      name: 'Echo',
      arguments: [{ name: 'text' }, { name: 'items', type: 'array' }],
      run: ({ text, items }) => ({ text, items }),
    }),
  ]);
  return { prompts, functions };
}

const METHODS = ['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
const method = fc.constantFrom(...METHODS);
const path = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      '/prompts',
      '/prompts/review_code',
      '/prompts/plain',
      '/prompts/missing',
      '/functions',
      '/functions/Add',
      '/functions/Echo',
      '/functions/Nope',
      '/openapi.json',
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('/prompts/', '/functions/'), hostileString)
      .map(([p, n]) => p + encodeURIComponent(wellFormed(n)).slice(0, 3000)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '/',
      '//prompts',
      '/prompts/',
      '/prompts/%',
      '/prompts/%E0%A4%A',
      '/prompts/..%2f..%2fetc',
      '/functions/%00',
      '/prompts/a/b',
      '/openapi.json/',
    ),
  },
);
const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?cursor=', '?cursor=%%%', '?cursor=eyJ9', '?a=1&a=2'),
  hostileString.map((s) => `?cursor=${encodeURIComponent(wellFormed(s)).slice(0, 2000)}`),
);
const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  'application/json; charset=latin1',
  '',
);
const body = fc.oneof(
  {
    weight: 4,
    arbitrary: hostileText(
      fc.oneof(
        fc.record(
          { code: hostileJson, n: hostileJson, x: hostileJson, y: hostileJson, text: hostileJson, items: hostileJson },
          { requiredKeys: [] },
        ),
        hostileJson,
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'null',
      '[]',
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '\ufeff{}',
      'x=1&y=2',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const request = fc.record({ method, path, query, contentType, body });
type GeneratedRequest = {
  method: string;
  path: string;
  query: string;
  contentType: string | undefined;
  body: string | undefined;
};

/** A status a client may get for anything it sends, and a JSON body (none for HEAD and 204). */
function expectClientAnswer(r: GeneratedRequest, status: number, type: string | null, text: string): void {
  holds(status >= 200 && status < 500, () => `${r.method} ${r.path}: status ${status}: ${text.slice(0, 300)}`);
  if (r.method === 'HEAD' || status === 204) return;
  holds(/^application\/json/.test(type ?? ''), () => `${r.method} ${r.path}: content type ${String(type)}`);
  const parsed = JSON.parse(text) as Record<string, unknown>;
  holds(
    ['result', 'error', 'openapi'].some((key) => Object.hasOwn(parsed, key)),
    () => `${r.method} ${r.path}: neither result, error nor openapi in ${text.slice(0, 300)}`,
  );
}

describe('HTTP handlers over generated requests', () => {
  it(
    'the fetch handler answers any request with JSON and a status below 500, within bounds',
    async () => {
      const handle = createFetchHandler(source(), { bodyTimeoutMs: 2_000 });
      await checkProperty('http: fetch handler requests', request, async (r) => {
        let req: Request;
        try {
          req = new Request(`http://127.0.0.1${r.path}${r.query}`, {
            method: r.method,
            headers: r.contentType === undefined ? {} : { 'content-type': r.contentType },
            ...(r.body === undefined || r.method === 'GET' || r.method === 'HEAD' ? {} : { body: r.body }),
          });
        } catch {
          return; // a request the platform itself refuses never reaches a handler
        }
        const res = await withinBudget(`fetch ${r.method} ${r.path}`, () => handle(req));
        expectClientAnswer(r, res.status, res.headers.get('content-type'), await res.text());
        expectPrototypeUntouched();
      });
    },
    PROPERTY_TIMEOUT_MS,
  );

  describe('the node handler behind a real server', () => {
    let base = '';
    let close: () => Promise<void> = async () => {};
    beforeAll(async () => {
      const server = createServer(createNodeHandler(source(), { bodyTimeoutMs: 2_000 })).listen(0, '127.0.0.1');
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      close = () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        });
    });
    afterAll(() => close());

    it(
      'answers any request with JSON and a status below 500',
      async () => {
        await checkProperty(
          'http: node handler over a server',
          fc.oneof(
            { weight: 9, arbitrary: request },
            {
              weight: 1,
              arbitrary: amplifyingJsonText(1024 * 1024).map((b) => ({
                method: 'POST',
                path: '/functions/Echo',
                query: '',
                contentType: 'application/json',
                body: b,
              })),
            },
          ),
          async (r) => {
            const res = await fetch(`${base}${r.path}${r.query}`, {
              method: r.method,
              headers: r.contentType === undefined ? {} : { 'content-type': r.contentType },
              ...(r.body === undefined || r.method === 'GET' || r.method === 'HEAD' ? {} : { body: r.body }),
            }).catch((error: unknown) => error);
            if (!(res instanceof Response)) return; // fetch refused to send it (e.g. a body on a method it forbids)
            expectClientAnswer(r, res.status, res.headers.get('content-type'), await res.text());
          },
        );
        expectPrototypeUntouched();
      },
      PROPERTY_TIMEOUT_MS,
    );
  });

  it(
    'CGI answers any request (any CONTENT_LENGTH against the bytes sent) with a Status line below 500 and JSON',
    async () => {
      const s = source();
      const cgiRequest = fc.record({
        r: request,
        length: fc.oneof(
          fc.constant('exact'),
          fc.constantFrom('', '-1', 'abc', '1e3', '99999999999999999999', '0'),
          fc.nat({ max: 100 }).map(String),
        ),
      });
      await checkProperty('http: CGI requests', cgiRequest, async ({ r, length }) => {
        const stdin = new PassThrough();
        const stdout = new PassThrough();
        const out: Buffer[] = [];
        stdout.on('data', (d: Buffer) => out.push(d));
        const bytes = Buffer.from(r.body ?? '', 'utf8');
        stdin.end(bytes);
        const env: Record<string, string> = {
          REQUEST_METHOD: r.method,
          PATH_INFO: r.path,
          QUERY_STRING: r.query.replace(/^\?/, ''),
        };
        if (r.contentType !== undefined) env['CONTENT_TYPE'] = r.contentType;
        if (length !== '') env['CONTENT_LENGTH'] = length === 'exact' ? String(bytes.length) : length;
        const status = await withinBudget(`CGI ${r.method} ${r.path}`, () =>
          runCgi(s, { env, stdin, stdout }, { bodyTimeoutMs: 2_000 }),
        );
        const text = Buffer.concat(out).toString('utf8');
        const split = text.indexOf('\r\n\r\n');
        expect(text.slice(0, split)).toMatch(new RegExp(`^Status: ${status}`));
        expectClientAnswer(
          r,
          status,
          /content-type: ([^\r]*)/i.exec(text.slice(0, split))?.[1] ?? null,
          text.slice(split + 4),
        );
        expectPrototypeUntouched();
      });
    },
    PROPERTY_TIMEOUT_MS,
  );
});
