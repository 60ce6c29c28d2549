/** `runCgi`: the HTTP routes as a CGI/1.1 script (a web server runs it once per request). */
import type { Readable, Writable } from 'node:stream';
import { PromptError } from '../errors.js';
import { bodyTooLarge, collectBody } from './body.js';
import type { BodyLease } from './budget.js';
import { isLoopbackAddress } from './gate.js';
import { transportError } from './core-response.js';
import type { CoreResponse } from './core-response.js';
import { createHttpCore } from './router.js';
import type { HttpHandlerOptions } from './router.js';
import type { HttpSource } from './sources.js';

/** Where a CGI request comes from and goes to (default: `process.env`, `process.stdin`, `process.stdout`). */
export interface CgiIo {
  env?: Readonly<Record<string, string | undefined>>;
  stdin?: Readable;
  stdout?: Writable;
}

/**
 * Answers one CGI/1.1 request (`REQUEST_METHOD`, `PATH_INFO`, `QUERY_STRING`, `CONTENT_TYPE`, `CONTENT_LENGTH`, body on
 * stdin) with `Status:` and `Content-Type: application/json` headers, a blank line and the JSON body: the same routes
 * and statuses as the HTTP handlers (no body for HEAD). `HTTP_HOST` and `HTTP_ORIGIN` are checked like the Host and
 * Origin headers; with `SERVER_ADDR` on loopback, Host defaults to the localhost names. Resolves with the status once
 * the answer is written.
 *
 * @example
 * ```ts
 * await runCgi({ prompts: registry, functions }); // in a script your web server runs as CGI
 * ```
 */
export async function runCgi(source: HttpSource, io: CgiIo = {}, options: HttpHandlerOptions = {}): Promise<number> {
  const env = io.env ?? process.env;
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  let reply: CoreResponse;
  try {
    const core = createHttpCore(source, options);
    reply = await core.handle({
      method: (env['REQUEST_METHOD'] ?? 'GET').toUpperCase(),
      path: env['PATH_INFO'] === undefined || env['PATH_INFO'] === '' ? '/' : env['PATH_INFO'],
      query: new URLSearchParams(env['QUERY_STRING'] ?? ''),
      contentType: env['CONTENT_TYPE'] === '' ? undefined : env['CONTENT_TYPE'],
      host: env['HTTP_HOST'],
      origin: env['HTTP_ORIGIN'],
      loopback: isLoopbackAddress(env['SERVER_ADDR']),
      // RFC 3875: each request header is a meta-variable HTTP_<NAME>, upper case, dashes as underscores.
      header: (name) => env[`HTTP_${name.toUpperCase().replace(/-/g, '_')}`],
      readBody: async (limit, timeoutMs, lease) => ({
        bytes: await readCgiBody(stdin, env['CONTENT_LENGTH'], limit, timeoutMs, lease),
      }),
    });
  } catch (error) {
    reply = transportError(error);
  }
  let head = `${`Status: ${reply.status} ${REASONS[reply.status] ?? ''}`.trimEnd()}\r\n`;
  for (const [name, value] of Object.entries(reply.headers)) head += `${headerName(name)}: ${value}\r\n`;
  const body = (env['REQUEST_METHOD'] ?? '').toUpperCase() === 'HEAD' ? '' : reply.body;
  await new Promise<void>((resolve, reject) =>
    stdout.write(`${head}\r\n${body}`, (error) => (error ? reject(error) : resolve())),
  );
  return reply.status;
}

/** Exactly CONTENT_LENGTH bytes from stdin (RFC 3875: the server may not send EOF); none without it. */
async function readCgiBody(
  stdin: Readable,
  contentLength: string | undefined,
  limit: number,
  timeoutMs: number,
  lease: BodyLease,
): Promise<Uint8Array> {
  if (contentLength === undefined || contentLength === '') return new Uint8Array(0);
  const length = Number(contentLength);
  if (!Number.isSafeInteger(length) || length < 0)
    throw new PromptError('INVALID_REQUEST', 'CONTENT_LENGTH must be a non-negative integer');
  if (length > limit) throw bodyTooLarge(limit);
  if (length === 0) return new Uint8Array(0);
  const chunks = stdin[Symbol.asyncIterator]();
  let remaining = length;
  const body = await collectBody(
    async () => {
      if (remaining <= 0) return undefined;
      const { done, value } = await chunks.next();
      if (done === true) return undefined;
      const chunk = typeof value === 'string' ? new TextEncoder().encode(value) : (value as Uint8Array);
      const part = chunk.byteLength > remaining ? chunk.subarray(0, remaining) : chunk;
      remaining -= part.byteLength;
      return part;
    },
    () => stdin.destroy(),
    limit,
    timeoutMs,
    lease,
  );
  if (body.byteLength < length)
    throw new PromptError('INVALID_REQUEST', `Request body ended after ${body.byteLength} of ${length} bytes`);
  return body;
}

const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}
