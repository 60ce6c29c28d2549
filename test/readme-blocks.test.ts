import { describe, expect, it } from 'vitest';
import {
  anchors,
  bareImports,
  commandKind,
  fences,
  links,
  packageName,
  programs,
  section,
  shellCommands,
} from './readme-blocks.js';

const fence = (lang: string, code: string): string => `\`\`\`${lang}\n${code}\n\`\`\`\n`;

describe('reading the README and docs/ pages', () => {
  it('continues a program with the import-less blocks after it, and starts a new one at a block with imports', () => {
    const text = [
      '## One\n',
      fence('ts', "import { a } from 'x';\nconst r = a();"),
      'More:\n',
      fence('ts', 'r.b();'),
      '## Two\n',
      fence('ts', "import { c } from 'y';\nc(r);"),
    ].join('\n');
    const found = programs(text);
    expect(found.map((p) => [p.lines, p.section])).toEqual([
      [[3, 10], 'One'],
      [[16], 'Two'],
    ]);
    expect(found[0]!.code).toBe("import { a } from 'x';\nconst r = a();\n\nr.b();\n");
  });

  it('reads a JavaScript block that only requires as CommonJS, and one that imports as an ES module', () => {
    const text = fence('js', "const { a } = require('x');\na();") + fence('js', "import { a } from 'x';\na();");
    expect(programs(text).map((p) => p.format)).toEqual(['cjs', 'esm']);
  });

  it('does not continue a program of another language', () => {
    const text = fence('ts', "import { a } from 'x';") + fence('js', 'a();');
    expect(programs(text).map((p) => p.lang)).toEqual(['ts', 'js']);
  });

  it('finds the packages a program imports, not node: built-ins or relative files', () => {
    const code = [
      "import express from 'express';",
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
      "import { join } from 'node:path';",
      "import { x } from './app.js';",
      "const pg = require('pg');",
      "const { y } = await import('zod');",
    ].join('\n');
    expect(bareImports(code).map(packageName).sort()).toEqual(['@modelcontextprotocol/sdk', 'express', 'pg', 'zod']);
  });

  it('splits shell lines at && and drops comments, but not a # inside quotes or a word', () => {
    const text = fence(
      'sh',
      "npm init -y && npm pkg set type=module   # a comment\nnpx mcp-prompt-kit render d p --arg code='# not a comment' --arg tag=a#b",
    );
    expect(shellCommands(text).map((c) => [c.line, c.words])).toEqual([
      [2, ['npm', 'init', '-y']],
      [2, ['npm', 'pkg', 'set', 'type=module']],
      [3, ['npx', 'mcp-prompt-kit', 'render', 'd', 'p', '--arg', 'code=# not a comment', '--arg', 'tag=a#b']],
    ]);
  });

  it('tells setup, the package command, commands for a clone and unknown commands apart', () => {
    const kinds = [
      'npm init -y',
      'npm install -D tsx',
      'npx -y mcp-prompt-kit check prompts',
      'npx mcp-prompt-kit serve prompts',
      'npm ci',
      'npm run --silent example:stdio',
      'npx tsx examples/quickstart.ts',
      'curl http://127.0.0.1:3000/prompts',
    ].map((line) => commandKind(line.split(' ')));
    expect(kinds).toEqual(['setup', 'setup', 'cli', 'cli', 'repository', 'repository', 'repository', 'unknown']);
  });

  it('sees a fence only on a line of its own', () => {
    expect(fences('text ```ts not a fence\n```ts\ncode\n```\n').map((f) => [f.line, f.code])).toEqual([[2, 'code\n']]);
  });

  it('reads a block inside a list item without its indentation', () => {
    expect(
      fences('- a result:\n\n  ```json\n  {"a": 1}\n  ```\n').map((f) => [f.line, f.lang, f.code, f.closed]),
    ).toEqual([[3, 'json', '{"a": 1}\n', true]]);
  });

  it('reads a section under a heading of any level up to the next heading of the same or a higher level', () => {
    const text = '# Page\nintro\n## A\na\n### A.1\na1\n## B\nb\n';
    expect(section('A', text)).toBe('## A\na\n### A.1\na1\n');
    expect(section('Page', text)).toBe(text);
    expect(() => section('C', text)).toThrow("no section 'C'");
  });

  it('makes heading anchors as GitHub does, numbering repeated headings, and ignores # lines in code', () => {
    const text =
      '# HTTP, CGI and OpenAPI\n## `attachPrompts` options\n## Notes\n## Notes\n```sh\n# not a heading\n```\n';
    expect([...anchors(text)]).toEqual(['http-cgi-and-openapi', 'attachprompts-options', 'notes', 'notes-1']);
  });

  it('finds links outside code blocks and code spans', () => {
    const text =
      'See [Errors](errors.md#error-table) and `[x](not-a-link)`.\n```md\n[y](in-code.md)\n```\n[z](#here)\n';
    expect(links(text)).toEqual([
      { line: 1, target: 'errors.md#error-table' },
      { line: 5, target: '#here' },
    ]);
  });
});
