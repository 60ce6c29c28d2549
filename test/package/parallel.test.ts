/**
 * scripts/parallel.mjs, which runs `npm test`: groups of npm scripts one after another, the steps of a group side by
 * side, `--along` steps beside every group; a failed group skips the groups after it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/parallel.mjs', import.meta.url));
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'parallel-steps-'));
  const say = (text: string) => `node -e "console.log('${text}')"`;
  // Spins until it has used 0.3 s of CPU, however busy the machine is.
  const spin = `node -e "const t = process.cpuUsage(); while (process.cpuUsage(t).user < 300000);"`;
  const scripts = { first: say('first ran'), after: say('after ran'), along: say('along ran'), fail: 'exit 3', spin };
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'steps', private: true, scripts }));
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

function parallel(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { cwd: project }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}

describe('scripts/parallel.mjs', () => {
  it('runs a group after the one before it passed, and an --along step beside them, each line prefixed', async () => {
    const { code, stdout } = await parallel('--along', 'along', 'first', '--', 'after');
    expect(code).toBe(0);
    expect(stdout).toContain('[first] first ran\n');
    expect(stdout).toContain('[along] along ran\n');
    expect(stdout).toContain('[after] after ran\n');
    expect(stdout.indexOf('[after] after ran')).toBeGreaterThan(stdout.indexOf('[first] first ran'));
    expect(stdout).toMatch(/^ok {6}first {2}\d+\.\d s$/m);
    expect(stdout).toMatch(/^ok {6}along {2}\d+\.\d s$/m);
  });

  it('skips the groups after a failed one, still runs the rest of its group and the --along steps, and exits 1', async () => {
    const { code, stdout, stderr } = await parallel('--along', 'along', 'fail', 'first', '--', 'after');
    expect(code).toBe(1);
    expect(stdout).toContain('[first] first ran\n');
    expect(stdout).toContain('[along] along ran\n');
    expect(stdout).not.toContain('after ran');
    expect(stdout).toMatch(/^FAILED {2}fail {3}\d+\.\d s \(exit 3\)$/m);
    expect(stdout).toMatch(/^SKIPPED after {2}\(an earlier group failed\)$/m);
    expect(stderr).toContain('failed or skipped: fail, after');
  });

  it('sums the CPU its steps used (Linux) beside the wall time', async () => {
    const { code, stdout } = await parallel('spin', '--', 'spin');
    expect(code).toBe(0);
    if (process.platform !== 'linux') {
      expect(stdout).toMatch(/^all steps: \d+\.\d s$/m);
      return;
    }
    const summary = /^all steps: \d+\.\d s, (\d+\.\d) CPU-s in their processes \((\d+\.\d\d) cores busy\)$/m.exec(
      stdout,
    );
    expect(summary).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThanOrEqual(0.6);
    expect(Number(summary![2])).toBeGreaterThan(0);
  });

  it('refuses an empty group or an unknown option with its usage, running nothing', async () => {
    for (const args of [['first', '--', '--', 'after'], ['--along'], ['--bogus', 'first']]) {
      const { code, stdout, stderr } = await parallel(...args);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('usage: node scripts/parallel.mjs');
    }
  });
});
