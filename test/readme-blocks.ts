/**
 * The README's code as its readers see it: fenced blocks, the programs its TypeScript and JavaScript blocks make, and
 * the commands of its shell blocks. One reading, shared by the test that checks them against the repository
 * (test/readme.test.ts) and the one that runs them in a fresh project with the packed package
 * (test/readme-installed.test.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const README = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

export interface Fence {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  closed: boolean;
  /** The `## ` section the block is in ('' before the first). */
  section: string;
}

/** The README's fenced blocks as a Markdown renderer sees them: a fence opens and closes on a line of its own. */
export function fences(text = README): Fence[] {
  const out: Fence[] = [];
  const lines = text.split('\n');
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## (.+)$/.exec(lines[i]!);
    if (heading) section = heading[1]!.trim();
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    while (++i < lines.length && !/^```\s*$/.test(lines[i]!));
    out.push({ line: start + 1, lang: open[1]!, code: lines.slice(start + 1, i).join('\n') + '\n', closed: i < lines.length, section });
  }
  return out;
}

export function blocks(lang: string, text = README): Fence[] {
  return fences(text).filter((f) => f.lang === lang);
}

/** The text of the README section under `## <title>` (up to the next `## `). */
export function section(title: string, text = README): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`README has no section '${title}'`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** A program a reader can save and run: one ```ts or ```js block, with the import-less blocks that continue it. */
export interface Program {
  /** The line of its first block. */
  line: number;
  /** The lines of every block it is made of. */
  lines: number[];
  lang: 'ts' | 'js';
  /** The `## ` section of its first block. */
  section: string;
  /** CommonJS (`require`, no `import`) or an ES module. */
  format: 'cjs' | 'esm';
  code: string;
}

const IMPORTS = /^\s*import\s|^\s*export\s|\brequire\(/m;

/**
 * The README's programs: every ```ts and ```js block is one, except that a block with no import (no `import`, no
 * `require`) continues the program of the block before it, as a reader continues the file they started.
 */
export function programs(text = README): Program[] {
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
    out.push({ line: fence.line, lines: [fence.line], lang: fence.lang, section: fence.section, format: cjs ? 'cjs' : 'esm', code: fence.code });
  }
  return out;
}

/** The bare module specifiers a program imports (`zod`, `@modelcontextprotocol/sdk/server/mcp.js`, not `node:fs`). */
export function bareImports(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]/g)) {
    const specifier = m[1] ?? m[2] ?? m[3]!;
    if (!specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('node:')) found.add(specifier);
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

export function shellCommands(text = README): ShellCommand[] {
  const out: ShellCommand[] = [];
  for (const fence of blocks('sh', text)) {
    fence.code.split('\n').forEach((raw, k) => {
      for (const part of withoutComment(raw).split('&&')) {
        const words = shellWords(part.trim());
        if (words.length > 0) out.push({ line: fence.line + 1 + k, section: fence.section, words, text: part.trim() });
      }
    });
  }
  return out;
}

/**
 * What a shell command is for: setting up a project (`npm init`, `npm pkg`, `npm install`), the package's own
 * command (`npx mcp-prompt-kit …`), or working in a clone of this repository (`npm ci`, `npm run`, `npm test`,
 * `npx tsx <file>`).
 */
export function commandKind(words: readonly string[]): 'setup' | 'cli' | 'repository' | 'unknown' {
  const [tool, sub] = words;
  if (tool === 'npm' && (sub === 'init' || sub === 'pkg' || sub === 'install' || sub === 'i' || sub === 'add')) return 'setup';
  if (tool === 'npx' && words.find((w, i) => i > 0 && !w.startsWith('-')) === 'mcp-prompt-kit') return 'cli';
  if (tool === 'npm' && (sub === 'ci' || sub === 'run' || sub === 'test')) return 'repository';
  if (tool === 'npx' && sub === 'tsx') return 'repository';
  return 'unknown';
}
