#!/usr/bin/env node
/**
 * Runs npm scripts side by side, in groups one after another (`npm test`:
 * `node scripts/parallel.mjs --along test:node22 lint typecheck -- build -- test:coverage check:package conformance`):
 *
 * - the steps of a group run side by side; `--` ends a group, and the next one starts when every step of it passed
 *   (a failed group skips the groups after it: the build a later step needs may be missing);
 * - an `--along` step starts at once and runs alongside every group (one that needs nothing the groups make).
 *
 * On a machine with few cores the steps are CPU-bound: a step that uses one core (tsc) or waits (npm installs a
 * tarball, servers answer the conformance suite) leaves room that a step beside it fills, where running them one after
 * another would leave a core idle. Every line a step prints is shown as it comes, prefixed with the step's name; a
 * summary gives each step's exit code and time, and the CPU seconds all of them used (Linux). Exits 1 when any step
 * failed or was skipped; every step started runs to its end, so one run reports every failure.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const USAGE = 'usage: node scripts/parallel.mjs [--along <npm script>]... <npm script>... [-- <npm script>...]...';

/** `{ along, groups }` from the command line; throws on a malformed one. */
function parseSteps(args) {
  const along = [];
  const groups = [[]];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--along') {
      const step = args[++i];
      if (step === undefined || step.startsWith('-')) throw new Error('--along needs an npm script');
      along.push(step);
    } else if (arg === '--') groups.push([]);
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else groups.at(-1).push(arg);
  }
  if (groups.some((group) => group.length === 0)) throw new Error('every group needs at least one npm script');
  return { along, groups };
}

let parsed;
try {
  parsed = parseSteps(process.argv.slice(2));
} catch (error) {
  console.error(`${error.message}\n${USAGE}`);
  process.exit(2);
}
const { along, groups } = parsed;
const width = Math.max(...[...along, ...groups.flat()].map((s) => s.length));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = performance.now();

/** Runs `npm run <step>`; resolves with its exit code (a signal counts as a failure) and duration. */
function run(step) {
  const begun = performance.now();
  const prefix = `[${step.padEnd(width)}] `;
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', step], { stdio: ['ignore', 'pipe', 'pipe'] });
    createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${prefix}${line}\n`));
    createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${prefix}${line}\n`));
    const done = (code) => resolve({ step, code, seconds: (performance.now() - begun) / 1000 });
    child.once('error', (error) => {
      process.stderr.write(`${prefix}could not start: ${error.message}\n`);
      done(1);
    });
    child.once('close', (code, signal) => done(code ?? (signal === null ? 1 : `${signal}`)));
  });
}

/**
 * CPU seconds (user + system) of the processes this one started and reaped, with theirs (Linux: /proc/self/stat's
 * cutime and cstime, in USER_HZ ticks of 1/100 s); undefined elsewhere. It compares runs on a machine whose speed drifts.
 */
function reapedCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? ticks / 100 : undefined;
  } catch {
    return undefined;
  }
}

const alongside = Promise.all(along.map(run));
const results = [];
for (const group of groups) {
  if (results.some((r) => r.code !== 0)) {
    results.push(...group.map((step) => ({ step, code: 'skipped', seconds: 0 })));
    continue;
  }
  results.push(...(await Promise.all(group.map(run))));
}
results.push(...(await alongside));
console.log('');
for (const { step, code, seconds } of results) {
  const outcome = code === 0 ? 'ok     ' : code === 'skipped' ? 'SKIPPED' : 'FAILED ';
  console.log(
    `${outcome} ${step.padEnd(width)}  ${code === 'skipped' ? '(an earlier group failed)' : `${seconds.toFixed(1)} s`}${code === 0 || code === 'skipped' ? '' : ` (exit ${code})`}`,
  );
}
const wall = (performance.now() - started) / 1000;
const cpu = reapedCpuSeconds();
console.log(
  `all steps: ${wall.toFixed(1)} s` +
    (cpu === undefined ? '' : `, ${cpu.toFixed(1)} CPU-s in their processes (${(cpu / wall).toFixed(2)} cores busy)`),
);
const failed = results.filter((r) => r.code !== 0).map((r) => r.step);
if (failed.length > 0) {
  console.error(`failed or skipped: ${failed.join(', ')}`);
  process.exitCode = 1;
}
