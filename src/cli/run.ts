/** The command line as a function: arguments and output streams in, exit code out (the process entry is main.ts). */
import { DatabaseFailure, ServeFailure, UsageError } from './args.js';
import { COMMAND_HELP, MAIN_HELP } from './help.js';
import { processOutput } from './output.js';
import type { Output } from './output.js';
import { VERSION } from './version.js';

type Command = (args: readonly string[], out: Output) => Promise<number>;

// Each command's modules load when it runs: `serve` never loads the database's, `check` never the SDK.
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  check: async () => (await import('./commands.js')).check,
  list: async () => (await import('./commands.js')).list,
  openapi: async () => (await import('./commands.js')).openapi,
  pull: async () => (await import('./pull.js')).pull,
  push: async () => (await import('./push.js')).push,
  preview: async () => (await import('./preview.js')).preview,
  render: async () => (await import('./commands.js')).render,
  serve: async () => (await import('./serve.js')).serve,
  test: async () => (await import('./test.js')).test,
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
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (load === undefined) {
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
    return await (await load())(rest, out);
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
