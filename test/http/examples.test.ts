import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tsNodeArgs } from '../support/processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Starts an example server on port 0, reads the URL it prints, and stops it afterwards. */
async function withExample(file: string, use: (base: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, tsNodeArgs(file), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('http://'));
        if (line !== undefined) resolve(line.trim());
      });
      child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
    });
    await use(base);
  } finally {
    child.kill();
  }
}

describe.each(['examples/http/express.ts', 'examples/http/hono.ts', 'examples/http/fetch.ts'])('%s', (file) => {
  it('serves the example app: Add, an unknown function, invalid JSON, a text/plain body (415), a cross-site POST (403), HEAD, the OpenAPI document', async () => {
    await withExample(file, async (base) => {
      const post = (path: string, body: string) =>
        fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const add = await post('/functions/Add', '{"x":7,"y":3}');
      expect([add.status, await add.text()]).toEqual([200, '{"result":10}']);
      const missing = await post('/functions/NonExistent', '{}');
      expect([missing.status, await missing.text()]).toEqual([404, '{"error":"Function not found: NonExistent"}']);
      const invalid = await post('/functions/Add', '{oops');
      expect([invalid.status, await invalid.text()]).toEqual([400, '{"error":"Invalid JSON body"}']);
      const plain = await fetch(`${base}/functions/Add`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{"x":7,"y":3}',
      });
      expect(plain.status).toBe(415);
      const crossSite = await fetch(`${base}/functions/Add`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: '{"x":7,"y":3}',
      });
      expect(crossSite.status).toBe(403);
      const head = await fetch(`${base}/prompts`, { method: 'HEAD' });
      expect([head.status, await head.text()]).toEqual([200, '']);
      const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
        openapi: string;
        paths: Record<string, unknown>;
      };
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths).some((p) => p.endsWith('/functions/Add'))).toBe(true);
    });
  }, 120_000);
});
