/** The command line as a function: arguments and output streams in, exit code out (the process entry is main.ts). */
import { ServeFailure, UsageError } from './args.js';
import { check, list, openapi, render } from './commands.js';
import { DatabaseFailure } from './database.js';
import { COMMAND_HELP, MAIN_HELP } from './help.js';
import { processOutput } from './output.js';
import type { Output } from './output.js';
import { pull } from './pull.js';
import { push } from './push.js';
import { preview } from './preview.js';
import { serve } from './serve.js';
import { test } from './test.js';
import { VERSION } from './version.js';

const COMMANDS: Readonly<Record<string, (args: readonly string[], out: Output) => Promise<number>>> = {
  check,
  list,
  openapi,
  pull,
  push,
  preview,
  render,
  serve,
  test,
};

/** Runs the command line; resolves with the exit code. Never throws for a user mistake. */
export async function runCli(argv: readonly string[], out: Output = processOutput): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    out.stdout(MAIN_HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === '-v' || command === '--version') {
    out.stdout(VERSION);
    return 0;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (run === undefined) {
    out.stderr(
      `mcp-prompt-kit: unknown command '${command}' (commands: ${Object.keys(COMMANDS).sort().join(', ')}; see --help)`,
    );
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    out.stdout(COMMAND_HELP[command]!);
    return 0;
  }
  try {
    return await run(rest, out);
  } catch (error) {
    if (error instanceof UsageError) {
      out.stderr(`mcp-prompt-kit ${error.message}`);
      return 2;
    }
    if (error instanceof DatabaseFailure) {
      out.stderr(`mcp-prompt-kit ${command}: ${error.message}`);
      return 3;
    }
    if (error instanceof ServeFailure) {
      out.stderr(`mcp-prompt-kit ${command}: ${error.message}`);
      return 1;
    }
    out.stderr(
      `mcp-prompt-kit ${command}: unexpected error: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}
