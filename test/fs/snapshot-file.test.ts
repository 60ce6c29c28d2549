/**
 * A registry snapshot in a file: replaced atomically (readers and a process killed mid-save see a whole snapshot),
 * bounded when read, and used by syncRegistry when the store is away.
 */
import { spawn } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createFileSnapshot } from '../../src/fs/index.js';
import { PromptRegistry, createMemoryPromptStore, syncRegistry } from '../../src/index.js';
import { decodeSnapshot } from '../../src/stores/snapshot.js';
import { STARTS_CHILD_PROCESSES, TS_NODE_ARGS } from '../support/processes.js';
import { captureLogs } from '../support/logs.js';
import { prompt } from '../stores/contract.js';
import { EVENT_WAIT_MS, tempDir, waitFor } from './temp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('createFileSnapshot', () => {
  it('loads nothing before the first save, then what was saved', async () => {
    const path = join(await tempDir(), 'snapshot.json');
    const snapshot = createFileSnapshot(path);
    expect(snapshot.describe).toBe(path);
    expect(await snapshot.load()).toBeUndefined();
    await snapshot.save('{"a":1}');
    expect(await snapshot.load()).toBe('{"a":1}');
  });

  it('replaces the file atomically: a reader during saves sees one whole snapshot or the other, never a part', async () => {
    const dir = await tempDir();
    const snapshot = createFileSnapshot(join(dir, 'snapshot.json'));
    const texts = ['a', 'b'].map((c) => c.repeat(4 * 1_048_576));
    await snapshot.save(texts[0]!);
    let saving = true;
    const seen = new Set<number>();
    const reader = (async () => {
      let reads = 0;
      while (saving || reads < 5) {
        const text = await snapshot.load();
        expect(texts.indexOf(text!)).toBeGreaterThanOrEqual(0);
        seen.add(texts.indexOf(text!));
        reads++;
      }
      return reads;
    })();
    for (let i = 1; i <= 10; i++) await snapshot.save(texts[i % 2]!);
    saving = false;
    expect(await reader).toBeGreaterThanOrEqual(5);
    // Nothing of the saves is left beside it.
    expect(await readdir(dir)).toEqual(['snapshot.json']);
  });

  it('removes temporary files an interrupted save left behind at the next save, and nothing else', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, '.snapshot.json.0123456789ab.tmp'), 'partial');
    await writeFile(join(dir, '.other.json.0123456789ab.tmp'), 'not ours');
    const snapshot = createFileSnapshot(join(dir, 'snapshot.json'));
    await snapshot.save('whole');
    expect((await readdir(dir)).sort()).toEqual(['.other.json.0123456789ab.tmp', 'snapshot.json']);
  });

  it('refuses to read a file larger than maxBytes, and a maxBytes that is not a size', async () => {
    const path = join(await tempDir(), 'snapshot.json');
    await writeFile(path, 'x'.repeat(101));
    await expect(createFileSnapshot(path, { maxBytes: 100 }).load()).rejects.toThrow(
      new RangeError(`${path} is 101 bytes, more than maxBytes (100)`),
    );
    expect(() => createFileSnapshot(path, { maxBytes: 0 })).toThrow(RangeError);
    expect(() => createFileSnapshot('')).toThrow(new TypeError('createFileSnapshot: path must be a file path'));
  });

  it('fails a save into a directory that does not exist, leaving nothing behind', async () => {
    const snapshot = createFileSnapshot(join(await tempDir(), 'missing', 'snapshot.json'));
    await expect(snapshot.save('x')).rejects.toThrow(/ENOENT/);
  });

  it.runIf(STARTS_CHILD_PROCESSES)(
    'leaves a whole snapshot when the process saving it is killed in the middle of saves',
    async () => {
      const dir = await tempDir();
      const path = join(dir, 'snapshot.json');
      const script = join(dir, 'saver.ts');
      await writeFile(
        script,
        [
          `import { createFileSnapshot } from ${JSON.stringify(join(ROOT, 'src/fs/index.ts'))};`,
          `import { encodeSnapshot } from ${JSON.stringify(join(ROOT, 'src/stores/snapshot.ts'))};`,
          `const snapshot = createFileSnapshot(${JSON.stringify(path)});`,
          'const big = "x".repeat(2 * 1_048_576);',
          'for (let i = 1; ; i++) {',
          '  const definition = { name: "p", description: big, messages: [{ role: "user", content: `save ${i}` }] };',
          '  await snapshot.save(await encodeSnapshot(null, [{ name: "p", version: i, definition }], new Date()));',
          '  process.stdout.write(`saved ${i}\\n`);',
          '}',
        ].join('\n'),
      );
      const child = spawn(process.execPath, [...TS_NODE_ARGS, script], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const exited = new Promise((resolve) => child.once('close', resolve));
      await waitFor(() => /saved 3\n/.test(output) || child.exitCode !== null, 60_000, 'three saves');
      child.kill('SIGKILL');
      await exited;
      expect(output).toMatch(/saved 3\n/);
      const reading = await decodeSnapshot(await readFile(path, 'utf8'), null);
      expect(reading.ok, reading.ok ? '' : reading.reason).toBe(true);
      expect(reading.ok && reading.snapshot.prompts[0]!.version).toBeGreaterThanOrEqual(3);
    },
    90_000,
  );
});

describe('syncRegistry with a snapshot file', () => {
  it('starts from the file when the store cannot be read, and ignores a truncated file with a warning', async () => {
    const path = join(await tempDir(), 'snapshot.json');
    const first = await syncRegistry(createMemoryPromptStore([prompt('greet')]), new PromptRegistry(), {
      snapshot: createFileSnapshot(path),
      snapshotIntervalMs: 0,
    });
    await waitFor(() => first.health().snapshotSavedAt !== null, EVENT_WAIT_MS, 'the first save');
    first.close();
    const down = {
      ...createMemoryPromptStore(),
      list: () => Promise.reject(new Error('connection refused')),
    };
    const registry = new PromptRegistry();
    const sync = await syncRegistry(down, registry, { snapshot: createFileSnapshot(path) });
    expect(registry.list().prompts.map((p) => p.name)).toEqual(['greet']);
    sync.close();

    const whole = await readFile(path, 'utf8');
    await writeFile(path, whole.slice(0, whole.length - 10));
    const logs = captureLogs();
    await expect(
      syncRegistry(down, new PromptRegistry(), { snapshot: createFileSnapshot(path), logger: logs.logger }),
    ).rejects.toThrow('connection refused');
    expect(logs.lines.find((l) => l.fields['event'] === 'prompt_snapshot_unusable')?.fields).toEqual({
      event: 'prompt_snapshot_unusable',
      snapshot: path,
      reason: expect.stringMatching(/^not JSON \(truncated or corrupt/),
    });
    // The truncated file is left for the operator to look at; the next save from the store replaces it.
    expect(await readFile(path, 'utf8')).toBe(whole.slice(0, whole.length - 10));
  });
});
