/**
 * Declarations -> plan: the schema per-argument declarations describe, and the non-ajv part of a validator
 * (per-argument slots: coercion, length limit, default; required names; the effective schema; whether the ajv-free
 * fast path decides alone), built once per distinct declaration.
 *
 * @module
 */
import { ARGUMENT_SCHEMA_KEYWORDS } from '../definition/keywords.js';
import { DeclaredNames, argumentNameKey, argumentNameProblem } from '../definition/names.js';
import { inputSchemaProblems } from '../definition/root-schema.js';
import type { DefinitionProblem, PromptArgumentDefinition } from '../definition/types.js';
import { isWellFormedText } from '../encoding.js';
import { escapePointerSegment, isRecord, setOwn, unescapePointerSegment } from '../json.js';
import { integerOption } from '../options.js';
import type { JsonSchema } from '../types.js';
import { TYPE_CHOICE, TYPE_OBJECT, TYPE_STRING, coercionOf, schemaCoercions, typeMask } from './coercion.js';
import type { Choices, Coercion } from './coercion.js';
import { codePointLength } from './bounds.js';
import { definitionError } from './failures.js';
import { SchemaTooComplexError } from './schema-limits.js';
import type { ArgumentValidationOptions } from './types.js';

// ---------------------------------------------------------------------------------------------- argument schema

const ANNOTATION_KEYWORDS = ['title', 'description'] as const;

/** Whether a declaration is a plain MCP argument (no `type`, `enum` or `const`): a string. */
export function isUntyped(arg: Readonly<Record<string, unknown>>): boolean {
  return arg['type'] === undefined && arg['enum'] === undefined && arg['const'] === undefined;
}

/** The object schema of declarations; validators leave the annotations out to share schemas across wordings. */
export function buildArgumentSchema(
  promptArguments: readonly PromptArgumentDefinition[] | null | undefined,
  annotations: boolean,
): JsonSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const arg of promptArguments ?? []) {
    const source = arg as unknown as Record<string, unknown>;
    const property: Record<string, unknown> = {};
    if (annotations) {
      for (const k of ANNOTATION_KEYWORDS) if (source[k] !== undefined) property[k] = source[k];
    }
    if (isUntyped(source)) property['type'] = 'string';
    for (const k of ARGUMENT_SCHEMA_KEYWORDS) if (source[k] !== undefined) property[k] = source[k];
    setOwn(properties, arg.name, property);
    if (arg.required === true) required.push(arg.name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema['required'] = required;
  return schema;
}

/**
 * The JSON Schema of the arguments object that per-argument declarations describe: `{type: 'object', properties,
 * required?}`, each property holding the argument's JSON-Schema keywords and title/description; a plain argument
 * (no `type`, no `enum`) is `type: 'string'`. Extra arguments are not forbidden.
 *
 * @example
 * ```ts
 * getArgumentSchema([{ name: 'language', required: true, enum: ['typescript', 'python'] }, { name: 'focus' }]);
 * // { type: 'object', properties: { language: { enum: ['typescript', 'python'] }, focus: { type: 'string' } },
 * //   required: ['language'] }
 * ```
 */
export function getArgumentSchema(promptArguments?: readonly PromptArgumentDefinition[]): JsonSchema {
  return buildArgumentSchema(promptArguments, true);
}

// ---------------------------------------------------------------------------------------------- plans

/** Default code-point limit of every string argument. */
export const DEFAULT_MAX_LENGTH = 10_000;

/** What the hot path knows about one declared argument. */
export interface ArgumentSlot {
  readonly name: string;
  /** Type flags to coerce to (declared, or inferred from enum/const/$ref; 0: no coercion). */
  readonly types: number;
  /** The allowed values of a mixed enum/const (`types` is `TYPE_CHOICE`). */
  readonly choices: Choices | undefined;
  /** Whether a string value may need coercion (`types` set, and not to string). */
  readonly parseText: boolean;
  /** Code-point limit (declared maxLength, else the default). */
  readonly limit: number;
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
  /** Fast path only: the value must be a string after coercion (`type: 'string'`, or no type/enum at all). */
  readonly mustBeString: boolean;
  /** Fast path only: the allowed values of a string `enum` (listed, in order, in messages). */
  readonly allowed: ReadonlySet<string> | undefined;
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
  readonly ajvFree: boolean;
  /** Maps a JSON pointer into {@link schema} to one into the prompt definition (for definition errors). */
  locate(schemaPointer: string): string;
}

/** `$schema` URIs of older drafts: removed from an inputSchema's root (it is evaluated as draft 2020-12). */
const LEGACY_DIALECT = /^https?:\/\/json-schema\.org\/(?:draft-0[3467]\/schema|draft\/2019-09\/schema)#?$/;

function isLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** The length limit of undeclared arguments (`options.maxLength`, checked), else the default. */
export function defaultLimitOf(options: ArgumentValidationOptions): number {
  const fail = (message: string): Error => definitionError([{ path: '/maxLength', message }]);
  return integerOption('', 'options.maxLength', options.maxLength, { min: 0, default: DEFAULT_MAX_LENGTH }, fail);
}

/** Whether the fast path alone validates and checks one declaration (no ajv, its default known to fit). */
function fastEligible(arg: Record<string, unknown>): boolean {
  const type = arg['type'];
  if (type !== undefined && type !== 'string') return false;
  for (let i = 0; i < SLOW_KEYWORDS.length; i++) if (arg[SLOW_KEYWORDS[i] as string] !== undefined) return false;
  if (arg['maxLength'] !== undefined && !isLimit(arg['maxLength'])) return false;
  const en = arg['enum'];
  if (en !== undefined) {
    if (!Array.isArray(en) || en.length === 0) return false;
    for (let i = 0; i < en.length; i++) if (typeof en[i] !== 'string') return false;
  }
  const def = arg['default'];
  if (def !== undefined && def !== null) {
    if (typeof def !== 'string') return false;
    if (Array.isArray(en) && !(en as unknown[]).includes(def)) return false;
  }
  return true;
}

/** Keywords only ajv checks. */
const SLOW_KEYWORDS: readonly string[] = ['pattern', 'format', 'minLength', 'minimum', 'maximum', 'items'];

/** The coercion of a per-argument declaration: `type`, else inferred from `enum`, else string (plain MCP). */
function argumentCoercion(arg: Record<string, unknown>): Coercion {
  if (isUntyped(arg)) return STRING;
  return coercionOf({ type: arg['type'], enum: arg['enum'] });
}

const STRING: Coercion = Object.freeze({ types: TYPE_STRING, choices: undefined });
const NO_COERCION: Coercion = Object.freeze({ types: 0, choices: undefined });

/** An argument's length limit: its `maxLength` when its value may be a string, else the default (wire text). */
function limitOf(declared: unknown, coercion: Coercion, defaultLimit: number): number {
  if (!isLimit(declared)) return defaultLimit;
  const types = coercion.types;
  const mayBeString =
    types === 0 ||
    (types & TYPE_STRING) !== 0 ||
    ((types & TYPE_CHOICE) !== 0 && (coercion.choices === undefined || coercion.choices.strings.size > 0));
  return mayBeString ? declared : defaultLimit;
}

function parsesText(types: number): boolean {
  return types !== 0 && (types & TYPE_STRING) === 0;
}

/** Whether a string default is longer than the declared `maxLength` (ajv never sees valid maxLengths). */
function defaultTooLong(property: Record<string, unknown>): boolean {
  const def = property['default'];
  if (typeof def !== 'string') return false;
  const max = property['maxLength'];
  return isLimit(max) && def.length > max && codePointLength(def) > max;
}

function defaultTooLongProblem(property: Record<string, unknown>, path: string): DefinitionProblem {
  const max = String(property['maxLength']);
  return { path: `${path}/default`, message: `default value must NOT have more than ${max} characters` };
}

/** The plan of per-argument declarations; its schemas are built on first read (the fast path never needs them). */
class DeclaredPlan implements ArgumentPlan {
  private built: JsonSchema | undefined;
  private forAjv: JsonSchema | undefined;

  constructor(
    readonly names: readonly string[],
    readonly required: readonly string[],
    readonly slots: ReadonlyMap<string, ArgumentSlot>,
    readonly defaults: readonly ArgumentSlot[],
    readonly extraLimit: number,
    readonly rejectExtras: boolean,
    readonly ajvFree: boolean,
    private readonly list: readonly PromptArgumentDefinition[],
  ) {}

  get schema(): JsonSchema {
    if (this.built === undefined) {
      const schema = buildArgumentSchema(this.list, false);
      if (this.rejectExtras) schema['additionalProperties'] = false;
      this.built = schema;
    }
    return this.built;
  }

  get ajvSchema(): JsonSchema {
    return (this.forAjv ??= withoutLengths(this.schema));
  }

  locate(pointer: string): string {
    const m = /^\/properties\/([^/]*)(.*)$/.exec(pointer);
    const i = m === null ? -1 : this.names.indexOf(unescapePointerSegment(m[1] ?? ''));
    return m === null || i < 0 ? '/arguments' : `/arguments/${i}${m[2] ?? ''}`;
  }
}

/** The plan of an inputSchema. */
class SchemaPlan implements ArgumentPlan {
  readonly ajvFree = false;
  readonly ajvSchema: JsonSchema;

  constructor(
    readonly names: readonly string[],
    readonly required: readonly string[],
    readonly slots: ReadonlyMap<string, ArgumentSlot>,
    readonly defaults: readonly ArgumentSlot[],
    readonly extraLimit: number,
    readonly rejectExtras: boolean,
    readonly schema: JsonSchema,
  ) {
    this.ajvSchema = withoutLengths(schema);
  }

  locate(pointer: string): string {
    return `/inputSchema${pointer}`;
  }
}

/** Whether a (string) enum lists a value twice; allocation-free for the short enums of MCP arguments. */
function hasDuplicate(values: readonly unknown[]): boolean {
  if (values.length > 32) return new Set(values).size !== values.length;
  for (let i = 1; i < values.length; i++) for (let j = 0; j < i; j++) if (values[i] === values[j]) return true;
  return false;
}

/** Whether all declarations are valid fast-path ones: then `check()` needs no plan (a catalogue allocates nothing). */
export function isPlainFastDeclaration(promptArguments: readonly PromptArgumentDefinition[] | undefined): boolean {
  if (promptArguments === undefined) return true;
  if (!Array.isArray(promptArguments)) return false;
  const keys = new Set<string>();
  for (let i = 0; i < promptArguments.length; i++) {
    const entry: unknown = promptArguments[i];
    if (!isRecord(entry)) return false;
    const name = entry['name'];
    if (typeof name !== 'string' || argumentNameProblem(name) !== undefined) return false;
    const key = argumentNameKey(name);
    if (keys.has(key)) return false;
    keys.add(key);
    if (!fastEligible(entry) || defaultTooLong(entry) || requiredWithDefault(entry)) return false;
    if (typeof entry['default'] === 'string' && !isWellFormedText(entry['default'])) return false;
    const en = entry['enum'];
    if (Array.isArray(en) && hasDuplicate(en)) return false;
  }
  return true;
}

/** Whether a declaration is `required: true` with a default (a definition error: it could never be missing). */
function requiredWithDefault(arg: Record<string, unknown>): boolean {
  return arg['required'] === true && arg['default'] !== undefined && arg['default'] !== null;
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
  const defaults: ArgumentSlot[] = [];
  const declared = new DeclaredNames();
  let fast = true;
  for (let i = 0; i < list.length; i++) {
    const entry: unknown = list[i];
    if (!isRecord(entry)) throw definitionError([{ path: `/arguments/${i}`, message: 'must be an object' }]);
    const name = entry['name'];
    if (typeof name !== 'string' || name === '') {
      throw definitionError([{ path: `/arguments/${i}/name`, message: 'must be a non-empty string' }]);
    }
    const nameProblem = argumentNameProblem(name) ?? declared.add(name, `/arguments/${i}`)?.message;
    if (nameProblem !== undefined) throw definitionError([{ path: `/arguments/${i}/name`, message: nameProblem }]);
    if (defaultTooLong(entry)) throw definitionError([defaultTooLongProblem(entry, `/arguments/${i}`)]);
    const eligible = fastEligible(entry);
    fast &&= eligible;
    const en = entry['enum'];
    const def = entry['default'];
    const coercion = argumentCoercion(entry);
    let allowed: Set<string> | undefined;
    if (eligible && Array.isArray(en)) {
      allowed = new Set(en as string[]);
      // Duplicate values are valid JSON Schema but hint at a typo: let ajv judge such an enum.
      if (allowed.size !== en.length) {
        allowed = undefined;
        fast = false;
      }
    }
    const slot: ArgumentSlot = {
      name,
      types: coercion.types,
      choices: coercion.choices,
      parseText: parsesText(coercion.types),
      limit: limitOf(entry['maxLength'], coercion, extraLimit),
      hasDefault: def !== undefined && def !== null,
      defaultValue: def,
      mustBeString: coercion === STRING || entry['type'] === 'string',
      allowed,
    };
    slots.set(name, slot);
    names.push(name);
    if (requiredWithDefault(entry))
      throw definitionError([{ path: `/arguments/${i}/default`, message: REQUIRED_WITH_DEFAULT }]);
    if (entry['required'] === true) required.push(name);
    if (slot.hasDefault) defaults.push(slot);
  }
  return new DeclaredPlan(names, required, slots, defaults, extraLimit, rejectExtras, fast, list);
}

const REQUIRED_WITH_DEFAULT =
  'a required argument cannot have a default (it would never be missing): drop required or the default';

function fromInputSchema(inputSchema: unknown, options: ArgumentValidationOptions): ArgumentPlan {
  const extraLimit = defaultLimitOf(options);
  if (!isRecord(inputSchema)) {
    throw definitionError([{ path: '/inputSchema', message: 'must be a JSON Schema object' }]);
  }
  // The inputSchema wins: `extraArguments` only applies when it says nothing about extra properties itself.
  const rejectExtras = options.extraArguments === 'reject' && !SAYS_EXTRAS.some((k) => inputSchema[k] !== undefined);
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
  const problems = inputSchemaProblems(inputSchema, undefined);
  const slots = new Map<string, ArgumentSlot>();
  const defaults: ArgumentSlot[] = [];
  const coercionOfProperty = schemaCoercions(inputSchema);
  let inferable = true;
  for (const name of names) {
    const property = properties[name];
    const p = isRecord(property) ? property : {};
    if (defaultTooLong(p))
      problems.push(defaultTooLongProblem(p, `/inputSchema/properties/${escapePointerSegment(name)}`));
    const def = p['default'];
    let coercion: Coercion = NO_COERCION;
    try {
      if (inferable) coercion = coercionOfProperty(p);
    } catch (error) {
      if (!(error instanceof SchemaTooComplexError)) throw error;
      inferable = false;
      problems.push({
        path: `/inputSchema/properties/${escapePointerSegment(name)}`,
        message: `is too complex to infer its type from (${error.message}): declare its type or simplify it`,
      });
    }
    const slot: ArgumentSlot = {
      name,
      types: coercion.types,
      choices: coercion.choices,
      parseText: parsesText(coercion.types),
      limit: limitOf(p['maxLength'], coercion, extraLimit),
      hasDefault: def !== undefined && def !== null,
      defaultValue: def,
      mustBeString: false,
      allowed: undefined,
    };
    slots.set(name, slot);
    if (slot.hasDefault) defaults.push(slot);
  }
  for (let i = 0; i < requiredList.length; i++) {
    const name = requiredList[i] as string;
    if (slots.get(name)?.hasDefault === true) {
      problems.push({
        path: `/inputSchema/properties/${escapePointerSegment(name)}/default`,
        message: REQUIRED_WITH_DEFAULT,
      });
    }
  }
  if (problems.length > 0) throw definitionError(problems);
  const schema: JsonSchema = { ...inputSchema };
  const dialect = schema['$schema'];
  if (typeof dialect === 'string' && LEGACY_DIALECT.test(dialect)) delete schema['$schema'];
  if (rejectExtras) schema['additionalProperties'] = false;
  return new SchemaPlan(names, required, slots, defaults, extraLimit, rejectExtras, schema);
}

/** Root keywords by which an inputSchema decides about undeclared properties itself. */
const SAYS_EXTRAS = ['additionalProperties', 'unevaluatedProperties'] as const;

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
 * The plan of a validator (an `inputSchema` wins entirely); throws `INVALID_PROMPT_DEFINITION` for bad declarations.
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
