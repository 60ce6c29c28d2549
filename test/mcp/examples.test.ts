/**
 * The runnable examples: the streamable-HTTP server (and the conformance fixtures it serves) and the stdio server,
 * driven by real SDK clients.
 */
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpClientV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpClientV2 } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createConformanceRegistry } from '../../examples/conformance/registry.js';
import { startMcpHttpServer } from '../../examples/mcp-http-server.js';
import type { McpHttpServerOptions, RunningMcpHttpServer } from '../../examples/mcp-http-server.js';
import { createExampleRegistry } from '../../examples/prompts/catalog.js';
import { waitFor, wireError } from './fixtures/clients.js';
import { simplePrompt } from './fixtures/prompts.js';
import { childCoverageEnv, tsNodeArgs } from '../support/processes.js';

const INFO = { name: 'examples-test', version: '1.0.0' };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function serve(
  registry = createExampleRegistry(),
  options: Omit<McpHttpServerOptions, 'registry'> = {},
): Promise<RunningMcpHttpServer> {
  const running = await startMcpHttpServer({ registry, port: 0, ...options });
  cleanup.push(() => running.close());
  return running;
}

async function v1Client(url: string): Promise<ClientV1> {
  return (await v1Session(url)).client;
}

async function v1Session(url: string): Promise<{ client: ClientV1; transport: HttpClientV1 }> {
  const client = new ClientV1(INFO);
  const transport = new HttpClientV1(new URL(url));
  await client.connect(transport);
  cleanup.push(() => client.close());
  return { client, transport };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: INFO },
});
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'prompts/list', params: {} });

/** One raw HTTP exchange with the MCP endpoint: status and (JSON) body. */
async function exchange(
  url: string,
  init: { method?: string; sessionId?: string; body?: string },
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
  };
  if (init.sessionId !== undefined) headers['mcp-session-id'] = init.sessionId;
  const response = await fetch(url, { method: init.method ?? 'POST', headers, body: init.body });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* SSE or empty */
  }
  return { status: response.status, body };
}

function status(url: string, host: string, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, 'content-type': 'application/json' };
    if (origin !== undefined) headers['origin'] = origin;
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('examples/mcp-http-server.ts', () => {
  it('binds to 127.0.0.1 and serves the example prompts over streamable HTTP to an SDK v1 client', async () => {
    const { url } = await serve();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await v1Client(url);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual([
      'explain_error',
      'review_code',
      'write_commit_message',
    ]);
    const review = await client.getPrompt({ name: 'review_code', arguments: { code: 'let x = 1' } });
    expect(review.messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringContaining('# Style guide') });
    expect(await wireError(client.getPrompt({ name: 'review_code' }))).toMatchObject({
      code: -32602,
      data: { missing_arguments: ['code'] },
    });
  });

  it('serves an SDK v2 client too', async () => {
    const { url } = await serve();
    const client = new ClientV2(INFO);
    await client.connect(new HttpClientV2(new URL(url)));
    cleanup.push(() => client.close());
    const result = await client.getPrompt({ name: 'explain_error' });
    expect(result.messages[0]?.content).toEqual({
      type: 'text',
      text: 'I am stuck on an error. Ask me for the message, then explain it.',
    });
  });

  it('delivers list_changed to a session over its SSE stream', async () => {
    const registry = createExampleRegistry();
    const { url } = await serve(registry);
    const client = await v1Client(url);
    let changes = 0;
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      changes++;
    });
    await client.listPrompts();
    // The standalone SSE stream (GET) opens after initialization; wait until a change reaches the client.
    await waitFor(() => {
      registry.set(simplePrompt(`late_${Date.now()}`));
      return changes > 0;
    }, 30_000);
    expect((await client.listPrompts()).prompts.some((p) => p.name.startsWith('late_'))).toBe(true);
  });

  it('refuses requests whose Host header is not the loopback address it listens on (DNS rebinding)', async () => {
    const { url } = await serve();
    const port = new URL(url).port;
    expect(await status(url, `evil.example:${port}`)).toBe(403);
    expect(await status(url, `127.0.0.1:${port}`)).toBe(400); // allowed through, then rejected: no session
  });

  it('refuses a present Origin that is not allowed with 403, and lets requests without one through', async () => {
    const { url } = await serve();
    const port = new URL(url).port;
    const host = `127.0.0.1:${port}`;
    expect(await status(url, host, 'https://evil.example')).toBe(403);
    expect(await status(url, host, 'null')).toBe(403);
    expect(await status(url, host, `http://127.0.0.1:${port}`)).toBe(400); // own origin: through, then no session
    expect(await status(url, host)).toBe(400);
  });
});

describe('examples/mcp-http-server.ts sessions and limits', () => {
  it('answers 404 to an unknown session id, so that the client initializes again', async () => {
    const { url } = await serve();
    for (const method of ['POST', 'GET', 'DELETE']) {
      const reply = await exchange(url, {
        method,
        sessionId: 'no-such-session',
        ...(method === 'POST' ? { body: LIST } : {}),
      });
      expect(reply.status, method).toBe(404);
      expect(reply.body).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
    }
  });

  it('answers 400 to a request without mcp-session-id that is not initialize', async () => {
    const { url } = await serve();
    expect((await exchange(url, { body: LIST })).status).toBe(400);
    expect((await exchange(url, { method: 'GET' })).status).toBe(400);
    expect((await exchange(url, { body: INITIALIZE })).status).toBe(200);
  });

  it('answers 413 with LIMIT_EXCEEDED, not "Invalid JSON body", to a body over the limit', async () => {
    const { url } = await serve(createExampleRegistry(), { maxBodyBytes: 64 * 1024 });
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'prompts/list',
      params: { pad: 'x'.repeat(100 * 1024) },
    });
    const reply = await exchange(url, { body: big });
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32602, message: 'Request body exceeds 65536 bytes' },
    });
    // A body within the limit that is not JSON is still a parse error.
    expect(await exchange(url, { body: '{not json' })).toEqual({
      status: 400,
      body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON body' } },
    });
  });

  it('closes a session idle for longer than sessionIdleTimeoutMs, while one kept busy stays open; the idle id then gets 404', async () => {
    const registry = createExampleRegistry();
    const running = await serve(registry, { sessionIdleTimeoutMs: 500 });
    const { client, transport } = await v1Session(running.url);
    await client.listPrompts();
    const sessionId = transport.sessionId;
    expect(sessionId).toBeTypeOf('string');
    // Opened after the idle one and asked again and again (each request restarts its timer) until the idle one
    // closes...
    const busy = await v1Session(running.url);
    while (running.sessionCount() === 2) await busy.client.listPrompts();
    expect(running.sessionCount()).toBe(1);
    // ...and until one opened after that closes too: without the restarts its own first timer would have closed it
    // first.
    const later = await v1Session(running.url);
    await later.client.listPrompts();
    while (running.sessionCount() === 2) await busy.client.listPrompts();
    expect((await busy.client.listPrompts()).prompts.length).toBeGreaterThan(0);
    expect(running.sessionCount()).toBe(1);
    expect((await exchange(running.url, { sessionId: sessionId!, body: LIST })).status).toBe(404);
  });

  it('answers 500 when a session server cannot connect, without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const logged: string[] = [];
      const { url, sessionCount } = await serve(createExampleRegistry(), {
        log: (message) => logged.push(message),
        createMcpServer: () => {
          const server = new McpServer(INFO);
          server.connect = () => Promise.reject(new Error('transport refused'));
          return server;
        },
      });
      const reply = await exchange(url, { body: INITIALIZE });
      expect(reply).toEqual({
        status: 500,
        body: { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } },
      });
      // A second exchange: whatever the first one left pending has run by its end.
      expect((await exchange(url, { body: INITIALIZE })).status).toBe(500);
      expect(unhandled).toEqual([]);
      expect(sessionCount()).toBe(0);
      expect(logged.join('\n')).toMatch(/could not connect a new session.*transport refused/);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('examples/conformance', () => {
  it('serves the conformance fixtures exactly as the suite specifies', async () => {
    const { url } = await serve(createConformanceRegistry());
    const client = await v1Client(url);
    const prompts = (await client.listPrompts()).prompts;
    expect(prompts.map((p) => p.name)).toEqual([
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
      'test_simple_prompt',
    ]);
    expect(prompts.every((p) => typeof p.description === 'string' && p.description.length > 0)).toBe(true);

    expect((await client.getPrompt({ name: 'test_simple_prompt' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ]);
    expect(
      (await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } }))
        .messages,
    ).toEqual([{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" } }]);
    expect(
      (
        await client.getPrompt({
          name: 'test_prompt_with_embedded_resource',
          arguments: { resourceUri: 'test://example-resource' },
        })
      ).messages,
    ).toEqual([
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: 'test://example-resource',
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ]);
    const image = (await client.getPrompt({ name: 'test_prompt_with_image' })).messages;
    expect(image[1]).toEqual({ role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } });
    const content = image[0]?.content as { type: string; mimeType: string; data: string };
    expect(content.type).toBe('image');
    expect(content.mimeType).toBe('image/png');
    expect(Buffer.from(content.data, 'base64').subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );

    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);
  });
});

describe('examples/mcp-stdio-server.ts', () => {
  it('serves the example prompts over stdio', async () => {
    const script = fileURLToPath(new URL('../../examples/mcp-stdio-server.ts', import.meta.url));
    const client = new ClientV1(INFO);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: tsNodeArgs(script),
        env: childCoverageEnv(),
        stderr: 'ignore',
      }),
    );
    cleanup.push(() => client.close());
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual([
      'explain_error',
      'review_code',
      'write_commit_message',
    ]);
    const commit = await client.getPrompt({
      name: 'write_commit_message',
      arguments: { diff: '+x', max_subject_length: '50' },
    });
    expect(commit.messages[0]?.content).toMatchObject({ text: expect.stringContaining('under 50 characters') });
  });
});
