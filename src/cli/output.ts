/** Where the command writes: results on stdout, diagnostics and logs on stderr (over stdio stdout is the protocol). */

import { escapeControlCharacters } from '../encoding.js';

/** The command's output streams, one line at a time. */
export interface Output {
  stdout(line: string): void;
  stderr(line: string): void;
  /** A JSON document on stdout. */
  json(value: unknown): void;
}

/** Output to the process's streams. */
export const processOutput: Output = {
  stdout: (line) => void process.stdout.write(`${line.replace(/\n+$/, '')}\n`),
  // Diagnostics and logs name files and echo input: control characters never reach the terminal raw.
  stderr: (line) => void process.stderr.write(`${escapeControlCharacters(line.replace(/\n+$/, ''))}\n`),
  json: (value) => void process.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
};
