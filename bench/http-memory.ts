/**
 * HTTP memory: what one 1 MiB body keeps alive while its function runs, and what 300 slow clients (each 1 byte short
 * of a 1 MiB body) hold, each against a baseline in the same process. Takes the modules to measure, so the same code
 * measures the build (bench/http.ts) or any source tree.
 */
import { createServer, request } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Src = typeof import('../src/index.js');
type Http = typeof import('../src/http/index.js');
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const MIB = 1024 * 1024;
const gc = (): void => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run with node --expose-gc');
  collect();
  collect();
};
/** A full GC once what earlier measurements closed has been let go (sockets close over a few turns). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc();
  }
}
/** Heap plus ArrayBuffers (the body chunks live outside the V8 heap). */
const held = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** A 1 MiB body: 1,000 notes of about a KiB each (every one within the default argument limits). */
export function mebibyteBody(): Buffer {
  return Buffer.from(JSON.stringify({ notes: Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(1040, 'x')) }));
}

async function listen(handler: Handler): Promise<{ server: Server; port: number }> {
  const server = createServer(handler).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

function post(port: number, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/functions/Count',
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Bytes alive (after a full GC) while the function runs on a 1 MiB body: ours through createNodeHandler, the
 * baseline a bare handler (Buffer.concat, toString, JSON.parse, the same FunctionRegistry call). Median of runs.
 */
export async function retainedPerMebibyte(src: Src, http: Http, runs = 7): Promise<{ ours: number; baseline: number }> {
  let sample = 0;
  const functions = new src.FunctionRegistry().add(
    src.defineFunction({
      name: 'Count',
      arguments: [{ name: 'notes', type: 'array', items: { type: 'string' }, required: true }],
      run: ({ notes }) => {
        gc();
        sample = held();
        return (notes as string[]).length;
      },
    }),
  );
  const bare: Handler = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      functions.call('Count', JSON.parse(Buffer.concat(chunks).toString('utf8'))).then(
        (result) => res.end(JSON.stringify(result)),
        () => res.writeHead(500).end(),
      );
    });
  };
  const body = mebibyteBody();
  const measure = async (handler: Handler): Promise<number> => {
    const { server, port } = await listen(handler);
    const out: number[] = [];
    try {
      for (let i = 0; i < runs + 2; i++) {
        gc();
        const before = held();
        const status = await post(port, body);
        if (status !== 200) throw new Error(`bench/http-memory: status ${status}`);
        if (i >= 2) out.push(sample - before);
      }
    } finally {
      await close(server);
    }
    return out.sort((a, b) => a - b)[out.length >> 1]!;
  };
  const baseline = await measure(bare);
  const ours = await measure(http.createNodeHandler(functions, { maxBodyBytes: 2 * MIB }) as Handler);
  return { ours, baseline };
}

/**
 * Bytes held (after a full GC) while `clients` connections each send all but the last byte of a 1 MiB body: ours
 * with the given options, once every byte sent has reached the server (or been refused with 503 and drained).
 */
export async function heldBySlowClients(
  src: Src,
  http: Http,
  clients: number,
  options: Record<string, unknown>,
): Promise<{ bytes: number; refused: number }> {
  const functions = new src.FunctionRegistry().add(
    src.defineFunction({ name: 'Count', arguments: [{ name: 'notes' }], run: () => 0 }),
  );
  const handler = http.createNodeHandler(functions, {
    maxBodyBytes: 2 * MIB,
    bodyTimeoutMs: 120_000,
    ...options,
  }) as Handler;
  const part = Buffer.alloc(MIB - 1, 0x20); // whitespace: a valid start of a JSON body, never finished
  const expected = clients * part.length;
  let received = 0;
  let arrived: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (arrived = resolve));
  let refused = 0;
  const { server, port } = await listen((req, res) => {
    req.on('data', (d: Buffer) => {
      received += d.length;
      if (received === expected) arrived();
    });
    handler(req, res);
  });
  await settle();
  const before = held();
  const requests = Array.from({ length: clients }, () => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/functions/Count',
        headers: { 'content-type': 'application/json', 'content-length': MIB },
      },
      (res) => {
        if (res.statusCode === 503) refused++;
        res.resume();
      },
    );
    req.on('error', () => undefined);
    req.write(part);
    return req;
  });
  try {
    await all;
    gc();
    return { bytes: held() - before, refused };
  } finally {
    for (const req of requests) req.destroy();
    await close(server);
  }
}
