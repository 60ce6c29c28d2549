/**
 * `mcp-prompt-kit preview` refresh latency, run by bench/run.ts (BENCH_ONLY=preview): 500 prompt files, the page open
 * in headless Chromium with one prompt rendered; each sample saves that prompt's file in place (as editors do) and
 * times it until the page shows the new rendering. The baseline is the watcher alone in the same samples (save ->
 * registry change). Target: p95 <= 250 ms. The preview command is not a library export, so this imports it from
 * src/ (run through tsx, as bench/run.ts is).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordRow } from './fs.js';

const PROMPTS = 500;

function promptFile(i: number, words: string): string {
  return JSON.stringify(
    {
      name: `prompt_${i}`,
      title: `Prompt ${i}`,
      description: 'Reviews code for bugs, style and security issues',
      tags: [i % 2 === 0 ? 'even' : 'odd'],
      arguments: [
        { name: 'code', description: 'The code to review', required: true },
        { name: 'language', enum: ['typescript', 'python', 'go'], default: 'typescript' },
        { name: 'max_issues', type: 'integer', minimum: 1, maximum: 20 },
      ],
      messages: [
        { role: 'user', content: `${words} this {{language}} code:\n{{code}}` },
        { role: 'assistant', content: 'I will review it.' },
      ],
    },
    null,
    2,
  );
}

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

export async function benchPreview(record: RecordRow, quick: boolean): Promise<void> {
  const { chromium } = await import('playwright-core');
  const { startPreview } = await import('../src/cli/preview.js');
  const executablePath =
    process.env['CHROMIUM_PATH'] ?? execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  const samples = quick ? 10 : 40;
  const dir = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-bench-preview-'));
  for (let i = 0; i < PROMPTS; i++) writeFileSync(join(dir, `p${i}.json`), promptFile(i, 'Review'));
  const preview = await startPreview({ dir });
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    // Where the time goes: when the page hears of the change (the event stream's message) and when it shows it.
    await page.addInitScript(() => {
      const Base = window.EventSource;
      window.EventSource = class extends Base {
        constructor(url: string | URL, init?: EventSourceInit) {
          super(url, init);
          this.addEventListener('message', () => {
            (window as unknown as { heard: number }).heard = performance.now();
          });
        }
      };
    });
    await page.goto(`${preview.server.url}#prompt_7`);
    await page.locator('#prompt[data-name="prompt_7"]').waitFor();
    await page.fill('.field[data-arg="code"] textarea', 'let x = 1;');
    await page.click('#render');
    await page.locator('#messages .message').first().waitFor();
    let changed: (() => void) | undefined;
    preview.state.registry.onChange(() => changed?.());
    const toPage: number[] = [];
    const toRegistry: number[] = [];
    const inPage: number[] = [];
    for (let s = 0; s < samples; s++) {
      const words = `Sample ${s}: review`;
      const registryChanged = new Promise<number>((resolve) => (changed = () => resolve(performance.now())));
      const start = performance.now();
      await writeFile(join(dir, 'p7.json'), promptFile(7, words));
      const shown = await page.waitForFunction(
        (w) =>
          document.querySelector('#messages .message pre')?.textContent?.startsWith(w) === true &&
          performance.now() - (window as unknown as { heard: number }).heard,
        words,
        { polling: 5, timeout: 10_000 },
      );
      toPage.push(performance.now() - start);
      inPage.push((await shown.jsonValue()) as number);
      toRegistry.push((await registryChanged) - start);
      changed = undefined;
      // An author saves every few seconds: the page's follow-up requests (the diff, which runs git) finish first.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const p95 = percentile(toPage, 95);
    const base = percentile(toRegistry, 95);
    record(
      `preview: file save -> page updated, ${PROMPTS} prompts (p95 of ${samples})`,
      p95,
      base,
      'ms',
      '<= 250 ms p95',
      p95 <= 250,
      'watcher alone p95',
    );
    console.log(
      `preview refresh: page p50 ${percentile(toPage, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms; watcher p50 ${percentile(toRegistry, 50).toFixed(1)} ms, p95 ${base.toFixed(1)} ms; event -> shown in the page p50 ${percentile(inPage, 50).toFixed(1)} ms, p95 ${percentile(inPage, 95).toFixed(1)} ms`,
    );
  } finally {
    await browser.close();
    await preview.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
