/**
 * Runs the `mcp-prompt-kit` command as a real child process (from source through tsx, so `npm test` needs no build).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
/** How the SDK's stdio client transport starts the command. */
export const CLI_COMMAND = { command: process.execPath, args: ['--import', 'tsx', CLI] };

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command to completion (killed after `timeoutMs`). */
export function runCli(args: readonly string[], options: { timeoutMs?: number; stdin?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(CLI_COMMAND.command, [...CLI_COMMAND.args, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}
