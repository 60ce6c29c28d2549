/**
 * Prompt-file benchmarks (mcp-prompt-kit/fs, the shipped build), run by bench/run.ts:
 * - loading 1,000 prompt files vs reading and JSON.parse-ing the same files (same directory, same run);
 * - reload latency of the watcher: an atomic save (write a temp file, rename it over the prompt) until the registry
 *   changes, median of 20, against the debounce window + 50 ms.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const distFs = new URL('../dist/fs.js', import.meta.url).href;
const distCore = new URL('../dist/index.js', import.meta.url).href;
const { loadPromptDirectory, watchPromptDirectory } = (await import(distFs)) as typeof import('../src/fs/index.js');
const { PromptRegistry } = (await import(distCore)) as typeof import('../src/index.js');

/** How bench/run.ts records a row. */
export type RecordRow = (metric: string, ours: number, baseline: number, unit: string, target: string, ok: boolean, baselineName: string) => void;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** A realistic prompt file (~1 KB): arguments with descriptions, two messages. */
function promptFile(i: number): string {
  return JSON.stringify(
    {
      name: `review_code_${i}`,
      title: `Review code ${i}`,
      description: `Review a snippet of code against the team's guidelines (variant ${i})`,
      arguments: [
        { name: 'code', description: 'The code to review', required: true, maxLength: 10_000 },
        { name: 'language', description: 'Its language', enum: ['typescript', 'python', 'go', 'rust'], default: 'typescript' },
        { name: 'focus', description: 'What to focus on (optional)' },
      ],
      messages: [
        {
          role: 'user',
          content: `Review this {{language}} code (${i}):\n\`\`\`{{language}}\n{{code}}\n\`\`\`\n{{#focus}}Focus on: {{focus}}\n{{/focus}}Check naming, error handling, tests and the public API. Point out anything that would surprise a new reader of this code, and suggest the smallest change that fixes it.`,
        },
        { role: 'assistant', content: 'Understood. I will review the code and list concrete findings, most important first.' },
      ],
    },
    null,
    2,
  );
}

export async function benchPromptFiles(record: RecordRow, quick: boolean): Promise<void> {
  const files = 1_000;
  const dir = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-bench-'));
  try {
    for (let i = 0; i < files; i++) writeFileSync(join(dir, `prompt-${String(i).padStart(4, '0')}.json`), promptFile(i));
    const baseline = async (): Promise<number> => {
      const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
      const parsed = await Promise.all(names.map(async (n) => JSON.parse(await readFile(join(dir, n), 'utf8')) as unknown));
      return parsed.length;
    };
    const ours = async (): Promise<number> => {
      const loaded = await loadPromptDirectory(dir);
      if (loaded.diagnostics.length > 0) throw new Error(`unexpected diagnostics: ${loaded.diagnostics[0]?.message}`);
      return loaded.definitions.length;
    };
    for (let w = 0; w < 3; w++) {
      if ((await baseline()) !== files || (await ours()) !== files) throw new Error('lost files');
    }
    const runs = quick ? 5 : 21;
    const b: number[] = [];
    const o: number[] = [];
    for (let r = 0; r < runs; r++) {
      let start = performance.now();
      await baseline();
      b.push(performance.now() - start);
      start = performance.now();
      await ours();
      o.push(performance.now() - start);
    }
    const oMs = median(o);
    const bMs = median(b);
    record('load 1,000 prompt files (median time)', oMs, bMs, 'ms', '<= 3x read + JSON.parse', oMs <= 3 * bMs, 'read + JSON.parse');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchReload(record: RecordRow, quick: boolean): Promise<void> {
  const debounceMs = 100;
  const samples = quick ? 5 : 20;
  const dir = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-bench-'));
  const registry = new PromptRegistry();
  const watcher = watchPromptDirectory(dir, registry, { debounceMs });
  try {
    for (let i = 0; i < 50; i++) writeFileSync(join(dir, `p${i}.json`), promptFile(i));
    await watcher.ready;
    let changed: (() => void) | undefined;
    registry.onChange(() => changed?.());
    const latencies: number[] = [];
    for (let s = 0; s < samples; s++) {
      const text = promptFile(1_000 + s).replace('"name": "review_code_' + (1_000 + s) + '"', '"name": "review_code_7"');
      await writeFile(join(dir, '.p7.json.tmp'), text);
      // Let the temp file's own event pass its window, so each sample starts from a quiet directory.
      await new Promise((resolve) => setTimeout(resolve, debounceMs * 2));
      const seen = new Promise<void>((resolve) => (changed = resolve));
      const start = performance.now();
      await rename(join(dir, '.p7.json.tmp'), join(dir, 'p7.json'));
      await seen;
      latencies.push(performance.now() - start);
      changed = undefined;
    }
    const ms = median(latencies);
    record(`reload latency: rename -> registry change (median of ${samples})`, ms, debounceMs, 'ms', '<= debounce + 50 ms', ms <= debounceMs + 50, 'debounce');
  } finally {
    await watcher.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
