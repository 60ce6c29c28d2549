/**
 * The non-ajv part of a validator, built once on first use: per-argument slots (coercion type, length limit,
 * default), required names, the effective schema, and whether the ajv-free fast path can decide alone.
 *
 * @module
 * @internal
 */
import type { PromptArgumentDefinition } from '../definition/types.js';
import type { JsonSchema } from '../types.js';
import { TYPE_OBJECT, typeMask } from './coerce.js';
import { definitionError } from './failures.js';
import { buildArgumentSchema, setOwn } from './helpers.js';
import type { ArgumentValidationOptions } from './types.js';

/** Default code-point limit of every string argument. */
export const DEFAULT_MAX_LENGTH = 10_000;

/** What the hot path knows about one declared argument. */
export interface ArgumentSlot {
  readonly name: string;
  /** Declared type flags (0: no coercion). */
  readonly types: number;
  /** Code-point limit (declared maxLength, else the default). */
  readonly limit: number;
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
  /** Fast path only: the value must be a string after coercion (`type: 'string'`). */
  readonly mustBeString: boolean;
  /** Fast path only: the allowed values of a string `enum`. */
  readonly allowed: ReadonlySet<string> | undefined;
  /** Fast path only: the allowed values as listed in messages. */
  readonly allowedText: string;
}

/** Everything a validator needs besides ajv. */
export interface ArgumentPlan {
  readonly names: readonly string[];
  readonly required: readonly string[];
  readonly slots: ReadonlyMap<string, ArgumentSlot>;
  /** Slots with a default, declaration order. */
  readonly defaults: readonly ArgumentSlot[];
  /** Limit of undeclared (extra) string arguments. */
  readonly extraLimit: number;
  readonly rejectExtras: boolean;
  /** The effective schema (what {@link CompiledArgumentValidator.schema} shows). */
  readonly schema: JsonSchema;
  /**
   * The schema handed to ajv: {@link schema} without the top-level properties' valid `maxLength`, which the hot
   * path enforces itself (ajv would walk every string to count code points again).
   */
  readonly ajvSchema: JsonSchema;
  /** True when the fast path decides alone (no ajv). */
  readonly fast: boolean;
  /** Maps a JSON pointer into {@link schema} to one into the prompt definition (for definition errors). */
  readonly locate: (schemaPointer: string) => string;
}

/** `$schema` URIs of older drafts: removed from an inputSchema's root (it is evaluated as draft 2020-12). */
const LEGACY_DIALECT = /^https?:\/\/json-schema\.org\/(?:draft-0[3467]\/schema|draft\/2019-09\/schema)#?$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function defaultLimitOf(options: ArgumentValidationOptions): number {
  const limit = options.maxLength;
  if (limit === undefined) return DEFAULT_MAX_LENGTH;
  if (!isLimit(limit)) {
    throw definitionError([{ path: '/maxLength', message: 'options.maxLength must be a non-negative integer' }]);
  }
  return limit;
}

/** Whether one argument declaration is fully checked by the fast path (so ajv is not needed for it). */
function fastEligible(arg: Record<string, unknown>): boolean {
  const type = arg['type'];
  if (type !== undefined && type !== 'string') return false;
  for (const k of ['pattern', 'format', 'minLength', 'minimum', 'maximum', 'items'] as const) {
    if (arg[k] !== undefined) return false;
  }
  if (arg['maxLength'] !== undefined && !isLimit(arg['maxLength'])) return false;
  const en = arg['enum'];
  if (en !== undefined) {
    if (!Array.isArray(en) || en.length === 0 || !en.every((v) => typeof v === 'string')) return false;
    if (new Set(en).size !== en.length) return false;
  }
  const def = arg['default'];
  if (def !== undefined) {
    if (type === 'string' && typeof def !== 'string') return false;
    if (Array.isArray(en) && !(en as unknown[]).includes(def)) return false;
  }
  return true;
}

function fromArguments(
  promptArguments: readonly PromptArgumentDefinition[] | undefined,
  options: ArgumentValidationOptions,
): ArgumentPlan {
  const extraLimit = defaultLimitOf(options);
  const rejectExtras = options.extraArguments === 'reject';
  if (promptArguments != null && !Array.isArray(promptArguments)) {
    throw definitionError([{ path: '/arguments', message: 'must be an array' }]);
  }
  const list = promptArguments ?? [];
  const names: string[] = [];
  const required: string[] = [];
  const slots = new Map<string, ArgumentSlot>();
  const index = new Map<string, number>();
  const defaults: ArgumentSlot[] = [];
  let fast = true;
  list.forEach((entry: unknown, i) => {
    if (!isRecord(entry)) throw definitionError([{ path: `/arguments/${i}`, message: 'must be an object' }]);
    const name = entry['name'];
    if (typeof name !== 'string' || name === '') {
      throw definitionError([{ path: `/arguments/${i}/name`, message: 'must be a non-empty string' }]);
    }
    if (slots.has(name)) {
      throw definitionError([{ path: `/arguments/${i}/name`, message: `duplicate argument name '${name}'` }]);
    }
    const eligible = fastEligible(entry);
    fast &&= eligible;
    const en = entry['enum'];
    const allowed = eligible && Array.isArray(en) ? new Set(en as string[]) : undefined;
    const def = entry['default'];
    const slot: ArgumentSlot = {
      name,
      types: typeMask(entry['type']),
      limit: isLimit(entry['maxLength']) ? entry['maxLength'] : extraLimit,
      hasDefault: def !== undefined && def !== null,
      defaultValue: def,
      mustBeString: entry['type'] === 'string',
      allowed,
      allowedText: allowed === undefined ? '' : [...allowed].join(', '),
    };
    slots.set(name, slot);
    index.set(name, i);
    names.push(name);
    if (entry['required'] === true) required.push(name);
    if (slot.hasDefault) defaults.push(slot);
  });
  const schema = buildArgumentSchema(list, false);
  if (rejectExtras) schema['additionalProperties'] = false;
  const locate = (pointer: string): string => {
    const m = /^\/properties\/([^/]*)(.*)$/.exec(pointer);
    const i = m === null ? undefined : index.get(unescapePointer(m[1] ?? ''));
    return m === null || i === undefined ? '/arguments' : `/arguments/${i}${m[2] ?? ''}`;
  };
  const ajvSchema = withoutLengths(schema);
  return { names, required, slots, defaults, extraLimit, rejectExtras, schema, ajvSchema, fast, locate };
}

function fromInputSchema(inputSchema: unknown, options: ArgumentValidationOptions): ArgumentPlan {
  const extraLimit = defaultLimitOf(options);
  const rejectExtras = options.extraArguments === 'reject';
  if (!isRecord(inputSchema)) {
    throw definitionError([{ path: '/inputSchema', message: 'must be a JSON Schema object' }]);
  }
  const type = inputSchema['type'];
  if (type !== undefined && !(typeMask(type) & TYPE_OBJECT)) {
    throw definitionError([{ path: '/inputSchema/type', message: "must be 'object'" }]);
  }
  const properties = inputSchema['properties'] ?? {};
  if (!isRecord(properties)) {
    throw definitionError([{ path: '/inputSchema/properties', message: 'must be an object' }]);
  }
  const requiredList = inputSchema['required'] ?? [];
  if (!Array.isArray(requiredList) || !requiredList.every((r) => typeof r === 'string')) {
    throw definitionError([{ path: '/inputSchema/required', message: 'must be an array of strings' }]);
  }
  const required = [...new Set(requiredList as string[])];
  const names = Object.keys(properties);
  const slots = new Map<string, ArgumentSlot>();
  const defaults: ArgumentSlot[] = [];
  for (const name of names) {
    const property = properties[name];
    const p = isRecord(property) ? property : {};
    const def = p['default'];
    const slot: ArgumentSlot = {
      name,
      types: typeMask(p['type']),
      limit: isLimit(p['maxLength']) ? p['maxLength'] : extraLimit,
      hasDefault: def !== undefined && def !== null,
      defaultValue: def,
      mustBeString: false,
      allowed: undefined,
      allowedText: '',
    };
    slots.set(name, slot);
    if (slot.hasDefault) defaults.push(slot);
  }
  for (const name of required) {
    if (slots.has(name)) continue;
    names.push(name);
    slots.set(name, {
      name,
      types: 0,
      limit: extraLimit,
      hasDefault: false,
      defaultValue: undefined,
      mustBeString: false,
      allowed: undefined,
      allowedText: '',
    });
  }
  const schema: JsonSchema = { ...inputSchema };
  const dialect = schema['$schema'];
  if (typeof dialect === 'string' && LEGACY_DIALECT.test(dialect)) delete schema['$schema'];
  if (rejectExtras) schema['additionalProperties'] = false;
  const locate = (pointer: string): string => `/inputSchema${pointer}`;
  const ajvSchema = withoutLengths(schema);
  return { names, required, slots, defaults, extraLimit, rejectExtras, schema, ajvSchema, fast: false, locate };
}

/** A copy of `schema` whose top-level properties have no (valid) `maxLength`; `schema` itself when none has one. */
function withoutLengths(schema: JsonSchema): JsonSchema {
  const properties = schema['properties'];
  if (!isRecord(properties)) return schema;
  let copy: Record<string, unknown> | undefined;
  for (const name of Object.keys(properties)) {
    const property = properties[name];
    if (!isRecord(property) || !isLimit(property['maxLength'])) continue;
    const { maxLength: _enforcedByUs, ...rest } = property;
    copy ??= { ...properties };
    setOwn(copy, name, rest);
  }
  return copy === undefined ? schema : { ...schema, properties: copy };
}

/**
 * Builds the plan of a validator. `inputSchema`, when given, wins entirely: names, required, types, defaults and
 * limits come from it, and per-argument keywords (and `required` flags) are ignored for validation.
 * Throws PromptError `INVALID_PROMPT_DEFINITION` for malformed declarations (non-array arguments, nameless or
 * duplicate arguments, a non-object inputSchema).
 *
 * @example
 * ```ts
 * buildPlan([{ name: 'code', required: true }], undefined, {}).fast; // true: no ajv needed
 * ```
 */
export function buildPlan(
  promptArguments: readonly PromptArgumentDefinition[] | undefined,
  inputSchema: JsonSchema | undefined,
  options: ArgumentValidationOptions,
): ArgumentPlan {
  return inputSchema === undefined || inputSchema === null
    ? fromArguments(promptArguments, options)
    : fromInputSchema(inputSchema, options);
}
