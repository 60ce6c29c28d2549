import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ResultRow, markdownTable, ratioLimit, svgChart, writeResults } from '../../bench/report.js';

const info = {
  started: new Date('2026-11-26T10:00:00Z'),
  node: 'v20.20.2',
  cpu: 'Test CPU',
  cpus: 2,
  memoryGiB: 24,
  platform: 'linux/x64',
};
const row = (metric: string, ours: number, baseline: number, target: string, met: boolean): ResultRow => ({
  metric,
  ours,
  baseline,
  baselineName: 'floor',
  unit: 'µs',
  ratio: ours / baseline,
  target,
  met,
});
const rows = [
  row('getPrompt <fast> & "quoted"', 0.4, 0.5, '<= 1.0x floor', true),
  row('requests/s', 900, 1000, '>= 0.8x bare node:http', true),
  row('cold start', 3, 1, 'info: cold', true),
  row('too slow', 5, 1, '<= 3x read + JSON.parse', false),
];

describe('bench results', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mpk-bench-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the ratio a target bounds and which side passes', () => {
    expect(ratioLimit('<= 1.2x stricter floor')).toEqual({ limit: 1.2, atMost: true });
    expect(ratioLimit('>= 0.8x bare node:http')).toEqual({ limit: 0.8, atMost: false });
    expect(ratioLimit('~1.0x (same cost)')).toEqual({ limit: 1, atMost: true });
    expect(ratioLimit('info: vs SDK')).toBeUndefined();
    expect(ratioLimit('<= 1.2 KB')).toBeUndefined();
  });

  it('writes every number to JSON beside the Markdown table and the SVG chart', () => {
    const base = writeResults(dir, rows, info);
    expect(base).toBe(join(dir, '2026-11-26-node20'));
    expect(readdirSync(dir).sort()).toEqual([
      '2026-11-26-node20.json',
      '2026-11-26-node20.md',
      '2026-11-26-node20.svg',
    ]);
    const json = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as { started: string; rows: ResultRow[] };
    expect(json.started).toBe('2026-11-26T10:00:00.000Z');
    expect(json.rows).toEqual(rows);
    const md = readFileSync(`${base}.md`, 'utf8');
    expect(md).toContain(markdownTable(rows));
    expect(md).toContain('| too slow | 5.00 µs | floor: 1.00 µs | 5.00x | <= 3x read + JSON.parse | NO |');
  });

  it('charts only rows with a ratio target, red when missed, with names escaped', () => {
    const svg = svgChart(rows, info);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('getPrompt &lt;fast&gt; &amp; &quot;quoted&quot;');
    expect(svg).not.toContain('<fast>');
    expect(svg).not.toContain('cold start');
    expect(svg.match(/fill="#d64545"/g)).toHaveLength(1);
    expect(svg.match(/fill="#3a9d5d"/g)).toHaveLength(2);
  });
});
