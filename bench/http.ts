/**
 * HTTP benchmark (mcp-prompt-kit/http, the shipped build), run by bench/run.ts: POST /prompts/review_code through
 * createNodeHandler on node:http over loopback, requests/s against a bare node:http handler that reads the same body
 * and calls the same registry.getPrompt (same process, same run), load from autocannon; and memory
 * (bench/http-memory.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { median } from './fs.js';
import type { RecordRow } from './fs.js';
import { heldBySlowClients, retainedPerMebibyte } from './http-memory.js';

const core = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof import('../src/index.js');
const http = (await import(new URL('../dist/http.js', import.meta.url).href)) as typeof import('../src/http/index.js');
const { PromptRegistry } = core;
const { createNodeHandler } = http;

async function requestsPerSecond(handler: Parameters<typeof createServer>[1], seconds: number): Promise<number> {
  const server = createServer(handler!).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}/prompts/review_code`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'function add(a, b) { return a + b; }', language: 'typescript' }),
      connections: 10,
      duration: seconds,
    });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`bench/http: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.requests.average;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export async function benchHttp(record: RecordRow, quick: boolean): Promise<void> {
  const registry = new PromptRegistry();
  registry.add({
    name: 'review_code',
    arguments: [
      { name: 'code', required: true, maxLength: 10_000 },
      { name: 'language', enum: ['typescript', 'python', 'go'] },
    ],
    messages: [{ role: 'user', content: 'Review this {{language}} code:\n{{code}}' }],
  });
  const bare: Parameters<typeof createServer>[1] = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      registry.getPrompt('review_code', JSON.parse(Buffer.concat(chunks).toString('utf8'))).then(
        (result) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ result }));
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    });
  };
  // Paired one-second rounds (bare, then ours): the machine's other work reaches both sides of a round.
  const handler = createNodeHandler(registry);
  const ourRates: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < (quick ? 2 : 5); r++) {
    const b = await requestsPerSecond(bare, 1);
    const o = await requestsPerSecond(handler, 1);
    ourRates.push(o);
    ratios.push(o / b);
  }
  const ratio = median(ratios);
  // The baseline shown is ours over the paired ratio, as the YAML rows do.
  record(
    'POST /prompts/{name} through node:http (requests/s)',
    median(ourRates),
    median(ourRates) / ratio,
    'req/s',
    '>= 0.8x bare node:http (paired)',
    ratio >= 0.8,
    'bare node:http + getPrompt',
  );

  // Memory: one 1 MiB body while its function runs, and 300 clients each 1 byte short of a 1 MiB body.
  const MB = 1e6;
  const one = await retainedPerMebibyte(core, http);
  record(
    '1 MiB POST body: bytes alive while the function runs',
    one.ours / MB,
    one.baseline / MB,
    'MB',
    '<= 1.0x bare handler',
    one.ours <= one.baseline,
    'bare concat + JSON.parse',
  );
  const unbounded = await heldBySlowClients(core, http, 300, { maxInFlightBodyBytes: 2 ** 31 - 1 });
  const bounded = await heldBySlowClients(core, http, 300, {});
  record(
    `300 slow 1 MiB bodies: bytes held (default 64 MiB budget; ${bounded.refused} answered 503)`,
    bounded.bytes / MB,
    unbounded.bytes / MB,
    'MB',
    '<= 64 MiB + 10%',
    bounded.bytes <= 1.1 * 64 * 1024 * 1024,
    'no budget',
  );
}
