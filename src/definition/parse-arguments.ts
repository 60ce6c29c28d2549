/**
 * Reading argument declarations: names, types, enums, patterns, string and number bounds, defaults (of the declared
 * type, one of the enum values), and keywords that cannot apply to the declared type (an error, not a no-op).
 *
 * @module
 */
import { childPointer, describeType, isRecord, ownValue } from '../json.js';
import { describeRange, isInRange } from '../options.js';
import type { OptionRange } from '../options.js';
import { ARGUMENT_SCHEMA_KEYWORDS, matchesJsonType } from './keywords.js';
import { DeclaredNames, argumentNameProblem } from './names.js';
import { quote } from './raw-data.js';
import { frozenArray } from './reader.js';
import type { Out, Reader } from './reader.js';
import type { ParsedLists } from './reuse.js';
import type { ArgumentType, PromptArgumentDefinition } from './types.js';

/** The properties an argument declaration may have (`complete` is programmatic only). */
export const ARGUMENT_KEYS: readonly string[] = Object.freeze([
  'name',
  'title',
  'description',
  'required',
  ...ARGUMENT_SCHEMA_KEYWORDS,
  'complete',
]);

/** JSON-Schema type names an argument may declare. */
export const ARGUMENT_TYPES: readonly ArgumentType[] = Object.freeze([
  'string',
  'number',
  'integer',
  'boolean',
  'array',
  'object',
]);

function isArgumentType(value: unknown): value is ArgumentType {
  return typeof value === 'string' && (ARGUMENT_TYPES as readonly string[]).includes(value);
}

/** A string length bound: any non-negative integer (JSON Schema sets no largest one). */
const COUNT: OptionRange = { min: 0, max: Number.POSITIVE_INFINITY };

function readNonNegativeInteger(r: Reader, arg: Record<string, unknown>, key: string, path: string, out: Out): void {
  if (ownValue(arg, key) === undefined) return;
  const value = arg[key];
  if (isInRange(value, COUNT)) out[key] = value;
  else r.problem(childPointer(path, key), `${key} must be ${describeRange(COUNT)} (got ${quote(value)})`);
}

function readNumber(r: Reader, arg: Record<string, unknown>, key: string, path: string, out: Out): void {
  if (ownValue(arg, key) === undefined) return;
  const value = arg[key];
  if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
  else r.problem(childPointer(path, key), `${key} must be a finite number (got ${quote(value)})`);
}

function readArgument(r: Reader, value: unknown, path: string): PromptArgumentDefinition | undefined {
  if (!isRecord(value)) {
    r.problem(path, `argument must be an object with a 'name' (got ${describeType(value)})`);
    return undefined;
  }
  const before = r.problems.length;
  r.unknownKeys(value, path, ARGUMENT_KEYS);
  const out: Out = {};
  if (ownValue(value, 'name') === undefined) {
    r.problem(childPointer(path, 'name'), 'name is required');
  } else {
    const problem = argumentNameProblem(value['name']);
    if (problem === undefined) out['name'] = value['name'];
    else r.problem(childPointer(path, 'name'), problem);
  }
  r.string(value, 'title', path, out);
  r.string(value, 'description', path, out);
  if (ownValue(value, 'required') !== undefined) {
    if (typeof value['required'] === 'boolean') out['required'] = value['required'];
    else
      r.problem(childPointer(path, 'required'), `required must be a boolean (got ${describeType(value['required'])})`);
  }

  let type: ArgumentType | undefined;
  if (ownValue(value, 'type') !== undefined) {
    const t = value['type'];
    if (isArgumentType(t)) {
      type = t;
      out['type'] = t;
    } else {
      r.problem(
        childPointer(path, 'type'),
        `invalid type ${quote(t)}: must be one of ${ARGUMENT_TYPES.map((x) => `'${x}'`).join(', ')}`,
      );
    }
  }
  const typeOk = ownValue(value, 'type') === undefined || type !== undefined;

  let enumValues: readonly unknown[] | undefined;
  if (ownValue(value, 'enum') !== undefined) {
    const e = value['enum'];
    const at = childPointer(path, 'enum');
    if (!Array.isArray(e)) {
      r.problem(at, `enum must be an array (got ${describeType(e)})`);
    } else if (e.length === 0) {
      r.problem(at, 'enum must not be empty');
    } else {
      const enumBefore = r.problems.length;
      const seen = new Set<unknown>();
      for (let i = 0; i < e.length; i++) {
        const item: unknown = e[i];
        if (
          item !== null &&
          typeof item !== 'string' &&
          typeof item !== 'boolean' &&
          !(typeof item === 'number' && Number.isFinite(item))
        ) {
          r.problem(
            childPointer(at, i),
            `enum values must be strings, numbers, booleans or null (got ${describeType(item)})`,
          );
        } else if (type !== undefined && !matchesJsonType(item, type)) {
          r.problem(childPointer(at, i), `enum value ${quote(item)} does not match type '${type}'`);
        } else if (seen.has(item)) {
          r.problem(childPointer(at, i), `duplicate enum value ${quote(item)}`);
        }
        seen.add(item);
      }
      if (r.problems.length === enumBefore) {
        enumValues = frozenArray(e);
        out['enum'] = enumValues;
      }
    }
  }

  if (ownValue(value, 'pattern') !== undefined) {
    const p = value['pattern'];
    const at = childPointer(path, 'pattern');
    if (typeof p !== 'string') {
      r.problem(at, `pattern must be a string (got ${describeType(p)})`);
    } else {
      try {
        new RegExp(p, 'u');
        out['pattern'] = p;
      } catch (error) {
        r.problem(at, `invalid pattern ${quote(p)}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  r.string(value, 'format', path, out);
  readNonNegativeInteger(r, value, 'minLength', path, out);
  readNonNegativeInteger(r, value, 'maxLength', path, out);
  readNumber(r, value, 'minimum', path, out);
  readNumber(r, value, 'maximum', path, out);

  if (ownValue(value, 'default') !== undefined) {
    const d = value['default'];
    const at = childPointer(path, 'default');
    // With neither a type nor an enum, an argument is a string (that is all the MCP wire sends).
    const expected: ArgumentType | undefined = type ?? (ownValue(value, 'enum') !== undefined ? undefined : 'string');
    if (typeOk && expected !== undefined && !matchesJsonType(d, expected)) {
      r.problem(at, `default must match type '${expected}' (got ${quote(d)})`);
    } else if (enumValues !== undefined && !enumValues.includes(d)) {
      r.problem(at, `default ${quote(d)} is not one of the enum values`);
    } else {
      const copyBefore = r.problems.length;
      const copy = r.copy(d, at);
      if (r.problems.length === copyBefore) out['default'] = copy;
    }
  }
  r.object(value, 'items', path, out);
  if (typeOk) checkKeywordsApply(r, out, path, type, enumValues);
  if (ownValue(value, 'complete') !== undefined) {
    if (typeof value['complete'] === 'function') out['complete'] = value['complete'];
    else r.problem(childPointer(path, 'complete'), 'complete must be a function (programmatic definitions only)');
  }
  return r.problems.length === before ? (Object.freeze(out) as unknown as PromptArgumentDefinition) : undefined;
}

export function readArguments(
  r: Reader,
  value: unknown,
  path: string,
  lists: ParsedLists | undefined,
): readonly PromptArgumentDefinition[] | undefined {
  if (!Array.isArray(value)) {
    r.problem(path, `arguments must be an array of argument declarations (got ${describeType(value)})`);
    return undefined;
  }
  const before = r.problems.length;
  const out = new Array<PromptArgumentDefinition>(value.length);
  const names = new DeclaredNames();
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const at = childPointer(path, i);
    const arg = readArgument(r, item, at);
    const name = isRecord(item) ? ownValue(item, 'name') : undefined;
    const twin = typeof name === 'string' ? names.add(name, at, childPointer(at, 'name')) : undefined;
    if (twin !== undefined) r.problems.push(twin);
    if (arg !== undefined) out[i] = arg;
  }
  if (r.problems.length !== before) return undefined;
  lists?.rememberArguments(out);
  return Object.freeze(out);
}

const STRING_KEYWORDS = ['pattern', 'format', 'minLength', 'maxLength'] as const;
const NUMBER_KEYWORDS = ['minimum', 'maximum'] as const;

/** A keyword that cannot apply to the argument's type (else the enum's, else string) is an error, not a no-op. */
function checkKeywordsApply(
  r: Reader,
  value: Record<string, unknown>,
  path: string,
  type: ArgumentType | undefined,
  enumValues: readonly unknown[] | undefined,
): void {
  let effective: ArgumentType | undefined = type;
  if (effective === undefined) {
    if (enumValues === undefined) effective = 'string';
    else if (enumValues.every((v) => typeof v === 'number')) effective = 'number';
    else if (enumValues.every((v) => typeof v === 'string')) effective = 'string';
    else return;
  }
  const described = type === undefined ? `an argument without a type is a ${effective}` : `type '${type}'`;
  if (effective !== 'string') {
    for (const k of STRING_KEYWORDS) {
      if (ownValue(value, k) !== undefined)
        r.problem(childPointer(path, k), `${k} applies to strings, but ${described}`);
    }
  }
  if (effective !== 'number' && effective !== 'integer') {
    for (const k of NUMBER_KEYWORDS) {
      if (ownValue(value, k) !== undefined)
        r.problem(
          childPointer(path, k),
          `${k} applies to numbers, but ${described}: declare type 'number' or 'integer'`,
        );
    }
  }
  if (effective !== 'array' && ownValue(value, 'items') !== undefined) {
    r.problem(childPointer(path, 'items'), `items applies to arrays, but ${described}: declare type 'array'`);
  }
}
