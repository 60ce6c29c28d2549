/**
 * The README's and docs/ pages' code as their readers see it: fenced blocks, the programs their TypeScript and
 * JavaScript blocks make, the commands of their shell blocks, their headings and links. One reading, shared by the
 * test that checks them against the repository (test/readme.test.ts), the one that runs them in a fresh project with
 * the packed package (test/readme-installed.test.ts) and the tests that run a page's blocks by page and heading.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Every page a reader is given: README.md, then docs/*.md in name order (paths relative to the repository). */
export const PAGES: readonly string[] = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

const texts = new Map<string, string>();

/** The text of a page (`README.md`, `docs/cli.md`). */
export function pageText(page: string): string {
  let text = texts.get(page);
  if (text === undefined) {
    text = readFileSync(join(ROOT, page), 'utf8');
    texts.set(page, text);
  }
  return text;
}

export const README = pageText('README.md');

export interface Fence {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The block's text, without the indentation of its fence (a block inside a list item). */
  code: string;
  closed: boolean;
  /** The nearest heading above the block, any level ('' before the first). */
  section: string;
}

/**
 * A page's fenced blocks as a Markdown renderer sees them: a fence opens and closes on a line of its own, indented
 * (inside a list item) or not.
 */
export function fences(text = README): Fence[] {
  const out: Fence[] = [];
  const lines = text.split('\n');
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{1,6} (.+)$/.exec(lines[i]!);
    if (heading) section = heading[1]!.trim();
    const open = /^( *)```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const start = i;
    while (++i < lines.length && !/^ *```\s*$/.test(lines[i]!));
    const code = lines.slice(start + 1, i).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)));
    out.push({ line: start + 1, lang: open[2]!, code: `${code.join('\n')}\n`, closed: i < lines.length, section });
  }
  return out;
}

export function blocks(lang: string, text = README): Fence[] {
  return fences(text).filter((f) => f.lang === lang);
}

/**
 * The text under the heading `title` (any level, `# Title` to `###### Title`) up to the next heading of the same or a
 * higher level; throws when the text has no such heading.
 */
export function section(title: string, text = README): string {
  const lines = text.split('\n');
  const inFence = fenceLines(text);
  const headingAt = (i: number): number => (inFence.has(i + 1) ? 0 : (/^(#{1,6}) /.exec(lines[i]!)?.[1]?.length ?? 0));
  const start = lines.findIndex((l, i) => headingAt(i) > 0 && l.replace(/^#+ /, '').trim() === title);
  if (start === -1) throw new Error(`no section '${title}'`);
  const level = headingAt(start);
  let end = start + 1;
  while (end < lines.length && !(headingAt(end) > 0 && headingAt(end) <= level)) end++;
  const out = lines.slice(start, end).join('\n');
  return out.endsWith('\n') ? out : `${out}\n`;
}

/**
 * The ```lang blocks (every block without `lang`) of a page under a heading: `blocksIn('docs/cli.md', 'Command line', 'sh')`.
 */
export function blocksIn(page: string, heading: string, lang?: string): Fence[] {
  let text: string;
  try {
    text = section(heading, pageText(page));
  } catch {
    throw new Error(`${page} has no heading '${heading}'`);
  }
  const found = fences(text).filter((f) => lang === undefined || f.lang === lang);
  if (found.length === 0) throw new Error(`${page}, '${heading}': no ${lang ?? ''} block`);
  return found;
}

/** The 1-based lines of a text that are inside fenced blocks, fences included. */
export function fenceLines(text: string): Set<number> {
  return new Set(
    fences(text).flatMap((f) => Array.from({ length: f.code.split('\n').length + 1 }, (_, k) => f.line + k)),
  );
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a page's headings as GitHub makes them (a repeated heading gets `-1`, `-2`, ...). */
export function anchors(text: string): Set<string> {
  const inFence = fenceLines(text);
  const seen = new Map<string, number>();
  const out = new Set<string>();
  text.split('\n').forEach((line, i) => {
    if (inFence.has(i + 1) || !/^#{1,6} /.test(line)) return;
    const base = slug(line.replace(/^#+ /, '').replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  });
  return out;
}

/** A Markdown link of a page, outside code blocks and code spans: `[text](target)`. */
export interface Link {
  line: number;
  target: string;
}

export function links(text: string): Link[] {
  const inFence = fenceLines(text);
  return text.split('\n').flatMap((raw, i) => {
    if (inFence.has(i + 1)) return [];
    const line = raw.replace(/`[^`]*`/g, '``');
    return [...line.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ line: i + 1, target: m[1]! }));
  });
}

/** A program a reader can save and run: one ```ts or ```js block, with the import-less blocks that continue it. */
export interface Program {
  /** The page it is on (`README.md`, `docs/mcp.md`). */
  page: string;
  /** The line of its first block. */
  line: number;
  /** The lines of every block it is made of. */
  lines: number[];
  lang: 'ts' | 'js';
  /** The heading above its first block. */
  section: string;
  /** CommonJS (`require`, no `import`) or an ES module. */
  format: 'cjs' | 'esm';
  code: string;
}

const IMPORTS = /^\s*import\s|^\s*export\s|\brequire\(/m;

/**
 * A page's programs: every ```ts and ```js block is one, except that a block with no import (no `import`, no
 * `require`) continues the program of the block before it on the same page, as a reader continues the file they
 * started. `page` names the page the text is (README.md unless told).
 */
export function programs(text = README, page = 'README.md'): Program[] {
  const out: Program[] = [];
  for (const fence of fences(text)) {
    if (fence.lang !== 'ts' && fence.lang !== 'js') continue;
    const previous = out.at(-1);
    if (!IMPORTS.test(fence.code) && previous !== undefined && previous.lang === fence.lang) {
      previous.code += `\n${fence.code}`;
      previous.lines.push(fence.line);
      continue;
    }
    const cjs = /\brequire\(/.test(fence.code) && !/^\s*import\s/m.test(fence.code);
    out.push({
      page,
      line: fence.line,
      lines: [fence.line],
      lang: fence.lang,
      section: fence.section,
      format: cjs ? 'cjs' : 'esm',
      code: fence.code,
    });
  }
  return out;
}

/** The programs of every page, README.md first. */
export function allPrograms(): Program[] {
  return PAGES.flatMap((page) => programs(pageText(page), page));
}

/** The bare module specifiers a program imports (`zod`, `@modelcontextprotocol/sdk/server/mcp.js`, not `node:fs`). */
export function bareImports(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(
    /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]/g,
  )) {
    const specifier = m[1] ?? m[2] ?? m[3]!;
    if (!specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('node:'))
      found.add(specifier);
  }
  return [...found];
}

/** The npm package a bare specifier names (`@scope/name/sub.js` -> `@scope/name`). */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Splits a shell command into words: spaces separate, single and double quotes group (`--arg code='a b'`). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | undefined;
  for (const ch of line) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === ' ' || ch === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** One command of a ```sh block: a line, its `# comment` dropped, split at `&&`. */
export interface ShellCommand {
  page: string;
  line: number;
  section: string;
  words: string[];
  text: string;
}

/** Drops an unquoted `#` comment (a `#` that starts a word) from a shell line. */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

export function shellCommands(text = README, page = 'README.md'): ShellCommand[] {
  const out: ShellCommand[] = [];
  for (const fence of blocks('sh', text)) {
    fence.code.split('\n').forEach((raw, k) => {
      for (const part of withoutComment(raw).split('&&')) {
        const words = shellWords(part.trim());
        if (words.length > 0)
          out.push({ page, line: fence.line + 1 + k, section: fence.section, words, text: part.trim() });
      }
    });
  }
  return out;
}

/** The shell commands of every page, README.md first. */
export function allShellCommands(): ShellCommand[] {
  return PAGES.flatMap((page) => shellCommands(pageText(page), page));
}

/**
 * What a shell command is for: setting up a project (`npm init`, `npm pkg`, `npm install`), the package's own
 * command (`npx mcp-prompt-kit …`), or working in a clone of this repository (`npm ci`, `npm run`, `npm test`,
 * `npx tsx <file>`).
 */
export function commandKind(words: readonly string[]): 'setup' | 'cli' | 'repository' | 'unknown' {
  const [tool, sub] = words;
  if (tool === 'npm' && (sub === 'init' || sub === 'pkg' || sub === 'install' || sub === 'i' || sub === 'add'))
    return 'setup';
  if (tool === 'npx' && words.find((w, i) => i > 0 && !w.startsWith('-')) === 'mcp-prompt-kit') return 'cli';
  if (tool === 'npm' && (sub === 'ci' || sub === 'run' || sub === 'test')) return 'repository';
  if (tool === 'npx' && sub === 'tsx') return 'repository';
  return 'unknown';
}
