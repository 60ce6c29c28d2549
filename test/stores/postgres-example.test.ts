/**
 * The README's "Several replicas" example IS examples/postgres/server.ts; examples/postgres/demo.ts runs two of them
 * on one database and edits a prompt with plain SQL.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);

describe('the several-replicas example', () => {
  it('is shown verbatim in the README', () => {
    const source = readFileSync(new URL('examples/postgres/server.ts', root), 'utf8');
    expect(readFileSync(new URL('README.md', root), 'utf8')).toContain(`\`\`\`ts\n${source}\`\`\``);
  });

  it('serves an SQL edit from both replicas, each announcing it with list_changed', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/postgres/demo.ts'], {
      cwd: fileURLToPath(root),
      timeout: 60_000,
    });
    expect(stdout).toContain('replica A before: {"type":"text","text":"Hello, Ada!"}');
    expect(stdout).toContain('replica B before: {"type":"text","text":"Hello, Ada!"}');
    expect(stdout).toContain('replica A after: {"type":"text","text":"Good morning, Ada!"}');
    expect(stdout).toContain('replica B after: {"type":"text","text":"Good morning, Ada!"}');
    expect(stdout).toContain('history: ["production 1 -> 2","production null -> 1"]');
  }, 60_000);
});
