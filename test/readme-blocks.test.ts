import { describe, expect, it } from 'vitest';
import { bareImports, commandKind, fences, packageName, programs, shellCommands } from './readme-blocks.js';

const fence = (lang: string, code: string): string => `\`\`\`${lang}\n${code}\n\`\`\`\n`;

describe('reading the README', () => {
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
    const text = fence('sh', "npm init -y && npm pkg set type=module   # a comment\nnpx mcp-prompt-kit render d p --arg code='# not a comment' --arg tag=a#b");
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
});
