/** docs/telemetry.md's "Log events" table names every event the library logs, and no other. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The `event: '<name>'` literals of every source file (the fields object of each log call). */
function loggedEvents(): Set<string> {
  const found = new Set<string>();
  for (const file of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(join(ROOT, 'src', file), 'utf8');
    for (const m of text.matchAll(/\{\s*event: '([a-z_]+)'/g)) found.add(m[1]!);
    for (const m of text.matchAll(/^\s+event: '([a-z_]+)',$/gm)) found.add(m[1]!);
  }
  return found;
}

function documentedEvents(): string[] {
  const page = readFileSync(join(ROOT, 'docs/telemetry.md'), 'utf8');
  const section = page.split('\n## Log events\n')[1]!.split('\n## ')[0]!;
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!);
}

describe('the log events table', () => {
  it('documents every event the library logs, once, and no event it does not log', () => {
    const logged = loggedEvents();
    const documented = documentedEvents();
    expect(logged.size).toBeGreaterThan(25);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...logged].filter((e) => !documented.includes(e)).sort()).toEqual([]);
    expect(documented.filter((e) => !logged.has(e)).sort()).toEqual([]);
  });
});
