import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleFunctions } from '../../examples/functions/app.js';
import { createFetchHandler, createNodeHandler } from '../../src/http/index.js';
import type { HttpHandlerOptions } from '../../src/http/index.js';
import { PromptRegistry } from '../../src/registry/registry.js';
import { GATE_CASES, GATE_OPTIONS, HTTP_CASES, createCaseSource } from './cases.js';
import type { HttpCase } from './cases.js';
import { SERVER_KINDS, send, startServer } from './servers.js';
import type { RunningServer, ServerKind } from './servers.js';

function runCases(kind: ServerKind, cases: readonly HttpCase[], options: HttpHandlerOptions = {}): void {
  let server: RunningServer;
  const source = createCaseSource();
  beforeAll(async () => {
    server = await startServer(kind, source, options);
  });
  afterAll(() => server.close());

  it.each(
    cases
      .filter(
        (c) =>
          !(kind === 'express' && c.path === '/nothing/here') &&
          !(c.rawHost === true && (kind === 'hono' || kind === 'fetch')),
      )
      .map((c) => [c.title, c] as const),
  )('%s', async (_title, c) => {
    const pings = source.pings();
    const response = await send(server.base, c);
    expect(response.status).toBe(c.status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    if (c.text !== undefined) expect(response.text).toBe(c.text);
    if (c.method !== 'HEAD') {
      const body = JSON.parse(response.text) as Record<string, unknown>;
      c.check?.(body);
      if (c.status >= 400) expect(typeof body['error']).toBe('string');
    }
    if (c.allow !== undefined) expect(response.headers.get('allow')).toBe(c.allow);
    if (c.pings !== undefined) expect(source.pings() - pings).toBe(c.pings);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
}

describe.each(SERVER_KINDS)('HTTP routes on %s', (kind: ServerKind) => {
  runCases(kind, HTTP_CASES);
});

describe.each(SERVER_KINDS)('Host and Origin lists on %s', (kind: ServerKind) => {
  runCases(kind, GATE_CASES, GATE_OPTIONS);
});

describe('HTTP handlers', () => {
  it('follows nextCursor through GET /prompts?cursor=', async () => {
    const registry = new PromptRegistry({ pageSize: 2 });
    registry.add(['a', 'b', 'c'].map((name) => ({ name, messages: [{ role: 'user' as const, content: name }] })));
    const server = await startServer('node:http', registry);
    try {
      const first = JSON.parse((await send(server.base, { method: 'GET', path: '/prompts' })).text) as {
        result: { prompts: { name: string }[]; nextCursor: string };
      };
      expect(first.result.prompts.map((p) => p.name)).toEqual(['a', 'b']);
      const next = JSON.parse(
        (
          await send(server.base, {
            method: 'GET',
            path: `/prompts?cursor=${encodeURIComponent(first.result.nextCursor)}`,
          })
        ).text,
      );
      expect(next).toEqual({ result: { prompts: [{ name: 'c' }] } });
      const forged = await send(server.base, { method: 'GET', path: '/prompts?cursor=forged' });
      expect([forged.status, forged.text]).toEqual([400, '{"error":"Invalid cursor"}']);
    } finally {
      await server.close();
    }
  });

  it('hands routes it does not own to Express through next()', async () => {
    const server = await startServer('express', { functions: createExampleFunctions() });
    try {
      expect(JSON.parse((await send(server.base, { method: 'GET', path: '/health' })).text)).toEqual({ ok: true });
    } finally {
      await server.close();
    }
  });

  it('documents the Express mount path in the OpenAPI paths it serves', async () => {
    const server = await startServer('express', { functions: createExampleFunctions() });
    try {
      const doc = JSON.parse((await send(server.base, { method: 'GET', path: '/openapi.json' })).text) as {
        paths: Record<string, unknown>;
      };
      expect(Object.keys(doc.paths)).toContain('/api/functions/Add');
    } finally {
      await server.close();
    }
  });

  it('answers a body that drips in slower than bodyTimeoutMs with 408', async () => {
    const server = await startServer('node:http', { functions: createExampleFunctions() }, { bodyTimeoutMs: 200 });
    try {
      const url = new URL(`${server.base}/functions/Add`);
      const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(
          url,
          { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '100' } },
          (res) => {
            let data = '';
            res.on('data', (d: Buffer) => (data += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: data }));
          },
        );
        req.on('error', reject);
        req.write('{"x":'); // and nothing more
      });
      expect(status).toBe(408);
      expect(text).toBe('{"error":"Request body timed out"}');
    } finally {
      await server.close();
    }
  });

  it('logs a 500 with the route and error class only, never the body', async () => {
    const logs: Record<string, unknown>[] = [];
    const registry = new PromptRegistry();
    registry.add({
      name: 'boom',
      arguments: [{ name: 'secret' }],
      render: () => {
        throw new Error('exploded with SECRET-1');
      },
    });
    const handle = createFetchHandler(registry, { logger: { error: (fields) => logs.push(fields) } });
    const response = await handle(
      new Request('http://x/prompts/boom', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"secret":"SECRET-2"}',
      }),
    );
    expect([response.status, await response.text()]).toEqual([500, '{"error":"Internal error"}']);
    expect(JSON.stringify(logs)).not.toMatch(/SECRET/);
  });

  it('refuses body numbers JSON.parse changed, nested ones with their path, one detail per argument', async () => {
    const registry = new PromptRegistry();
    registry.add({
      name: 'p',
      arguments: [
        { name: 'ids', type: 'array', items: { type: 'integer' } },
        { name: 'label' },
        { name: 'ok', type: 'number' },
      ],
      messages: [{ role: 'user', content: '{{ids}} {{label}} {{ok}}' }],
    });
    const handle = createFetchHandler(registry);
    const body =
      '{"ids":[1,9007199254740993,1e400],"label":123456789012345678901,"__proto__":1e-400,"ok":0.1,"polluted":{"__proto__":{"polluted":1}}}';
    const response = await handle(
      new Request('http://x/prompts/p', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    );
    expect(response.status).toBe(400);
    const details = (
      (await response.json()) as { data: { details: { argument: string; keyword: string; message: string }[] } }
    ).data.details;
    expect(details.map((d) => [d.argument, d.keyword, d.message.split(':')[0]])).toEqual([
      ['ids', 'exactNumber', '/1'],
      [
        'label',
        'exactNumber',
        'would become a different integer (a double holds whole numbers exactly only up to ±9007199254740991)',
      ],
      ['__proto__', 'exactNumber', 'is too small for a double'],
    ]);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('refuses Host and Origin entries it cannot match when created, naming them', () => {
    expect(() => createNodeHandler(createCaseSource(), { allowedHosts: ['localhost:3000'] })).toThrow(
      /allowedHosts: 'localhost:3000' is not a hostname/,
    );
    expect(() => createFetchHandler(createCaseSource(), { allowedHosts: ['http://a.example'] })).toThrow(
      /allowedHosts: 'http:\/\/a.example' is not a hostname/,
    );
    expect(() => createFetchHandler(createCaseSource(), { allowedOrigins: ['https://'] })).toThrow(
      /allowedOrigins: 'https:\/\/' is not an origin/,
    );
    expect(() => createFetchHandler(createCaseSource(), { allowedOrigins: 'app.example' as never })).toThrow(
      /allowedOrigins must be an array/,
    );
  });

  it('refuses a source it cannot serve when created', () => {
    expect(() => createNodeHandler({} as never)).toThrow(/source must be a PromptRegistry, a FunctionRegistry/);
  });
});

describe('handler options', () => {
  it.each([
    [{ maxBodyBytes: 0 }, 'maxBodyBytes must be an integer from 1 to 2147483647, got 0'],
    [{ maxInFlightBodyBytes: 2 ** 31 }, 'maxInFlightBodyBytes must be an integer from 1 to 2147483647, got 2147483648'],
    [{ bodyTimeoutMs: 1.5 }, 'bodyTimeoutMs must be an integer of milliseconds from 1 to 2147483647, got 1.5'],
  ])('refuses %j with a RangeError naming the option, its range and the value', (options, message) => {
    const registry = new PromptRegistry();
    expect(() => createFetchHandler(registry, options)).toThrow(new RangeError(`mcp-prompt-kit/http: ${message}`));
    expect(() => createNodeHandler(registry, options)).toThrow(new RangeError(`mcp-prompt-kit/http: ${message}`));
  });
});
