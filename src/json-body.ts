/**
 * Parsing a JSON body: the one step from JSON text to a value that every transport taking text (HTTP and CGI, JSON-RPC
 * text, the agent tool's parameters) and the CLI's `--args-json` go through, so the exact-number check
 * (docs/arguments.md) is applied the same way everywhere.
 *
 * @module
 * @internal
 */
import { InexactNumber, markInexactNumbers } from './arguments/numbers.js';
import { isRecord } from './json.js';

/**
 * JSON text as a value (a syntax error throws, as `JSON.parse` does). Each entry of the object found at path `at`
 * (the body itself when empty) whose value holds a number `JSON.parse` changed is replaced by a mark that the argument
 * validator refuses by name and place; see {@link inexactMark}.
 */
export function parseJsonBody(text: string, at: readonly string[] = []): unknown {
  const value: unknown = JSON.parse(text);
  const args = objectAt(value, at);
  if (args !== undefined) markInexactNumbers(text, args, at);
  return value;
}

/** The mark {@link parseJsonBody} left in place of a value holding a changed number: where in the value, and why. */
export function inexactMark(
  value: unknown,
): { readonly path: readonly (string | number)[]; readonly message: string } | undefined {
  return value instanceof InexactNumber ? value : undefined;
}

/** The object at path `at` of a parsed value (own keys only), if there is one. */
function objectAt(value: unknown, at: readonly string[]): Record<string, unknown> | undefined {
  let current = value;
  for (const key of at) {
    if (!isRecord(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return isRecord(current) ? current : undefined;
}
