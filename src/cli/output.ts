/** Where the command writes: results on stdout, diagnostics and logs on stderr (over stdio stdout is the protocol). */
import { escapeControlCharacters } from '../encoding.js';

/** The command's output streams, one line at a time. */
export interface Output {
  stdout(line: string): void;
  stderr(line: string): void;
  /** A JSON document on stdout. */
  json(value: unknown): void;
}

/** Output to two text sinks: each line ends with exactly one newline; JSON is indented by two spaces. */
export function textOutput(write: { stdout(text: string): void; stderr(text: string): void }): Output {
  return {
    stdout: (line) => write.stdout(`${line.replace(/\n+$/, '')}\n`),
    // Diagnostics and logs name files and echo input: control characters never reach the terminal raw.
    stderr: (line) => write.stderr(`${escapeControlCharacters(line.replace(/\n+$/, ''))}\n`),
    json: (value) => write.stdout(`${JSON.stringify(value, null, 2)}\n`),
  };
}

/** Output to the process's streams. */
export const processOutput: Output = textOutput({
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
});
