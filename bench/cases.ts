/**
 * Example cases (`BENCH_ONLY=cases`), run by bench/run.ts: 1,000 cases (100 prompt files x 10 cases: snapshots,
 * contains, expected errors) through `runPromptCases`, and the whole `mcp-prompt-kit test` (load, run, report), each
 * against rendering the same 1,000 requests through `getPrompt` in the same run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/cli/run.js';
import type { RecordRow } from './fs.js';
import { median } from './fs.js';

type Core = typeof import('../src/index.js');
type Fs = typeof import('../src/fs/index.js');

const PROMPTS = 100;
const CASES = 10;

/** One prompt file with ten cases of every kind (the snapshots are filled by `test --update`). */
function promptFile(i: number): string {
  const cases = Array.from({ length: CASES }, (_, c) => {
    const args = { code: `let x${c} = ${i};\n`.repeat(20), language: c % 2 === 0 ? 'go' : 'rust' };
    if (c === 9)
      return { name: `case ${c}`, arguments: { language: 'go' }, error: { code: -32602, missing_arguments: ['code'] } };
    if (c % 3 === 0)
      return { name: `case ${c}`, arguments: args, contains: [`let x${c} = ${i};`], notContains: 'TODO' };
    return { name: `case ${c}`, arguments: args };
  });
  return JSON.stringify(
    {
      name: `review_${i}`,
      arguments: [
        { name: 'code', required: true, maxLength: 10_000 },
        { name: 'language', enum: ['go', 'rust'] },
      ],
      messages: [
        { role: 'user', content: `Review this {{language}} code (${i}):\n\n{{code}}\n\nList concrete findings.` },
        { role: 'assistant', content: 'Understood.' },
      ],
      cases,
    },
    null,
    2,
  );
}

const silent = { stdout: () => {}, stderr: () => {}, json: () => {} };

export async function benchCases(core: Core, fs: Fs, record: RecordRow, quick: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-bench-cases-'));
  try {
    for (let i = 0; i < PROMPTS; i++)
      writeFileSync(join(dir, `review-${String(i).padStart(3, '0')}.json`), promptFile(i));
    if ((await runCli(['test', dir, '--update'], silent)) !== 0) throw new Error('the bench cases do not pass');
    const loaded = await fs.loadPromptDirectory(dir);
    const registry = new core.PromptRegistry();
    registry.add(loaded.definitions);
    const suites = loaded.cases;
    const total = suites.reduce((n, s) => n + s.cases.length, 0);
    if (total !== PROMPTS * CASES) throw new Error(`expected ${PROMPTS * CASES} cases, got ${total}`);
    const renders = async (): Promise<void> => {
      for (const s of suites)
        for (const c of s.cases) await registry.getPrompt(s.prompt, { ...c.arguments }).catch(() => undefined);
    };
    const cases = async (): Promise<void> => {
      const report = await core.runPromptCases(registry, suites);
      if (report.passed !== total) throw new Error('a bench case failed');
    };
    const command = async (): Promise<void> => {
      if ((await runCli(['test', dir], silent)) !== 0) throw new Error('test failed');
    };
    for (let w = 0; w < 3; w++) {
      await renders();
      await cases();
      await command();
    }
    // Each sample starts after a collection: the garbage of the one before (a whole command's) is not billed to it.
    const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
    const time = async (f: () => Promise<void>): Promise<number> => {
      gc();
      const start = performance.now();
      await f();
      return performance.now() - start;
    };
    const runs = quick ? 5 : 15;
    const r: number[] = [];
    const c: number[] = [];
    const t: number[] = [];
    for (let i = 0; i < runs; i++) {
      r.push(await time(renders));
      c.push(await time(cases));
    }
    for (let i = 0; i < runs; i++) t.push(await time(command));
    const rMs = median(r);
    const cMs = median(c);
    const tMs = median(t);
    record(
      'runPromptCases over 1,000 cases (median time)',
      cMs,
      rMs,
      'ms',
      '<= 3x the same 1,000 getPrompt',
      cMs <= 3 * rMs,
      '1,000 getPrompt',
    );
    record(
      '`mcp-prompt-kit test` over 1,000 cases in 100 files (load + run + report, median time)',
      tMs,
      rMs,
      'ms',
      '<= 2000 ms absolute',
      tMs <= 2_000,
      '1,000 getPrompt',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
