/**
 * Hostile requests (the shipped build), run by bench/run.ts: CPU time and added heap of one JSON-RPC prompts/get text
 * through handleJsonRpc (parse, exact-number scan, validation, render), for the worst shapes known, against a
 * legitimate request rendering 1 MiB measured in the same run.
 *
 * - Templates that multiply their input (nested sections over one list or several, lists items hold, inverted
 *   sections, sections over strings and objects, partials, JSON-written values, documents, bodies writing nothing):
 *   each must cost <= 50 ms CPU and <= 8 MB added heap.
 * - Bodies full of numbers a double would change, nested deep (the exact-number scan): <= 10x JSON.parse of the text.
 */
import type { RecordRow } from './fs.js';

const { PromptRegistry, createMemoryResourceResolver, handleJsonRpc } = (await import(
  new URL('../dist/index.js', import.meta.url).href
)) as typeof import('../src/index.js');

const gc = (globalThis as { gc?: () => void }).gc!;

interface Shape {
  readonly template: string;
  readonly args: Record<string, unknown>;
}

const ones = (n: number): number[] => new Array<number>(n).fill(1);

/** The amplifying shapes: every one is refused (LIMIT_EXCEEDED) or rendered within the limits. */
function shapes(): Record<string, Shape> {
  const xs = ones(4999);
  return {
    'same list twice': { template: '{{#xs}}{{#xs}}{{y}}{{/xs}}{{/xs}}', args: { xs } },
    'same list three times': { template: '{{#xs}}{{#xs}}{{#xs}}{{y}}{{/xs}}{{/xs}}{{/xs}}', args: { xs: ones(200) } },
    'two lists': { template: '{{#xs}}{{#ys}}{{y}}{{/ys}}{{/xs}}', args: { xs, ys: xs } },
    'text body': { template: '{{#xs}}{{#xs}}ab{{/xs}}{{/xs}}', args: { xs } },
    'inverted body': { template: '{{#xs}}{{#xs}}{{^y}}{{/y}}{{/xs}}{{/xs}}', args: { xs } },
    'list as JSON per item': { template: '{{#xs}}{{xs}}{{/xs}}', args: { xs } },
    'object as JSON per item': {
      template: '{{#xs}}{{o}}{{/xs}}',
      args: { xs, o: Object.fromEntries(ones(4990).map((_, i) => [`k${i}`, 1])) },
    },
    'string and object sections': {
      template: '{{#xs}}{{#s}}{{#o}}{{#xs}}{{y}}{{/xs}}{{/o}}{{/s}}{{/xs}}',
      args: { xs, s: 'x', o: { a: 1 } },
    },
    'partial per item': { template: '{{#xs}}{{> cell}}{{/xs}}', args: { xs } },
    'document per item': { template: '{{#xs}}{{resource:docs://big}}{{/xs}}', args: { xs } },
    'lists items hold': {
      template: '{{#xs}}{{#ys}}{{#zs}}ab{{/zs}}{{/ys}}{{/xs}}',
      args: { xs: Array.from({ length: 1500 }, () => ({ ys: [1, 1] })), zs: ones(2500) },
    },
    'empty bodies, many nodes': {
      template: `{{#xs}}{{#ys}}${'{{y}}'.repeat(200)}{{/ys}}{{/xs}}`,
      args: { xs: ones(50), ys: ones(100) },
    },
  };
}

function request(name: string, args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name, arguments: args } });
}

/** Median CPU ms and median added heap (MB, no collection inside) of `n` runs of `run`. */
async function cost(run: () => Promise<unknown>, n: number): Promise<{ ms: number; mb: number }> {
  const ms: number[] = [];
  const mb: number[] = [];
  for (let i = 0; i < n; i++) {
    gc();
    gc();
    const heap = process.memoryUsage().heapUsed;
    const cpu = process.cpuUsage();
    await run();
    const used = process.cpuUsage(cpu);
    mb.push((process.memoryUsage().heapUsed - heap) / 2 ** 20);
    ms.push((used.user + used.system) / 1000);
  }
  const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { ms: median(ms), mb: median(mb) };
}

export async function benchAmplification(record: RecordRow, quick: boolean): Promise<void> {
  const runs = quick ? 3 : 7;
  const registry = new PromptRegistry({
    partials: { cell: '{{#xs}}{{y}}{{/xs}}' },
    resources: createMemoryResourceResolver({ 'docs://big': 'd'.repeat(10_000) }),
  });
  const argumentList = [
    { name: 'xs', type: 'array' },
    { name: 'ys', type: 'array' },
    { name: 'zs', type: 'array' },
    { name: 'o', type: 'object' },
    { name: 's' },
    { name: 'y' },
  ] as const;
  const all = shapes();
  let i = 0;
  for (const shape of Object.values(all)) {
    registry.add({
      name: `s${i++}`,
      arguments: [...argumentList],
      messages: [{ role: 'user', content: shape.template }],
    });
  }
  registry.add({
    name: 'legit',
    arguments: [...argumentList],
    messages: [{ role: 'user', content: '{{#xs}}{{.}}{{/xs}}' }],
  });
  const legit = request('legit', { xs: new Array<string>(1000).fill('x'.repeat(1000)) });

  const baseline = await cost(async () => {
    const response = await handleJsonRpc(registry, legit);
    if (response === null || !('result' in response)) throw new Error('bench/amplify: the legitimate render failed');
  }, runs);
  let worst = { ms: 0, mb: 0, msShape: '', mbShape: '' };
  i = 0;
  for (const [what, shape] of Object.entries(all)) {
    const text = request(`s${i++}`, shape.args);
    const { ms, mb } = await cost(() => handleJsonRpc(registry, text), runs);
    if (ms > worst.ms) worst = { ...worst, ms, msShape: what };
    if (mb > worst.mb) worst = { ...worst, mb, mbShape: what };
  }
  record(
    `worst amplifying prompts/get of ${Object.keys(all).length} shapes (CPU; ${worst.msShape})`,
    worst.ms,
    baseline.ms,
    'ms',
    '<= 50 ms',
    worst.ms <= 50,
    'legit 1 MiB render',
  );
  record(
    `worst amplifying prompts/get (added heap; ${worst.mbShape})`,
    worst.mb,
    Math.max(baseline.mb, 0.01),
    'MB',
    '<= 8 MB',
    worst.mb <= 8,
    'legit 1 MiB render',
  );

  // The exact-number scan over ~1 MB bodies: deep nesting around many changed numbers, and a flat object of them.
  const k = 30_000;
  const keys = (n: number): string => Array.from({ length: n }, (_, j) => `"k${j}":1e400`).join(',');
  const bodies = {
    'deep object around changed numbers': `{"o":${'{"a":'.repeat(k)}{${keys(k)}}${'}'.repeat(k)}}`,
    'flat object of changed numbers': `{${keys(80_000)}}`,
  };
  let scanWorst = { ratio: 0, ms: 0, parse: 0, what: '' };
  for (const [what, body] of Object.entries(bodies)) {
    const text = `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"legit","arguments":${body}}}`;
    const parse = await cost(async () => JSON.parse(text), runs);
    const whole = await cost(() => handleJsonRpc(registry, text), runs);
    if (whole.ms / parse.ms > scanWorst.ratio)
      scanWorst = { ratio: whole.ms / parse.ms, ms: whole.ms, parse: parse.ms, what };
  }
  record(
    `prompts/get of a ~1 MB body of changed numbers (${scanWorst.what})`,
    scanWorst.ms,
    scanWorst.parse,
    'ms',
    '<= 10x JSON.parse (linear)',
    scanWorst.ratio <= 10,
    'JSON.parse',
  );
}
