/**
 * The results of one `npm run bench`: a Markdown table, one JSON file with every number, and a small SVG chart of each
 * row's ratio against its target, written side by side to bench/results/<date>-node<major>.{md,json,svg}.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One measured row: ours against a baseline measured in the same run. */
export interface ResultRow {
  metric: string;
  ours: number;
  baseline: number;
  baselineName: string;
  unit: string;
  /** ours / baseline. */
  ratio: number;
  /** The target as written ("<= 1.2x stricter floor", "info: cold"). */
  target: string;
  met: boolean;
}

/** Where and on what the run happened. */
export interface RunInfo {
  started: Date;
  node: string;
  cpu: string;
  cpus: number;
  memoryGiB: number;
  platform: string;
}

/** The ratio a target bounds ("<= 1.2x ...", ">= 0.8x ...", "~1.0x ..."), and which side passes; undefined for others. */
export function ratioLimit(target: string): { limit: number; atMost: boolean } | undefined {
  const m = /^\s*(<=|>=|~)\s*([\d.]+)x\b/.exec(target);
  if (m === null) return undefined;
  return { limit: Number(m[2]), atMost: m[1] !== '>=' };
}

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toPrecision(3);
}

/** The Markdown table every run prints. */
export function markdownTable(rows: readonly ResultRow[]): string {
  return [
    '| metric | ours | baseline | ratio | target | met |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.metric} | ${fmt(r.ours)} ${r.unit} | ${r.baselineName}: ${fmt(r.baseline)} ${r.unit} | ${r.ratio.toFixed(2)}x | ${r.target} | ${r.met ? 'yes' : 'NO'} |`,
    ),
  ].join('\n');
}

const xmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const xml = (s: string): string => s.replace(/[&<>"]/g, (c) => xmlEscapes[c]!);

/**
 * A horizontal bar per row whose target is a ratio: the bar is ours / baseline on a log scale (1x marked), the tick
 * is the target's limit; green when met, red when not. Rows without a ratio target are listed in the JSON only.
 */
export function svgChart(rows: readonly ResultRow[], info: RunInfo): string {
  const charted = rows.flatMap((r) => {
    const limit = ratioLimit(r.target);
    return limit === undefined || !(r.ratio > 0) ? [] : [{ row: r, ...limit }];
  });
  const labelWidth = 520;
  const plotWidth = 360;
  const rowHeight = 22;
  const top = 48;
  const height = top + charted.length * rowHeight + 34;
  const width = labelWidth + plotWidth + 70;
  const lo = Math.log10(0.01);
  const hi = Math.log10(100);
  const x = (ratio: number): number =>
    labelWidth + ((Math.min(hi, Math.max(lo, Math.log10(ratio))) - lo) / (hi - lo)) * plotWidth;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="8" y="18" font-size="14" font-weight="600">mcp-prompt-kit bench: ours / baseline (log scale; tick = target)</text>`,
    `<text x="8" y="36" fill="#555">${xml(`${info.started.toISOString().slice(0, 10)} · node ${info.node} · ${info.cpu} x${info.cpus}`)}</text>`,
  ];
  for (const tick of [0.01, 0.1, 1, 10, 100]) {
    const tx = x(tick).toFixed(1);
    parts.push(
      `<line x1="${tx}" y1="${top - 4}" x2="${tx}" y2="${height - 28}" stroke="${tick === 1 ? '#888' : '#e3e3e3'}"/>`,
      `<text x="${tx}" y="${height - 12}" text-anchor="middle" fill="#555">${tick}x</text>`,
    );
  }
  charted.forEach(({ row, limit }, i) => {
    const y = top + i * rowHeight;
    const base = x(1);
    const end = x(row.ratio);
    const label = row.metric.length > 80 ? `${row.metric.slice(0, 79)}…` : row.metric;
    parts.push(
      `<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end">${xml(label.trim())}</text>`,
      `<rect x="${Math.min(base, end).toFixed(1)}" y="${y + 4}" width="${Math.max(1, Math.abs(end - base)).toFixed(1)}" height="${rowHeight - 8}" fill="${row.met ? '#3a9d5d' : '#d64545'}"/>`,
      `<line x1="${x(limit).toFixed(1)}" y1="${y + 1}" x2="${x(limit).toFixed(1)}" y2="${y + rowHeight - 1}" stroke="#222" stroke-width="2"/>`,
      `<text x="${labelWidth + plotWidth + 8}" y="${y + 14}">${row.ratio.toFixed(2)}x</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function writeAtomically(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** Writes <dir>/<date>-node<major>.{md,json,svg}; returns the base path. */
export function writeResults(dir: string, rows: readonly ResultRow[], info: RunInfo): string {
  mkdirSync(dir, { recursive: true });
  const base = join(dir, `${info.started.toISOString().slice(0, 10)}-node${info.node.replace(/^v/, '').split('.')[0]}`);
  const machine = `node ${info.node}; ${info.cpu} x${info.cpus}; ${info.memoryGiB} GiB RAM; ${info.platform}`;
  writeAtomically(`${base}.md`, `# Benchmark ${info.started.toISOString()}\n\n${machine}\n\n${markdownTable(rows)}\n`);
  writeAtomically(
    `${base}.json`,
    `${JSON.stringify({ started: info.started.toISOString(), machine: { ...info, started: undefined }, rows }, null, 2)}\n`,
  );
  writeAtomically(`${base}.svg`, svgChart(rows, info));
  return base;
}
