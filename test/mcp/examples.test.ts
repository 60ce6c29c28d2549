/**
 * The runnable examples: the streamable-HTTP server (and the conformance fixtures it serves) and the stdio server,
 * driven by real SDK clients.
 */
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpClientV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpClientV2 } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createConformanceRegistry } from '../../examples/conformance/registry.js';
import { startMcpHttpServer } from '../../examples/mcp-http-server.js';
import type { RunningMcpHttpServer } from '../../examples/mcp-http-server.js';
import { createExampleRegistry } from '../../examples/prompts/catalog.js';
import { waitFor, wireError } from './fixtures/clients.js';
import { simplePrompt } from './fixtures/prompts.js';

const INFO = { name: 'examples-test', version: '1.0.0' };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function serve(registry = createExampleRegistry()): Promise<RunningMcpHttpServer> {
  const running = await startMcpHttpServer({ registry, port: 0 });
  cleanup.push(() => running.close());
  return running;
}

async function v1Client(url: string): Promise<ClientV1> {
  const client = new ClientV1(INFO);
  await client.connect(new HttpClientV1(new URL(url)));
  cleanup.push(() => client.close());
  return client;
}

function status(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { host, 'content-type': 'application/json' } }, (res) => {
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
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['explain_error', 'review_code', 'write_commit_message']);
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
    }, 5000);
    expect((await client.listPrompts()).prompts.some((p) => p.name.startsWith('late_'))).toBe(true);
  });

  it('refuses requests whose Host header is not the loopback address it listens on (DNS rebinding)', async () => {
    const { url } = await serve();
    const port = new URL(url).port;
    expect(await status(url, `evil.example:${port}`)).toBe(403);
    expect(await status(url, `127.0.0.1:${port}`)).toBe(400); // allowed through, then rejected: no session
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
      (await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'hello', arg2: 'world' } })).messages,
    ).toEqual([{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" } }]);
    expect(
      (await client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://example-resource' } }))
        .messages,
    ).toEqual([
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: 'test://example-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ]);
    const image = (await client.getPrompt({ name: 'test_prompt_with_image' })).messages;
    expect(image[1]).toEqual({ role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } });
    const content = image[0]?.content as { type: string; mimeType: string; data: string };
    expect(content.type).toBe('image');
    expect(content.mimeType).toBe('image/png');
    expect(Buffer.from(content.data, 'base64').subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } });
    expect(completion.completion.values).toEqual(['paris', 'park', 'party']);
  });
});

describe('examples/mcp-stdio-server.ts', () => {
  it('serves the example prompts over stdio', async () => {
    const script = fileURLToPath(new URL('../../examples/mcp-stdio-server.ts', import.meta.url));
    const client = new ClientV1(INFO);
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', script], stderr: 'ignore' }),
    );
    cleanup.push(() => client.close());
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['explain_error', 'review_code', 'write_commit_message']);
    const commit = await client.getPrompt({ name: 'write_commit_message', arguments: { diff: '+x', max_subject_length: '50' } });
    expect(commit.messages[0]?.content).toMatchObject({ text: expect.stringContaining('under 50 characters') });
  });
});
