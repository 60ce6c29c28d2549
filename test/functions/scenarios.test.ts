/**
 * The six scenarios of the one-JSON-format requirement, run against the example app (examples/functions/app.ts) as
 * users reach it: an MCP client over stdio (examples/functions/stdio-server.ts), HTTP, and CGI (examples/cgi.ts).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleFunctions, createExampleRegistry } from '../../examples/functions/app.js';
import { startServer } from '../http/servers.js';
import type { RunningServer } from '../http/servers.js';
import { childCoverageEnv, tsNodeArgs } from '../support/processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
type ToolResult = { content: { type: string; text: string }[]; structuredContent?: unknown; isError?: boolean };

function cgi(env: Record<string, string>, body = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, tsNodeArgs('examples/cgi.ts'), {
      cwd: ROOT,
      env: { ...childCoverageEnv(), PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out));
    child.stdin.end(body);
  });
}

describe('one JSON format over MCP, HTTP and CGI', () => {
  let client: Client;
  let http: RunningServer;
  beforeAll(async () => {
    client = new Client({ name: 'scenarios', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: tsNodeArgs('examples/functions/stdio-server.ts'),
        cwd: ROOT,
        env: childCoverageEnv(),
        stderr: 'ignore',
      }),
    );
    http = await startServer('node:http', { prompts: createExampleRegistry(), functions: createExampleFunctions() });
  }, 120_000);
  afterAll(async () => {
    await client.close();
    await http.close();
  });

  it('1. Add {"x":7,"y":3} as an MCP tool answers the text {"result":10}, an integer', async () => {
    const result = (await client.callTool({ name: 'Add', arguments: { x: 7, y: 3 } })) as ToolResult;
    expect(result.content).toEqual([{ type: 'text', text: '{"result":10}' }]);
    expect(result.structuredContent).toEqual({ result: 10 });
  });

  it('2. Add {"x":"not_a_number","y":3} is a tool error with {"error": ...}', async () => {
    const result = (await client.callTool({ name: 'Add', arguments: { x: 'not_a_number', y: 3 } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ error: expect.any(String) });
  });

  it('3. POST invalid JSON answers 400 {"error":"Invalid JSON body"}', async () => {
    const response = await fetch(`${http.base}/functions/Add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"x": 7',
    });
    expect([response.status, await response.text()]).toEqual([400, '{"error":"Invalid JSON body"}']);
  });

  it('4. CGI PATH_INFO=/functions/NonExistent answers Status: 404 Not Found and a JSON error', async () => {
    const out = await cgi(
      {
        REQUEST_METHOD: 'POST',
        PATH_INFO: '/functions/NonExistent',
        CONTENT_TYPE: 'application/json',
        CONTENT_LENGTH: '2',
      },
      '{}',
    );
    expect(out).toBe(
      'Status: 404 Not Found\r\nContent-Type: application/json; charset=utf-8\r\n\r\n{"error":"Function not found: NonExistent"}',
    );
  });

  it('5. /openapi.json documents 400 and 500 on every operation', async () => {
    const doc = (await (await fetch(`${http.base}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    for (const operations of Object.values(doc.paths)) {
      for (const operation of Object.values(operations))
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '500']));
    }
  });

  it('6. success bodies are the same whichever transport: {"result":10}', async () => {
    const viaMcp = ((await client.callTool({ name: 'Add', arguments: { x: 7, y: 3 } })) as ToolResult).content[0]!.text;
    const viaHttp = await (
      await fetch(`${http.base}/functions/Add`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"x":7,"y":3}',
      })
    ).text();
    const viaCgi = (
      await cgi(
        { REQUEST_METHOD: 'POST', PATH_INFO: '/functions/Add', CONTENT_TYPE: 'application/json', CONTENT_LENGTH: '13' },
        '{"x":7,"y":3}',
      )
    ).split('\r\n\r\n')[1];
    expect([viaMcp, viaHttp, viaCgi]).toEqual(['{"result":10}', '{"result":10}', '{"result":10}']);
  });
});
