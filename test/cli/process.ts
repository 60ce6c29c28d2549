/**
 * Runs the `mcp-prompt-kit` command: in-process (its main function with captured output: parsing and output) or as a
 * real child process where the process boundary is the point: from source (as JavaScript files made by esbuild,
 * test/support/ts-mirror.mjs, so `npm test` needs no build and a child starts without module hooks).
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { onTestFailed } from 'vitest';
import { textOutput } from '../../src/cli/output.js';
import { runCli as runMain } from '../../src/cli/run.js';
import { STARTS_CHILD_PROCESSES, tsNodeArgs } from '../support/processes.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** How the SDK's stdio client transport starts the command: src/cli/main.ts, from the mirror (tsNodeArgs). */
export const CLI_COMMAND = { command: process.execPath, args: tsNodeArgs('src/cli/main.ts') };

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command's main function in this process, with its stdout and stderr captured; `env` sets (a string) or
 * unsets (undefined) environment variables for the call only (a worker runs one test at a time).
 */
export async function runCliInProcess(
  args: readonly string[],
  options: { env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const out = textOutput({ stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  const saved = Object.entries(options.env ?? {}).map(([name, value]) => {
    const before = process.env[name];
    setVariable(name, value);
    return [name, before] as const;
  });
  try {
    const code = await runMain(args, out);
    return { code, stdout, stderr };
  } finally {
    for (const [name, before] of saved) setVariable(name, before);
  }
}

function setVariable(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** Runs the command as a child process to completion (killed after `timeoutMs`). */
export function runCli(
  args: readonly string[],
  options: { timeoutMs?: number; stdin?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  refuseInProcessRun();
  return new Promise((resolve, reject) => {
    const child = spawn(CLI_COMMAND.command, [...CLI_COMMAND.args, ...args], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 50_000);
    child.once('error', (error) => reject(withStderr(error, stderr)));
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** A run without child processes (`npm run test:node22`) has a test that starts one: say how to keep it out. */
function refuseInProcessRun(): void {
  if (!STARTS_CHILD_PROCESSES)
    throw new Error(
      'this run starts no child processes (MCP_PROMPT_KIT_IN_PROCESS=1): mark the test runIf(STARTS_CHILD_PROCESSES) or exclude its file in scripts/test-node-matrix.sh',
    );
}

/** A child's failure with what it wrote on stderr, so a failed test says why the child failed. */
export function withStderr(error: unknown, stderr: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(
    stderr.trim() === '' ? `${message} (nothing on stderr)` : `${message}\n--- child stderr ---\n${stderr.trimEnd()}`,
    {
      cause: error,
    },
  );
}

/**
 * Adds what a child wrote on stderr (read when the test fails) to the current test's failure messages. Call in a test.
 */
export function stderrOnFailure(stderr: () => string): void {
  onTestFailed(({ task }) => {
    const text = stderr().trimEnd();
    for (const error of task.result?.errors ?? []) {
      error.message = `${error.message}\n--- child stderr ---\n${text === '' ? '(nothing)' : text}`;
    }
  });
}

/** A running `serve --http 0`: its URL (the first stdout line), the child and what it wrote on stderr so far. */
export interface ServedHttp {
  url: string;
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
}

/**
 * Starts `serve <dir> --http 0 ...extra`; `until` receives the function that stops it (the caller runs it after use).
 */
export async function startServeHttp(
  dir: string,
  extra: readonly string[],
  until: (stop: () => Promise<void>) => void,
): Promise<ServedHttp> {
  refuseInProcessRun();
  const child = spawn(CLI_COMMAND.command, [...CLI_COMMAND.args, 'serve', dir, '--http', '0', ...extra], { cwd: ROOT });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  until(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('close', () => resolve());
        child.kill('SIGTERM');
      }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once('close', (code) => reject(withStderr(new Error(`serve exited early (code ${code})`), stderr)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  return { url, child, stderr: () => stderr };
}
