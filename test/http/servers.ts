/**
 * The HTTP handlers behind real servers on 127.0.0.1 (port 0): node:http, Express 5 (mounted at /api), Hono (routing
 * /api/* to the fetch handler) and the bare fetch handler, so one case table runs against each.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { createFetchHandler, createNodeHandler } from '../../src/http/index.js';
import type { HttpHandlerOptions, HttpSource } from '../../src/http/index.js';
import type { HttpCase } from './cases.js';

export type ServerKind = 'node:http' | 'express' | 'hono' | 'fetch';
export const SERVER_KINDS: readonly ServerKind[] = ['node:http', 'express', 'hono', 'fetch'];

export interface RunningServer {
  /** Base URL of the routes, e.g. http://127.0.0.1:1234/api */
  base: string;
  close(): Promise<void>;
}

function listening(server: import('node:http').Server | import('node:http2').Http2Server): Promise<string> {
  return new Promise((resolve) => {
    const done = (): void => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    if (server.listening) done();
    else server.once('listening', done);
  });
}

function closer(server: {
  close(cb: (error?: Error) => void): unknown;
  closeAllConnections?: () => void;
}): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    });
}

/** Starts `kind` serving `source`. */
export async function startServer(
  kind: ServerKind,
  source: HttpSource,
  options: HttpHandlerOptions = {},
): Promise<RunningServer> {
  switch (kind) {
    case 'node:http': {
      const server = createServer(createNodeHandler(source, options)).listen(0, '127.0.0.1');
      return { base: await listening(server), close: closer(server) };
    }
    case 'express': {
      const app = express();
      app.use('/api', createNodeHandler(source, options));
      app.get('/api/health', (_req, res) => void res.json({ ok: true })); // reached through next()
      const server = app.listen(0, '127.0.0.1');
      return { base: `${await listening(server)}/api`, close: closer(server) };
    }
    case 'hono': {
      const handle = createFetchHandler(source, { ...options, basePath: '/api' });
      const app = new Hono();
      app.all('/api/*', (c) => handle(c.req.raw, c.env)); // c.env: the node connection, for the loopback Host default
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
      return {
        base: `${await listening(server as import('node:http').Server)}/api`,
        close: closer(server as import('node:http').Server),
      };
    }
    case 'fetch': {
      const server = serve({ fetch: createFetchHandler(source, options), port: 0, hostname: '127.0.0.1' });
      return {
        base: await listening(server as import('node:http').Server),
        close: closer(server as import('node:http').Server),
      };
    }
  }
}

export interface Sent {
  method: string;
  path: string;
  contentType?: string;
  headers?: HttpCase['headers'];
  body?: string | Uint8Array;
}

/** One request over node:http (so Host and Origin are exactly what the case says). */
export function send(base: string, c: Sent): Promise<{ status: number; headers: Headers; text: string }> {
  const url = new URL(`${base}${c.path}`);
  const headers: Record<string, string> = { host: c.headers?.host ?? url.host };
  if (c.contentType !== undefined) headers['content-type'] = c.contentType;
  const origin = c.headers?.origin;
  if (origin !== undefined) headers['origin'] = origin === 'same' ? `http://${headers['host']}` : origin;
  const body = c.body === undefined ? undefined : Buffer.from(c.body);
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: c.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') out.set(name, value);
        resolve({ status: res.statusCode ?? 0, headers: out, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
