import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPromptDirectory } from '/work/wt/fuzz/src/fs/index.js';
const base = await mkdtemp(join(tmpdir(), 'probe-'));
for (const n of [1000, 2000, 4000]) {
  const d = await mkdtemp(join(base, 'x'));
  await writeFile(join(d, 'p.yaml'), `name: wide\nmessages: []\n${Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join('\n')}\n`);
  for (let i = 0; i < 3; i++) {
    const c = process.cpuUsage();
    const r = await loadPromptDirectory(d);
    const u = process.cpuUsage(c);
    console.log(n, ((u.user + u.system) / 1000).toFixed(0), 'ms', r.diagnostics.length);
  }
}
