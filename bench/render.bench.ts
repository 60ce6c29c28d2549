/**
 * Renderer micro-benchmark (not part of `npm test`):
 *   node --expose-gc --import tsx bench/render.bench.ts
 *
 * 1. Render speed on a ~1 KB template with a 2,000-character argument: our compiled template vs mustache's Writer
 *    rendering the same pre-parsed tokens (private writer, no escaping) vs `Mustache.render` (global cache, HTML
 *    escaping, as a host app would use it).
 * 2. Compile time and retained heap for 10,000 DISTINCT ~1 KB templates vs mustache's own parse of the same texts.
 */
import Mustache from 'mustache';
import { Bench } from 'tinybench';
import { compileTemplate } from '../src/render/index.js';
import type { CompiledTemplate } from '../src/render/index.js';

const gc = (globalThis as { gc?: () => void }).gc;

function makeTemplate(i: number): string {
  const filler =
    'Check naming, error handling, resource cleanup and concurrency. Point out anything that contradicts the ' +
    'documented patterns, and suggest the smallest change that fixes it. ';
  return [
    `Review the following {{language}} code (catalogue entry ${i}) against our architectural patterns.`,
    '{{#focus}}',
    'Pay special attention to: {{focus}}.',
    '{{/focus}}',
    '{{^focus}}',
    'Review every aspect of the code.',
    '{{/focus}}',
    '',
    '```{{language}}',
    '{{code}}',
    '```',
    '',
    filler.repeat(3),
    `Reply in {{language}}-idiomatic terms. Reference ${i}: {{reference.id}} ({{reference.title}}).`,
    filler.repeat(2),
    'Summarise the three most important findings first, then list the rest by severity.',
  ].join('\n');
}

function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(2)}x`;
}

async function renderBench(): Promise<void> {
  const template = makeTemplate(0);
  const code = 'const a = b < c && d > e ? "x" : `y`;\n'.repeat(60).slice(0, 2000);
  const values = { code, language: 'typescript', focus: 'security', reference: { id: 'ADR-7', title: 'Errors' } };
  const view = Object.assign(Object.create(null) as Record<string, unknown>, values);

  const compiled = compileTemplate(template);
  const writer = new Mustache.Writer();
  const tokens = writer.parse(template, ['{{', '}}']) as string[][];
  const identity = { escape: (value: unknown): string => String(value) };
  const check = writer.renderTokens(tokens, new Mustache.Context(values), undefined, template, identity);
  if (compiled.render(view) !== check) throw new Error('outputs differ');

  console.log(`template: ${template.length} chars, code argument: ${code.length} chars`);
  const bench = new Bench({ time: 1500, warmupTime: 300 });
  let sink = 0;
  bench
    .add('mcp-prompt-kit compiled.render', () => {
      sink += compiled.render(view).length;
    })
    .add('mustache Writer.renderTokens (pre-parsed, no escaping)', () => {
      sink += writer.renderTokens(tokens, new Mustache.Context(values), undefined, template, identity).length;
    })
    .add('Mustache.render (global cache, HTML escaping)', () => {
      sink += Mustache.render(template, values).length;
    });
  await bench.run();
  const mean = (i: number): number => bench.tasks[i]?.result?.latency.mean ?? Number.NaN;
  for (let i = 0; i < bench.tasks.length; i++) {
    const task = bench.tasks[i];
    console.log(
      `  ${task?.name.padEnd(58)} ${(mean(i) * 1000).toFixed(2).padStart(8)} us/op  ` +
        `(ours / this = ${ratio(mean(0), mean(i))})`,
    );
  }
  if (sink === 0) console.log('');
}

function heapUsed(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

function compileBench(): void {
  const N = 10_000;
  const texts = Array.from({ length: N }, (_, i) => makeTemplate(i + 1));
  const avgChars = texts.reduce((n, t) => n + t.length, 0) / N;
  // Warm both paths up on other texts.
  for (let i = 0; i < 300; i++) {
    const w = new Mustache.Writer();
    w.parse(makeTemplate(-i), ['{{', '}}']);
    compileTemplate(makeTemplate(-i));
  }
  const mustacheParse = (): unknown[] => {
    const w = new Mustache.Writer();
    (w as unknown as { templateCache: undefined }).templateCache = undefined;
    const out: unknown[] = new Array(N);
    for (let i = 0; i < N; i++) out[i] = w.parse(texts[i] as string, ['{{', '}}']);
    return out;
  };
  const ourCompile = (): CompiledTemplate[] => {
    const out: CompiledTemplate[] = new Array(N);
    for (let i = 0; i < N; i++) out[i] = compileTemplate(texts[i] as string);
    return out;
  };
  const mustacheParseOnly = (): number => {
    const w = new Mustache.Writer();
    (w as unknown as { templateCache: undefined }).templateCache = undefined;
    let n = 0;
    for (let i = 0; i < N; i++) n += (w.parse(texts[i] as string, ['{{', '}}']) as unknown[]).length;
    return n;
  };
  const times = { mustache: Infinity, ours: Infinity, parseOnly: Infinity };
  const heap = { mustache: Infinity, ours: Infinity };
  for (let round = 0; round < 3; round++) {
    heapUsed();
    const start = performance.now();
    if (mustacheParseOnly() === 0) throw new Error('no tokens');
    times.parseOnly = Math.min(times.parseOnly, performance.now() - start);
    for (const which of ['mustache', 'ours'] as const) {
      const before = heapUsed();
      const start = performance.now();
      let kept: unknown[] | undefined = which === 'mustache' ? mustacheParse() : ourCompile();
      times[which] = Math.min(times[which], performance.now() - start);
      heap[which] = Math.min(heap[which], (heapUsed() - before) / N);
      if (kept.length !== N) throw new Error('lost results');
      kept = undefined;
    }
  }
  console.log(`\n${N} distinct templates, ${avgChars.toFixed(0)} chars on average:`);
  console.log(
    `  compile time: mustache parse ${times.mustache.toFixed(0)} ms, ours ${times.ours.toFixed(0)} ms ` +
      `-> ${ratio(times.ours, times.mustache)} of mustache (target <= 1.20x)`,
  );
  console.log(
    `  (mustache parse discarding its tokens, i.e. no retention/GC cost: ${times.parseOnly.toFixed(0)} ms; ours ` +
      `${ratio(times.ours, times.parseOnly)} of that)`,
  );
  if (gc === undefined) console.log('  (run node with --expose-gc for heap numbers)');
  else {
    console.log(
      `  retained heap per template: mustache tokens ${(heap.mustache / 1024).toFixed(2)} KB, ours ` +
        `${(heap.ours / 1024).toFixed(2)} KB (target <= 4 KB per prompt; template text itself excluded)`,
    );
  }
}

console.log(`node ${process.version}, ${new Date().toISOString()}`);
await renderBench();
compileBench();
