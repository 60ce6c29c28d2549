/**
 * Rendered messages as diffable text: one line per leaf value (`[0].content.text: ...`), a text over several lines
 * written as an indented block, so a diff points at the changed line of a long text.
 *
 * @module
 */
import { isRecord } from '../json.js';

/** Longest line kept of one value (longer ones end with a count of the characters left out). */
const MAX_VALUE_CHARS = 2_000;

/** A line of text cut to {@link MAX_VALUE_CHARS}, saying how long it was. */
function cut(line: string): string {
  return line.length > MAX_VALUE_CHARS ? `${line.slice(0, MAX_VALUE_CHARS)}… (${line.length} characters)` : line;
}

function leaf(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > MAX_VALUE_CHARS ? `${json.slice(0, MAX_VALUE_CHARS)}… (${json.length} characters)` : json;
}

const FIRST_KEYS = ['role', 'content', 'type', 'text', 'uri', 'name', 'mimeType'];

/** Keys in one order whatever the order written: a snapshot's key order is not a difference. */
function orderedKeys(value: Record<string, unknown>): string[] {
  const keys = Object.keys(value);
  const first = FIRST_KEYS.filter((k) => Object.hasOwn(value, k));
  const rest = keys.filter((k) => !FIRST_KEYS.includes(k)).sort();
  return [...first, ...rest];
}

function write(value: unknown, path: string, out: string[]): void {
  if (Array.isArray(value)) {
    if (value.length === 0) out.push(`${path}: []`);
    for (let i = 0; i < value.length; i++) write(value[i], `${path}[${i}]`, out);
    return;
  }
  if (isRecord(value)) {
    const keys = orderedKeys(value);
    if (keys.length === 0) out.push(`${path}: {}`);
    for (const key of keys) write(value[key], path === '' ? key : `${path}.${key}`, out);
    return;
  }
  if (typeof value === 'string' && value.includes('\n')) {
    out.push(`${path}: |`);
    for (const line of value.split('\n')) out.push(`  ${cut(line)}`);
    return;
  }
  out.push(`${path}: ${leaf(value)}`);
}

/**
 * A JSON value as lines for a diff: leaves in document order, keys in one fixed order.
 *
 * @internal
 */
export function diffText(value: unknown): string {
  const out: string[] = [];
  write(value, 'messages', out);
  return out.join('\n');
}
