#!/usr/bin/env node
/**
 * Runs npm scripts side by side (`node scripts/parallel.mjs check:package conformance test:node22`, the last stage of
 * `npm test`, and `lint typecheck`, its first): steps that mostly wait (npm installs a tarball, servers answer the
 * conformance suite) or use one core (tsc) share the machine with one that computes, instead of each waiting for the
 * one before. Every line a step prints is shown as it comes,
 * prefixed with the step's name; a summary gives each step's exit code and time. Exits 1 when any step failed (all
 * run to their end, so one run reports every failure).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const steps = process.argv.slice(2);
if (steps.length === 0) {
  console.error('usage: node scripts/parallel.mjs <npm script> [<npm script> ...]');
  process.exit(2);
}
const width = Math.max(...steps.map((s) => s.length));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run <step>`; resolves with its exit code (a signal counts as a failure) and duration. */
function run(step) {
  const started = performance.now();
  const prefix = `[${step.padEnd(width)}] `;
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', step], { stdio: ['ignore', 'pipe', 'pipe'] });
    createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${prefix}${line}\n`));
    createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${prefix}${line}\n`));
    const done = (code) => resolve({ step, code, seconds: (performance.now() - started) / 1000 });
    child.once('error', (error) => {
      process.stderr.write(`${prefix}could not start: ${error.message}\n`);
      done(1);
    });
    child.once('close', (code, signal) => done(code ?? (signal === null ? 1 : `${signal}`)));
  });
}

const results = await Promise.all(steps.map(run));
console.log('');
for (const { step, code, seconds } of results)
  console.log(
    `${code === 0 ? 'ok    ' : 'FAILED'} ${step.padEnd(width)}  ${seconds.toFixed(1)} s${code === 0 ? '' : ` (exit ${code})`}`,
  );
const failed = results.filter((r) => r.code !== 0).map((r) => r.step);
if (failed.length > 0) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
