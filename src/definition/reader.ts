/**
 * The reader of one prompt definition: collects every problem (a JSON pointer and a message) while copying what is
 * valid into frozen output, so a definition reports all its problems at once.
 *
 * @module
 */
import { childPointer, describeType, isRecord, ownValue } from '../json.js';
import { MAX_CARRIED_PROBLEMS } from './problems.js';
import { CopyError, frozenCopy, unknownKeyMessage } from './raw-data.js';
import type { DefinitionProblem, SystemRolePolicy } from './types.js';

/** What a read is copied into. */
export type Out = Record<string, unknown>;

/** How {@link Reader.string} reads a string property. */
export interface StringRule {
  required?: boolean;
  nonEmpty?: boolean;
}
const NO_OPTIONS: StringRule = Object.freeze({});
export const REQUIRED: StringRule = Object.freeze({ required: true });
export const NON_EMPTY: StringRule = Object.freeze({ nonEmpty: true });
export const REQUIRED_NON_EMPTY: StringRule = Object.freeze({ required: true, nonEmpty: true });

/** Collects problems while reading one definition. */
export class Reader {
  readonly problems: DefinitionProblem[] = [];

  constructor(readonly systemRole: SystemRolePolicy) {}

  problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  unknownKeys(record: Record<string, unknown>, path: string, known: readonly string[]): void {
    for (const key in record) {
      if (!known.includes(key) && Object.hasOwn(record, key)) {
        // Past what an error carries, a hint is never read: skip its edit distances.
        this.problem(
          childPointer(path, key),
          this.problems.length < MAX_CARRIED_PROBLEMS ? unknownKeyMessage(key, known) : 'unknown property',
        );
      }
    }
  }

  /** Copies an optional string property into `out`; `nonEmpty` also rejects `''`. */
  string(record: Record<string, unknown>, key: string, path: string, out: Out, opts: StringRule = NO_OPTIONS): void {
    if (ownValue(record, key) === undefined) {
      if (opts.required === true) this.problem(childPointer(path, key), `${key} is required`);
      return;
    }
    const value = record[key];
    if (typeof value !== 'string') {
      this.problem(childPointer(path, key), `${key} must be a string (got ${describeType(value)})`);
    } else if (opts.nonEmpty === true && value.length === 0) {
      this.problem(childPointer(path, key), `${key} must not be empty`);
    } else {
      out[key] = value;
    }
  }

  /** Copies an optional JSON object property (a frozen deep copy) into `out`. */
  object(record: Record<string, unknown>, key: string, path: string, out: Out): void {
    if (ownValue(record, key) === undefined) return;
    const value = record[key];
    const at = childPointer(path, key);
    if (!isRecord(value)) {
      this.problem(at, `${key} must be an object (got ${describeType(value)})`);
      return;
    }
    const copy = this.copy(value, at);
    if (copy !== undefined) out[key] = copy;
  }

  copy(value: unknown, path: string): unknown {
    try {
      return frozenCopy(value);
    } catch (error) {
      if (!(error instanceof CopyError)) throw error;
      this.problem(path + error.at, error.reason);
      return undefined;
    }
  }

  stringArray(record: Record<string, unknown>, key: string, path: string, out: Out): void {
    if (ownValue(record, key) === undefined) return;
    const value = record[key];
    const at = childPointer(path, key);
    if (!Array.isArray(value)) {
      this.problem(at, `${key} must be an array of strings (got ${describeType(value)})`);
      return;
    }
    let ok = true;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'string') {
        ok = false;
        this.problem(childPointer(at, i), `${key} items must be strings (got ${describeType(item)})`);
      }
    }
    if (ok) out[key] = frozenArray(value);
  }
}

/** A frozen copy of an array, allocated at its exact length. */
export function frozenArray<T>(source: readonly T[]): readonly T[] {
  const copy = new Array<T>(source.length);
  for (let i = 0; i < source.length; i++) copy[i] = source[i] as T;
  return Object.freeze(copy);
}
