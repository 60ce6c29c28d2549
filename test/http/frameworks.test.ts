/**
 * The node handler behind frameworks that may have read the body first: Express 4 and 5 with each of their body
 * parsers, Fastify (its own JSON parser) and Koa (with and without @koa/bodyparser), on real servers on 127.0.0.1.
 * The body timeout is a minute: a handler waiting on a stream a parser already read would time the test out.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import bodyParser from '@koa/bodyparser';
import express5 from 'express';
import express4 from 'express4';
import Fastify from 'fastify';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHandler } from '../../src/http/index.js';
import type { HttpHandlerOptions } from '../../src/http/index.js';
import { createCaseSource } from './cases.js';
import { send } from './servers.js';

const OPTIONS: HttpHandlerOptions = { bodyTimeoutMs: 60_000 };
const JSON_TYPE = 'application/json';
const EXACT_NUMBER_REFUSED =
  '{"error":"Function arguments do not conform to schema","data":{"error_type":"schema_validation_failed","details":' +
  '[{"argument":"x","keyword":"exactNumber","message":"would become a different integer (a double holds whole ' +
  'numbers exactly only up to ±9007199254740991)"}],"provided_count":2,"required_count":2}}';
const BIG = '{"x":9007199254740993,"y":0}';
const TWO_MB = JSON.stringify({ x: 1, y: 2, pad: 'x'.repeat(2 * 1024 * 1024) });
const DEEP = `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)},"y":1}`;

interface Server {
  base: string;
  close(): Promise<void>;
}

type Parser = 'json' | 'text' | 'raw' | 'urlencoded';
type Express = typeof express5;

async function listen(server: import('node:http').Server): Promise<string> {
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: import('node:http').Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

async function startExpress(express: Express, parser: Parser): Promise<Server> {
  const app = express();
  const limit = '5mb';
  if (parser === 'json') app.use(express.json({ limit }));
  if (parser === 'text') app.use(express.text({ limit, type: ['text/plain', JSON_TYPE] }));
  if (parser === 'raw') app.use(express.raw({ limit, type: '*/*' }));
  if (parser === 'urlencoded') app.use(express.urlencoded({ extended: false }));
  app.use('/api', createNodeHandler(createCaseSource(), OPTIONS));
  const server = app.listen(0, '127.0.0.1');
  return { base: `${await listen(server)}/api`, close: closer(server) };
}

interface Row {
  title: string;
  contentType: string;
  body: string;
  status: number;
  text?: string;
}

const add: Row = {
  title: 'calls Add from a JSON body',
  contentType: JSON_TYPE,
  body: '{"x":7,"y":3}',
  status: 200,
  text: '{"result":10}',
};
const plain: Row = {
  title: 'answers a text/plain body with 415 at once',
  contentType: 'text/plain',
  body: 'x=7&y=3',
  status: 415,
};
const form: Row = {
  title: 'answers a form body with 415 at once',
  contentType: 'application/x-www-form-urlencoded',
  body: 'x=7&y=3',
  status: 415,
};
const proto: Row = {
  title: 'treats __proto__ as plain data',
  contentType: JSON_TYPE,
  body: '{"x":1,"y":2,"__proto__":{"polluted":true}}',
  status: 200,
  text: '{"result":3}',
};
const tooLarge: Row = {
  title: 'answers a body over maxBodyBytes with 413, whatever the parser allowed',
  contentType: JSON_TYPE,
  body: TWO_MB,
  status: 413,
  text: '{"error":"Request body exceeds 1048576 bytes"}',
};
const deep: Row = {
  title: 'answers a 100,000-deep body with 400 naming the depth limit, not a crash',
  contentType: JSON_TYPE,
  body: DEEP,
  status: 400,
  text: '{"error":"Function arguments do not conform to schema","data":{"error_type":"schema_validation_failed","details":[{"argument":"x","keyword":"maxDepth","message":"nests deeper than 64 levels (limit maxDepth)"}],"provided_count":2,"required_count":2}}',
};
const exact: Row = {
  title: 'refuses a number JSON.parse would change (the text is kept)',
  contentType: JSON_TYPE,
  body: BIG,
  status: 400,
  text: EXACT_NUMBER_REFUSED,
};

const ROWS: Record<Parser, Row[]> = {
  json: [
    add,
    plain,
    proto,
    tooLarge,
    deep,
    // What a parsed body loses: express.json() rounded the number before the handler could see its text.
    {
      title: 'takes a number express.json() already rounded as rounded',
      contentType: JSON_TYPE,
      body: BIG,
      status: 200,
      text: '{"result":9007199254740992}',
    },
  ],
  text: [add, plain, proto, tooLarge, exact],
  raw: [add, plain, form, proto, tooLarge, exact],
  urlencoded: [add, form, proto, exact],
};

for (const [version, express] of [
  ['Express 4', express4],
  ['Express 5', express5],
] as const) {
  describe.each(Object.keys(ROWS) as Parser[])(`${version} with express.%s() in front`, (parser) => {
    let server: Server;
    beforeAll(async () => {
      server = await startExpress(express, parser);
    });
    afterAll(() => server.close());

    it.each(ROWS[parser].map((row) => [row.title, row] as const))('%s', async (_title, row) => {
      const response = await send(server.base, {
        method: 'POST',
        path: '/functions/Add',
        contentType: row.contentType,
        body: row.body,
      });
      expect(response.status).toBe(row.status);
      if (row.text !== undefined) expect(response.text).toBe(row.text);
      expect(Object.prototype).not.toHaveProperty('polluted');
    });

    it('answers an empty POST whose parser found no body', async () => {
      const source = await send(server.base, { method: 'POST', path: '/functions/Ping', contentType: JSON_TYPE });
      expect([source.status, source.text]).toEqual([200, '{"result":1}']);
    });
  });
}

describe('inside Fastify (its JSON parser in front, the handler after reply.hijack())', () => {
  let server: Server;
  beforeAll(async () => {
    const app = Fastify({ bodyLimit: 5 * 1024 * 1024 });
    const handle = createNodeHandler(createCaseSource(), { ...OPTIONS, basePath: '/api' });
    app.all('/api/*', async (request, reply) => {
      reply.hijack();
      await handle(Object.assign(request.raw, { body: request.body }), reply.raw);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    server = { base: `${await listen(app.server)}/api`, close: () => app.close() };
  });
  afterAll(() => server.close());

  it.each([add, plain, tooLarge].map((row) => [row.title, row] as const))('%s', async (_title, row) => {
    const response = await send(server.base, {
      method: 'POST',
      path: '/functions/Add',
      contentType: row.contentType,
      body: row.body,
    });
    expect(response.status).toBe(row.status);
    if (row.text !== undefined) expect(response.text).toBe(row.text);
  });

  it('serves GET routes', async () => {
    const response = await send(server.base, { method: 'GET', path: '/functions' });
    expect(response.status).toBe(200);
  });
});

describe.each([
  ['without a body parser', false],
  ['with @koa/bodyparser (patchNode)', true],
] as const)('inside Koa %s', (_name, parse) => {
  let server: Server;
  beforeAll(async () => {
    const app = new Koa();
    if (parse) app.use(bodyParser({ patchNode: true, jsonLimit: '5mb' }));
    const handle = createNodeHandler(createCaseSource(), { ...OPTIONS, basePath: '/api' });
    app.use(async (ctx, next) => {
      if (!ctx.path.startsWith('/api/')) return next();
      ctx.respond = false;
      await handle(ctx.req, ctx.res);
    });
    const http = createServer(app.callback()).listen(0, '127.0.0.1');
    server = { base: `${await listen(http)}/api`, close: closer(http) };
  });
  afterAll(() => server.close());

  // @koa/bodyparser refuses __proto__ itself (400); without it the handler reads the raw text, exact numbers included.
  const rows = parse
    ? [
        add,
        form,
        tooLarge,
        {
          ...exact,
          title: 'takes a number the parser already rounded as rounded',
          status: 200,
          text: '{"result":9007199254740992}',
        },
      ]
    : [add, form, proto, tooLarge, exact];
  it.each(rows.map((row) => [row.title, row] as const))('%s', async (_title, row) => {
    const response = await send(server.base, {
      method: 'POST',
      path: '/functions/Add',
      contentType: row.contentType,
      body: row.body,
    });
    expect(response.status).toBe(row.status);
    if (row.text !== undefined) expect(response.text).toBe(row.text);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

describe('a body read before the handler', () => {
  it('answers 500 at once, and logs it, when a middleware read the body and kept no req.body', async () => {
    const logs: Record<string, unknown>[] = [];
    const app = express5();
    app.use((req, _res, next) => {
      req.resume();
      req.once('end', () => next());
    });
    app.use(
      '/api',
      createNodeHandler(createCaseSource(), { ...OPTIONS, logger: { error: (fields) => logs.push(fields) } }),
    );
    const http = app.listen(0, '127.0.0.1');
    const base = `${await listen(http)}/api`;
    try {
      const response = await send(base, {
        method: 'POST',
        path: '/functions/Add',
        contentType: JSON_TYPE,
        body: '{"x":1,"y":2}',
      });
      expect([response.status, response.text]).toEqual([500, '{"error":"Internal error"}']);
      expect(logs).toMatchObject([{ event: 'http_request_failed', code: 'INTERNAL_ERROR' }]);
    } finally {
      await closer(http)();
    }
  });
});
