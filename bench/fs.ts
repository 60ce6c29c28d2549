/**
 * Prompt-file benchmarks (mcp-prompt-kit/fs, the shipped build), run by bench/run.ts:
 * - loading 1,000 prompt files vs reading and JSON.parse-ing the same files (same directory, same run);
 * - reload latency of the watcher: an atomic save (write a temp file, rename it over the prompt) until the registry
 *   changes, median of 20, against the debounce window + 50 ms.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';

const distFs = new URL('../dist/fs.js', import.meta.url).href;
const distCore = new URL('../dist/index.js', import.meta.url).href;
const { createFileResourceResolver, loadPromptDirectory, watchPromptDirectory } = (await import(
  distFs
)) as typeof import('../src/fs/index.js');
const { PromptRegistry } = (await import(distCore)) as typeof import('../src/index.js');

/** How bench/run.ts records a row. */
export type RecordRow = (
  metric: string,
  ours: number,
  baseline: number,
  unit: string,
  target: string,
  ok: boolean,
  baselineName: string,
) => void;

/** The middle value of `values` (the upper one of an even count). */
export function median(values: number[]): number {
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
        {
          name: 'language',
          description: 'Its language',
          enum: ['typescript', 'python', 'go', 'rust'],
          default: 'typescript',
        },
        { name: 'focus', description: 'What to focus on (optional)' },
      ],
      messages: [
        {
          role: 'user',
          content: `Review this {{language}} code (${i}):\n\`\`\`{{language}}\n{{code}}\n\`\`\`\n{{#focus}}Focus on: {{focus}}\n{{/focus}}Check naming, error handling, tests and the public API. Point out anything that would surprise a new reader of this code, and suggest the smallest change that fixes it.`,
        },
        {
          role: 'assistant',
          content: 'Understood. I will review the code and list concrete findings, most important first.',
        },
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
    for (let i = 0; i < files; i++)
      writeFileSync(join(dir, `prompt-${String(i).padStart(4, '0')}.json`), promptFile(i));
    const baseline = async (): Promise<number> => {
      const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
      const parsed = await Promise.all(
        names.map(async (n) => JSON.parse(await readFile(join(dir, n), 'utf8')) as unknown),
      );
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
    record(
      'load 1,000 prompt files (median time)',
      oMs,
      bMs,
      'ms',
      '<= 3x read + JSON.parse',
      oMs <= 3 * bMs,
      'read + JSON.parse',
    );
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
      const text = promptFile(1_000 + s).replace(`"name": "review_code_${1_000 + s}"`, '"name": "review_code_7"');
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
    record(
      `reload latency: rename -> registry change (median of ${samples})`,
      ms,
      debounceMs,
      'ms',
      '<= debounce + 50 ms',
      ms <= debounceMs + 50,
      'debounce',
    );
  } finally {
    await watcher.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One YAML shape of about `bytes` bytes, and its JSON twin (the same data as a JSON prompt file). */
interface YamlShape {
  name: string;
  yaml: string;
  json: string;
}

const HEAD = 'name: shaped\nmessages:\n  - role: user\n    content: hi\n';
const JSON_HEAD = { name: 'shaped', messages: [{ role: 'user', content: 'hi' }] };

/** The shapes that cost a YAML parser most per byte: wide, long, deep, flow, anchors and aliases, long strings. */
export function yamlShapes(bytes: number): YamlShape[] {
  // Each shape is generated at a trial size, then scaled (twice) so that its YAML text is about `bytes` long.
  const trial = shapesAt(bytes / 8);
  const scaled = trial.map((t, i) => ({ at: (bytes / 8) * (bytes / t.yaml.length), i }));
  return scaled.map(({ at, i }) => {
    const once = shapesAt(at)[i]!;
    return shapesAt(at * (bytes / once.yaml.length))[i]!;
  });
}

function shapesAt(bytes: number): YamlShape[] {
  const shapes: YamlShape[] = [];
  const add = (name: string, yaml: string, meta: unknown, content?: string, metaJson?: string): void => {
    const data =
      content === undefined
        ? { ...JSON_HEAD, _meta: metaJson === undefined ? meta : '\u0000' }
        : { name: 'shaped', messages: [{ role: 'user', content }] };
    const json = JSON.stringify(data);
    shapes.push({ name, yaml, json: metaJson === undefined ? json : json.replace('"\\u0000"', metaJson) });
  };
  const count = (per: number): number => Math.max(1, Math.floor(bytes / per));
  {
    const n = count(14);
    const meta: Record<string, number> = {};
    let y = `${HEAD}_meta:\n`;
    for (let i = 0; i < n; i++) {
      y += `  key${i}: ${i}\n`;
      meta[`key${i}`] = i;
    }
    add('wide mapping', y, meta);
    const spreadMeta: Record<string, number> = {};
    let spread = `${HEAD}_meta:\n`;
    for (let i = 0; i < count(12); i++) {
      spread += `  k${i}:\n    ${i % 10}\n`;
      spreadMeta[`k${i}`] = i % 10;
    }
    add('many tiny keys, key and value one per line', spread, spreadMeta);
    add('wide mapping, duplicate last key', `${y}  key0: 0\n`, meta);
  }
  {
    // Many nodes under the node bound (so the file loads): the cost per node, not per byte, is what they stress.
    const wide = 4_500;
    const value = (i: number, per: number): string => `value ${i} `.padEnd(Math.max(10, Math.floor(per)), 'x');
    const meta: Record<string, string> = {};
    let y = `${HEAD}_meta:\n`;
    for (let i = 0; i < wide; i++) {
      meta[`key${i}`] = value(i, bytes / wide - 12);
      y += `  key${i}: ${meta[`key${i}`]}\n`;
    }
    add('wide mapping of long values under the node bound', y, meta);
    const groups = 100;
    const nested: Record<string, Record<string, string>> = {};
    let n = `${HEAD}_meta:\n`;
    for (let g = 0; g < groups; g++) {
      n += `  group${g}:\n`;
      const group: Record<string, string> = {};
      for (let k = 0; k < 40; k++) {
        group[`k${k}`] = value(k, bytes / (groups * 40) - 12);
        n += `    k${k}: ${group[`k${k}`]}\n`;
      }
      nested[`group${g}`] = group;
    }
    add('nested mappings of long values under the node bound', n, nested);
    const turns = 1_500;
    const messages = Array.from({ length: turns }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: value(i, bytes / turns - 36),
    }));
    add(
      'many messages under the node bound',
      `name: shaped\nmessages:\n${messages.map((m) => `  - role: ${m.role}\n    content: ${m.content}\n`).join('')}`,
      undefined,
      undefined,
    );
    const last = shapes[shapes.length - 1]!;
    last.json = JSON.stringify({ name: 'shaped', messages });
  }
  {
    const n = count(10);
    const items = Array.from({ length: n }, (_, i) => i);
    add('long sequence', `${HEAD}_meta:\n  x:\n${items.map((i) => `  - ${i}\n`).join('')}`, { x: items });
    add('flow sequence', `${HEAD}_meta: {x: [${items.join(', ')}]}\n`, { x: items });
    const meta = Object.fromEntries(items.map((i) => [`k${i}`, i]));
    add('flow mapping', `${HEAD}_meta: {${items.map((i) => `k${i}: ${i}`).join(', ')}}\n`, meta);
  }
  {
    const depth = count(2);
    const brackets = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    add('deep flow nesting', `${HEAD}_meta: {x: ${brackets}}\n`, undefined, undefined, `{"x":${brackets}}`);
    const levels = Math.min(2_000, Math.floor(Math.sqrt(bytes)));
    let y = `${HEAD}_meta:\n`;
    for (let i = 0; i < levels; i++) y += `${' '.repeat(i + 2)}a:\n`;
    y += `${' '.repeat(levels + 2)}1\n`;
    add('deep block nesting', y, undefined, undefined, `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);
  }
  {
    const n = count(8);
    add('many aliases', `${HEAD}_meta:\n  a: &a 1\n  x:\n${'  - *a\n'.repeat(n)}`, { a: 1, x: Array(n).fill(1) });
    const m = count(16);
    const items = Array.from({ length: m }, (_, i) => i);
    add('many anchors', `${HEAD}_meta:\n  x:\n${items.map((i) => `  - &a${i} ${i}\n`).join('')}`, { x: items });
    const meta: Record<string, number> = {};
    let y = `${HEAD}_meta:\n`;
    for (let i = 0; i < m / 2; i++) {
      y += `  k${i}: &a${i} ${i}\n  j${i}: *a${i}\n`;
      meta[`k${i}`] = i;
      meta[`j${i}`] = i;
    }
    add('anchors with aliases', y, meta);
  }
  {
    const text = 'word '.repeat(Math.floor(bytes / 5)).trim();
    add(
      'long double-quoted string',
      `name: shaped\nmessages:\n  - role: user\n    content: "${text}"\n`,
      undefined,
      text,
    );
    add(
      'long single-quoted string',
      `name: shaped\nmessages:\n  - role: user\n    content: '${text}'\n`,
      undefined,
      text,
    );
    const lines = Array.from({ length: Math.floor(bytes / 40) }, (_, i) => `line ${i} of a long block of prose text`);
    const folded = lines.join(' ');
    add(
      'long multi-line double-quoted string',
      `name: shaped\nmessages:\n  - role: user\n    content: "${lines.join('\n      ')}"\n`,
      undefined,
      folded,
    );
    add(
      'long multi-line plain string',
      `name: shaped\nmessages:\n  - role: user\n    content: ${lines.join('\n      ')}\n`,
      undefined,
      folded,
    );
    const escaped = 'tab\\there \\u00e9 '.repeat(Math.floor(bytes / 20));
    add(
      'long double-quoted string with escapes',
      `name: shaped\nmessages:\n  - role: user\n    content: "${escaped}"\n`,
      undefined,
      'tab\there \u00e9 '.repeat(Math.floor(bytes / 20)),
    );
    add(
      'long multi-line single-quoted string',
      `name: shaped\nmessages:\n  - role: user\n    content: '${lines.join('\n      ')}'\n`,
      undefined,
      folded,
    );
    add(
      'long multi-line plain string, lines below the key',
      `name: shaped\nmessages:\n  - role: user\n    content:\n      ${lines.join('\n      ')}\n`,
      undefined,
      folded,
    );
    // Many very short lines (1-3 characters): the work per line, not per byte, is what they stress.
    const short = Array.from({ length: Math.floor(bytes / 9) }, (_, i) => ['a', 'bb', 'ccc'][i % 3]!);
    const shortFolded = short.join(' ');
    add(
      'many short lines: plain string below its key',
      `name: shaped\nmessages:\n  - role: user\n    content:\n${short.map((l) => `      ${l}\n`).join('')}`,
      undefined,
      shortFolded,
    );
    add(
      'many short lines: double-quoted string',
      `name: shaped\nmessages:\n  - role: user\n    content: "${short.join('\n      ')}"\n`,
      undefined,
      shortFolded,
    );
    const many = Array.from({ length: Math.floor(bytes / 305) }, () => 'x'.repeat(300));
    add(
      'flow list of long quoted strings on one line',
      `${HEAD}_meta: [${many.map((m) => `"${m}"`).join(', ')}]\n`,
      many,
    );
    // The JSON twins of these hold as many blank lines (JSON has no comments): the same bytes to read and skip.
    const padded = (lines: number): void => {
      const last = shapes[shapes.length - 1]!;
      last.json = `{${'\n'.repeat(lines)}${last.json.slice(1)}`;
    };
    const notes = Math.floor(bytes / 9);
    add('many comment lines (JSON twin: as many blank lines)', `${HEAD}${'# a note\n'.repeat(notes)}`, undefined, 'hi');
    padded(notes * 9);
    add(
      'many blank lines (JSON twin: as many blank lines)',
      `name: shaped\nmessages:\n  - role: user\n${'\n'.repeat(Math.floor(bytes))}    content: hi\n`,
      undefined,
      'hi',
    );
    padded(Math.floor(bytes));
    add(
      'many short lines at column 0: double-quoted string',
      `content: "${short.join('\n')}"\nname: shaped\nmessages:\n  - role: user\n    content: hi\n`,
      undefined,
      shortFolded,
    );
    add(
      'many short lines: block scalar |',
      `name: shaped\nmessages:\n  - role: user\n    content: |\n${short.map((l) => `      ${l}\n`).join('')}`,
      undefined,
      `${short.join('\n')}\n`,
    );
    add(
      'many short lines: block scalar >',
      `name: shaped\nmessages:\n  - role: user\n    content: >\n${short.map((l) => `      ${l}\n`).join('')}`,
      undefined,
      `${shortFolded}\n`,
    );
    // Paragraphs of a plain string: blank lines between runs of lines (each blank line is a line break).
    const paragraphs = lines.map((l, i) => (i % 4 === 3 ? `${l}\n` : l));
    add(
      'long multi-line plain string, paragraphs with blank lines',
      `name: shaped\nmessages:\n  - role: user\n    content:\n      ${paragraphs.join('\n      ')}\n`,
      undefined,
      lines.map((l, i) => (i % 4 === 3 ? `${l}\n` : i === lines.length - 1 ? l : `${l} `)).join(''),
    );
    // A folded block scalar with more-indented lines (kept with their breaks, not folded).
    const indented = lines.map((l, i) => (i % 3 === 1 ? `  ${l}` : l));
    add(
      'long block scalar > with more-indented lines',
      `name: shaped\nmessages:\n  - role: user\n    content: >\n${indented.map((l) => `      ${l}\n`).join('')}`,
      undefined,
      parseDocument(`c: >\n${indented.map((l) => `  ${l}\n`).join('')}`).toJS().c as string,
    );
    // Escapes JSON does not have (\e \N \_ \x41 \U0001F600 and an escaped line break).
    const escapeCount = Math.floor(bytes / 40);
    const yamlEscapes = Array.from(
      { length: escapeCount },
      (_, i) => `e\\e n\\N s\\_ x\\x41 u\\U0001F600 ${i}${i % 2 === 0 && i < escapeCount - 1 ? '\\' : ''}`,
    );
    add(
      'long double-quoted string with YAML-only escapes over lines',
      `name: shaped\nmessages:\n  - role: user\n    content: "${yamlEscapes.join('\n      ')}"\n`,
      undefined,
      parseDocument(`c: "${yamlEscapes.join('\n  ')}"\n`).toJS().c as string,
    );
    // Single-quoted runs of doubled quotes ('' is one quote).
    const quotes = "it''s ''quoted'' ".repeat(Math.floor(bytes / 17));
    add(
      "long single-quoted string of '' runs",
      `name: shaped\nmessages:\n  - role: user\n    content: '${quotes}'\n`,
      undefined,
      quotes.replaceAll("''", "'"),
    );
    // Many short lines whose indentation goes up and down (no two alike next to each other).
    const wavy = short.map((l, i) => `${' '.repeat(6 + (i % 5))}${l}\n`).join('');
    add(
      'many short lines of varying indentation: plain string below its key',
      `name: shaped\nmessages:\n  - role: user\n    content:\n${wavy}`,
      undefined,
      shortFolded,
    );
    add(
      'many short lines of varying indentation: block scalar |',
      `name: shaped\nmessages:\n  - role: user\n    content: |\n${wavy}`,
      undefined,
      `${short.map((l, i) => `${' '.repeat(i % 5)}${l}`).join('\n')}\n`,
    );
    const block = lines.map((l) => `      ${l}\n`).join('');
    const literal = lines.join('\n');
    for (const [header, value] of [
      ['|', `${literal}\n`],
      ['|-', literal],
      ['|+', `${literal}\n`],
      ['>', `${folded}\n`],
      ['>-', folded],
      ['>+', `${folded}\n`],
      ['|2', `${literal}\n`],
    ] as const) {
      add(
        `long block scalar ${header}`,
        `name: shaped\nmessages:\n  - role: user\n    content: ${header}\n${block}`,
        undefined,
        value,
      );
    }
  }
  return shapes;
}

/** Loads the only file of `dir` once: the time, and whether it loaded or was refused. */
async function timeLoad(dir: string): Promise<{ ms: number; outcome: string }> {
  const start = performance.now();
  const loaded = await loadPromptDirectory(dir);
  return { ms: performance.now() - start, outcome: loaded.diagnostics.length > 0 ? 'refused' : 'loads' };
}

/** A directory holding one file, `text` under the name `file`. */
function oneFile(dir: string, file: string, text: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), text);
  return dir;
}

/**
 * Each shape loaded as YAML and as its JSON twin in turn, `runs` pairs after one of warm-up: the median of each time,
 * and the median of the per-pair ratios (the gate: drift and the machine's other work reach both sides of a pair).
 */
export async function benchYamlShapes(record: RecordRow, quick: boolean): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-bench-'));
  try {
    const runs = quick ? 3 : 9;
    for (const shape of yamlShapes(1_000_000)) {
      const jsonDir = oneFile(join(root, 'json'), 'p.json', shape.json);
      const yamlDir = oneFile(join(root, 'yaml'), 'p.yaml', shape.yaml);
      const json: number[] = [];
      const yaml: number[] = [];
      let outcome = '';
      for (let r = 0; r <= runs; r++) {
        const j = await timeLoad(jsonDir);
        const y = await timeLoad(yamlDir);
        outcome = y.outcome;
        if (r === 0) continue;
        json.push(j.ms);
        yaml.push(y.ms);
      }
      const ratio = median(yaml.map((y, i) => y / Math.max(json[i]!, 0.001)));
      // The twin shown is the YAML median over the paired ratio: the twin's time in the pairs the YAML median came from.
      record(
        `load a 1 MB YAML file: ${shape.name} (${outcome}) vs its JSON twin`,
        median(yaml),
        median(yaml) / ratio,
        'ms',
        '<= 3x JSON twin (paired)',
        ratio <= 3,
        'JSON twin',
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** A docs tree of `count` small files, 100 per directory. */
function docsTree(root: string, count: number): void {
  for (let d = 0; d * 100 < count; d++) {
    const dir = join(root, `section-${String(d).padStart(4, '0')}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100 && d * 100 + f < count; f++)
      writeFileSync(join(dir, `doc-${String(f).padStart(3, '0')}.md`), '# doc\n');
  }
}

/**
 * Median time of one `resources/list` page (100 entries; after a cursor in the middle of a large tree) from a built
 * index.
 */
async function pageTime(root: string, count: number, samples: number): Promise<number> {
  const resolver = createFileResourceResolver({
    roots: { docs: root },
    maxListed: count,
    maxWalked: count * 2,
    indexTtlMs: 3_600_000,
  });
  const all = await resolver.listResources(); // builds the index
  if (all.length !== count) throw new Error(`indexed ${all.length} of ${count} documents`);
  const after = count > 200 ? all[Math.floor(count / 2)]!.uri : undefined; // a full page either way
  const times: number[] = [];
  for (let s = 0; s < samples; s++) {
    const start = performance.now();
    for (let i = 0; i < 100; i++) {
      const page = await resolver.listResourcesPage(after, 100);
      if (page.resources.length === 0) throw new Error('empty page');
    }
    times.push((performance.now() - start) / 100);
  }
  return median(times);
}

export async function benchResourceIndex(record: RecordRow, quick: boolean): Promise<void> {
  const small = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-bench-'));
  const large = mkdtempSync(join(tmpdir(), 'mcp-prompt-kit-bench-'));
  try {
    const count = quick ? 20_000 : 100_000;
    docsTree(small, 100);
    docsTree(large, count);
    const samples = quick ? 5 : 21;
    const atSmall = await pageTime(small, 100, samples);
    const atLarge = await pageTime(large, count, samples);
    record(
      `one resources/list page (100) at ${count.toLocaleString('en-US')} documents vs at 100`,
      atLarge * 1000,
      atSmall * 1000,
      'µs',
      '<= 2x at 100 (O(page))',
      atLarge <= 2 * atSmall,
      'at 100',
    );
  } finally {
    rmSync(small, { recursive: true, force: true });
    rmSync(large, { recursive: true, force: true });
  }
}
