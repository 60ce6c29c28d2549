/**
 * Untrusted definition data as the parser reports and keeps it: values quoted for messages, hints for unknown keys,
 * and frozen copies that never let a `__proto__` key reach a prototype.
 *
 * @module
 */

import { childPointer, describeType, isPlainObject, setOwn } from '../json.js';
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from './keywords.js';

/**
 * A short quoted rendering of a value for messages: strings as `'x'`, others as JSON.
 */
export function quote(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 60 ? `${value.slice(0, 57)}...` : value}'`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return String(value);
    return json.length > 60 ? `${json.slice(0, 57)}...` : json;
  } catch {
    return describeType(value);
  }
}

/** Why {@link frozenCopy} refused data: where (a pointer suffix) and what is wrong there. */
export class CopyError extends Error {
  constructor(
    readonly at: string,
    readonly reason = 'must not contain a cycle (definitions are JSON data)',
  ) {
    super(reason);
  }
}

interface CopyState {
  readonly ancestors: object[];
  containers: number;
}

/** A deep frozen copy of JSON-like data; {@link CopyError} on a cycle, a non-finite number, or too deep or large. */
export function frozenCopy(value: unknown): unknown {
  return copyOf(value, { ancestors: [], containers: 0 }, '');
}

function copyOf(value: unknown, state: CopyState, at: string): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new CopyError(at, `must be JSON data: ${String(value)} is not a JSON number`);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (!Array.isArray(value) && !isPlainObject(value)) return value;
  const ancestors = state.ancestors;
  if (ancestors.includes(value)) throw new CopyError(at);
  if (ancestors.length >= MAX_SCHEMA_DEPTH) throw new CopyError(at, `nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
  if (++state.containers > MAX_SCHEMA_NODES) {
    throw new CopyError(
      at,
      `is too large: more than ${MAX_SCHEMA_NODES} objects and arrays (a shared object counts each time it appears)`,
    );
  }
  ancestors.push(value);
  let copy: unknown;
  if (Array.isArray(value)) {
    copy = value.map((item, i) => copyOf(item, state, `${at}/${i}`));
  } else {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      setOwn(out, key, copyOf((value as Record<string, unknown>)[key], state, childPointer(at, key)));
    }
    copy = out;
  }
  ancestors.pop();
  return Object.freeze(copy);
}

/** Edit distance, for "did you mean" hints on unknown keys. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The message for an unknown property, with a hint when a known one is close.
 */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    // Only names within two characters in length can be within distance 2 (and a long key costs nothing then).
    if (Math.abs(candidate.length - key.length) > 2) continue;
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const hint = best !== undefined && bestDistance <= 2 ? ` (did you mean '${best}'?)` : '';
  return `unknown property ${quote(key)}${hint}`;
}
