/** Command-line arguments: node:util parseArgs, every mistake a one-line UsageError. */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { describeRange, isInRange } from '../options.js';

/** A mistake in the command line: printed as one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** One option as given, in command-line order. */
export interface OptionToken {
  name: string;
  value: string | undefined;
}

/** A failure that is not a usage mistake (cannot listen, SDK missing): one line, exit 1. */
export class ServeFailure extends Error {}

/** A database failure (unreachable, connection lost, refused): one line, exit code 3. */
export class DatabaseFailure extends Error {
  override readonly name = 'DatabaseFailure';
}

/** Parsed arguments of one command. */
export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** The options in the order they were given (for options whose order matters). */
  options: OptionToken[];
}

/** A negative number (`-1`, `-0.5`): the value of the option before it, never an option itself. */
const NEGATIVE_NUMBER = /^-\d|^-\.\d/;

/** `--name -1` as `--name=-1` for options that take a value, so parseArgs reads the number as the value. */
function joinNegativeValues(args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (
      name !== undefined &&
      Object.hasOwn(options, name) &&
      options[name]!.type === 'string' &&
      next !== undefined &&
      NEGATIVE_NUMBER.test(next)
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** parseArgs, strict; its errors become one-line UsageErrors that name the command. */
export function parseCommand(command: string, args: readonly string[], options: Options): ParsedArgs {
  try {
    const { values, positionals, tokens } = parseArgs({
      args: joinNegativeValues(args, options),
      options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
    const given: OptionToken[] = [];
    for (const t of tokens) if (t.kind === 'option') given.push({ name: t.name, value: t.value });
    return { values: values as ParsedArgs['values'], positionals, options: given };
  } catch (error) {
    throw new UsageError(`${command}: ${describeParseError(error)}`);
  }
}

function describeParseError(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const message = e.message ?? String(error);
  const quoted = /'(-{1,2}[^']*)'/.exec(message)?.[1];
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted ?? message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const option = quoted?.split(' ')[0] ?? '';
      if (/argument missing/.test(message)) return `option ${option} needs a value`;
      // A value starting with '-' (that is not a number) reads as the next option.
      if (/ambiguous/.test(message))
        return `option ${option} needs a value (to give one that starts with '-', write ${option}=-...)`;
      return `option ${option} takes no value`;
    }
    default:
      return message.split('\n', 1)[0] ?? message;
  }
}

/** Exactly `count` positionals, named in the error when they are missing or extra. */
export function positionals(command: string, given: readonly string[], names: readonly string[]): string[] {
  if (given.length < names.length) throw new UsageError(`${command}: missing <${names[given.length]}>`);
  if (given.length > names.length) throw new UsageError(`${command}: unexpected argument '${given[names.length]}'`);
  return [...given];
}

/** `--docs scheme=dir` values as `{scheme: dir}`. */
export function docsRoots(command: string, values: readonly string[] | undefined): Record<string, string> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const roots: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const value of values) {
    const at = value.indexOf('=');
    const scheme = at === -1 ? '' : value.slice(0, at);
    const dir = at === -1 ? '' : value.slice(at + 1);
    if (!/^[a-z][a-z0-9+.-]*$/.test(scheme) || dir === '') {
      throw new UsageError(
        `${command}: --docs expects scheme=directory (for example architecture=./docs), got '${value}'`,
      );
    }
    if (scheme in roots) throw new UsageError(`${command}: --docs gives the scheme '${scheme}' twice`);
    if (!isDirectory(dir)) throw new UsageError(`${command}: --docs ${scheme}=${dir}: not a directory`);
    roots[scheme] = dir;
  }
  return roots;
}

/** An integer option from `min` to `max`; anything else (a negative number, a fraction, text) names the option. */
export function integerOption(
  command: string,
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  const range = { min, max };
  if (!isInRange(n, range))
    throw new UsageError(`${command}: --${name} must be ${describeRange(range)}, got '${value}'`);
  return n;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
