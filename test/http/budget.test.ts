/**
 * The server-wide budget of request body bytes in flight (maxInFlightBodyBytes), on a real node:http server: the
 * bytes a slow client has sent count until its request is answered; past the budget a request gets 503 with
 * Retry-After, and its bytes are dropped as they arrive.
 */
import { createServer, request } from 'node:http';
import type { ClientRequest, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler, createNodeHandler } from '../../src/http/index.js';
import type { HttpHandlerOptions } from '../../src/http/index.js';
import { createCaseSource } from './cases.js';
import { send } from './servers.js';

const servers: Server[] = [];
const clients: ClientRequest[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** A node:http server that tells when each request's first body bytes reached the handler. */
async function start(options: HttpHandlerOptions): Promise<{ base: string; arrived: () => Promise<void> }> {
  const handle = createNodeHandler(createCaseSource(), options);
  const waiting: (() => void)[] = [];
  const server = createServer((req, res) => {
    // Registered before the handler's own listener, in the same turn: called first on the same chunk.
    req.once('data', () => setImmediate(() => waiting.shift()?.()));
    void handle(req, res);
  }).listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, arrived: () => new Promise<void>((resolve) => waiting.push(resolve)) };
}

/** Starts a POST of `length` declared bytes and sends only `first` of them. */
function slow(
  base: string,
  length: number,
  first: string,
): Promise<{ status: number; text: string; headers: IncomingMessage['headers'] }> & { rest(text: string): void } {
  let req!: ClientRequest;
  const answer = new Promise<{ status: number; text: string; headers: IncomingMessage['headers'] }>(
    (resolve, reject) => {
      req = request(
        `${base}/functions/Ping`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(length) } },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
        },
      );
      req.on('error', reject);
    },
  );
  clients.push(req);
  req.write(first);
  return Object.assign(answer, { rest: (text: string) => void req.end(text) });
}

const padded = (n: number): string => `{"note":"${'x'.repeat(n - 11)}"}`;

describe('maxInFlightBodyBytes', () => {
  it('answers 503 with Retry-After while slow bodies hold the budget, and serves again once they are answered', async () => {
    const { base, arrived } = await start({ maxInFlightBodyBytes: 1_000, bodyTimeoutMs: 30_000 });
    const body = padded(700);
    const held = slow(base, body.length, body.slice(0, 650));
    await arrived();
    const refused = await send(base, {
      method: 'POST',
      path: '/functions/Ping',
      contentType: 'application/json',
      body: padded(400),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.text).toBe('{"error":"Server busy: request bodies in flight would exceed 1000 bytes; retry later"}');
    // A small body still fits beside the held one.
    expect(
      (
        await send(base, {
          method: 'POST',
          path: '/functions/Ping',
          contentType: 'application/json',
          body: padded(300),
        })
      ).status,
    ).toBe(200);
    held.rest(body.slice(650));
    expect((await held).status).toBe(200);
    expect(
      (
        await send(base, {
          method: 'POST',
          path: '/functions/Ping',
          contentType: 'application/json',
          body: padded(900),
        })
      ).status,
    ).toBe(200);
  });

  it('gives the bytes of a refused or timed-out body back', async () => {
    const { base, arrived } = await start({ maxInFlightBodyBytes: 1_000, bodyTimeoutMs: 300, maxBodyBytes: 800 });
    const stalled = slow(base, 700, padded(600).slice(0, 600));
    await arrived();
    expect((await stalled).status).toBe(408);
    expect(
      (
        await send(base, {
          method: 'POST',
          path: '/functions/Ping',
          contentType: 'application/json',
          body: padded(790),
        })
      ).status,
    ).toBe(200);
    const tooLarge = await send(base, {
      method: 'POST',
      path: '/functions/Ping',
      contentType: 'application/json',
      body: padded(900),
    });
    expect(tooLarge.status).toBe(413);
    expect(
      (
        await send(base, {
          method: 'POST',
          path: '/functions/Ping',
          contentType: 'application/json',
          body: padded(790),
        })
      ).status,
    ).toBe(200);
  });

  it('refuses, of many slow clients, those past the budget, holding at most the budget', async () => {
    const { base, arrived } = await start({ maxInFlightBodyBytes: 4_000, bodyTimeoutMs: 30_000 });
    const answers = [];
    for (let i = 0; i < 12; i++) {
      const first = arrived();
      answers.push(slow(base, 1_000, ' '.repeat(900)));
      await first;
    }
    // 4 bodies of 900 bytes fit in 4,000; the other 8 are answered 503 while the 4 still wait.
    const refused = await Promise.all(answers.slice(4));
    expect(refused.map((a) => a.status)).toEqual(new Array(8).fill(503));
    for (const a of answers.slice(0, 4)) a.rest('{}'.padEnd(100, ' '));
    expect((await Promise.all(answers.slice(0, 4))).map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });

  it('counts the bodies a fetch handler reads against the same kind of budget', async () => {
    const handle = createFetchHandler(createCaseSource(), { maxInFlightBodyBytes: 1_000 });
    let push!: (chunk: Uint8Array | null) => void;
    let pulled!: () => void;
    const firstPull = new Promise<void>((resolve) => (pulled = resolve));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (chunk) => (chunk === null ? controller.close() : controller.enqueue(chunk));
      },
      pull() {
        pulled();
      },
    });
    const post = (body: BodyInit): Promise<Response> =>
      handle(
        new Request('http://127.0.0.1/functions/Ping', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          duplex: 'half',
        } as RequestInit),
      );
    push(new TextEncoder().encode(`{"note":"${'x'.repeat(800)}`));
    const held = post(stream);
    await firstPull;
    const refused = await post(padded(400));
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '10']);
    push(new TextEncoder().encode('"}'));
    push(null);
    expect((await held).status).toBe(200);
    expect((await post(padded(900))).status).toBe(200);
  });
});
