/**
 * A prompt's arguments as an elicitation form: the restricted `requestedSchema` of `elicitation/create` (a flat object
 * of strings, numbers, booleans and string options). What the form cannot say is left out of it; the answers are
 * validated in full against the prompt's own schema afterwards.
 *
 * @module
 * @internal
 */
import { wellFormed } from '../encoding.js';
import { isRecord } from '../json.js';
import { utf8ByteLength } from '../render/limits.js';
import type { PromptArgument } from '../types.js';
import { schemaProperties } from './listing.js';
import type { PromptArgumentDefinition, PromptDefinition } from './types.js';

/** One option of a titled select. */
export interface FormOption {
  const: string;
  title: string;
}

/** One property of a form, as the elicitation schema allows it. */
export type FormField =
  | {
      type: 'string';
      title?: string;
      description?: string;
      minLength?: number;
      maxLength?: number;
      format?: 'email' | 'uri' | 'date' | 'date-time';
      default?: string;
    }
  | { type: 'string'; title?: string; description?: string; enum: string[]; default?: string }
  | { type: 'string'; title?: string; description?: string; oneOf: FormOption[]; default?: string }
  | {
      type: 'number' | 'integer';
      title?: string;
      description?: string;
      minimum?: number;
      maximum?: number;
      default?: number;
    }
  | { type: 'boolean'; title?: string; description?: string; default?: boolean }
  | {
      type: 'array';
      title?: string;
      description?: string;
      minItems?: number;
      maxItems?: number;
      items: { type: 'string'; enum: string[] } | { anyOf: FormOption[] };
      default?: string[];
    };

/** The form of one field, or why the field is left out. */
export type FieldConversion = { field: FormField } | { omitted: string };

/** The `requestedSchema` of an elicitation form. */
export interface FormSchema {
  type: 'object';
  properties: Record<string, FormField>;
  required?: string[];
}

/** Bounds of one form (defaults: {@link DEFAULT_FORM_LIMITS}). */
export interface FormLimits {
  /** Fields in one form. */
  maxFields: number;
  /** UTF-8 bytes of the form's JSON. */
  maxBytes: number;
  /** Options of one select. */
  maxOptions: number;
}

/** 32 fields, 32 KiB, 100 options a select. */
export const DEFAULT_FORM_LIMITS: Readonly<FormLimits> = Object.freeze({
  maxFields: 32,
  maxBytes: 32_768,
  maxOptions: 100,
});

/** Characters kept of a title (code units, cut at a code point) and of a description. */
const MAX_TITLE = 200;
const MAX_DESCRIPTION = 1_000;
const FORMATS: ReadonlySet<string> = new Set(['email', 'uri', 'date', 'date-time']);
/** Keywords whose meaning the form cannot carry when the schema gives no `type` to fall back on. */
const COMPOSED = ['$ref', '$dynamicRef', 'anyOf', 'oneOf', 'allOf', 'not', 'if'] as const;

function text(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const out = wellFormed(value);
  // A cut inside a surrogate pair leaves a lone half, which wellFormed() replaces.
  return out.length > max ? `${wellFormed(out.slice(0, max - 1))}…` : out;
}

/** The one type a schema allows (`['x', 'null']` is `x`), `undefined` when it says none, `null` for several. */
function singleType(type: unknown): string | undefined | null {
  if (type === undefined) return undefined;
  if (typeof type === 'string') return type;
  if (!Array.isArray(type)) return null;
  const kinds = type.filter((t) => t !== 'null');
  return kinds.length === 1 && typeof kinds[0] === 'string' ? kinds[0] : null;
}

/** A value as an option's text (what the MCP wire would carry for it), `undefined` for what no text can mean. */
function optionText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return JSON.stringify(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

function options(values: readonly unknown[], limits: FormLimits): string[] | string {
  const out: string[] = [];
  for (const v of values) {
    const t = optionText(v);
    if (t !== undefined && !out.includes(t)) out.push(wellFormed(t));
    if (out.length > limits.maxOptions) return `it has more than ${limits.maxOptions} options`;
  }
  return out.length === 0 ? 'none of its allowed values is text, a number or a boolean' : out;
}

/** `oneOf`/`anyOf` whose every branch is `{const, title?}`: titled options. */
function titledOptions(branches: unknown, limits: FormLimits): FormOption[] | string | undefined {
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  if (branches.length > limits.maxOptions) return `it has more than ${limits.maxOptions} options`;
  const out: FormOption[] = [];
  for (const b of branches) {
    if (!isRecord(b) || !Object.hasOwn(b, 'const') || Object.keys(b).some((k) => !OPTION_KEYS.has(k))) return undefined;
    const value = optionText(b['const']);
    if (value === undefined) return undefined;
    out.push({ const: wellFormed(value), title: text(b['title'], MAX_TITLE) ?? wellFormed(value) });
  }
  return out;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['const', 'title', 'description', 'type']);

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function defined<T extends Record<string, unknown>>(record: T): T {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}

function arrayField(s: Record<string, unknown>, limits: FormLimits): FieldConversion {
  const items = s['items'];
  if (!isRecord(items)) return { omitted: 'an array is asked only when its items are a list of options' };
  const bounds = { minItems: count(s['minItems']), maxItems: count(s['maxItems']) };
  const given = Array.isArray(s['default']) ? s['default'] : undefined;
  const titled = titledOptions(items['oneOf'], limits) ?? titledOptions(items['anyOf'], limits);
  if (typeof titled === 'string') return { omitted: titled };
  let allowed: string[];
  let itemSchema: { type: 'string'; enum: string[] } | { anyOf: FormOption[] };
  if (titled !== undefined) {
    allowed = titled.map((o) => o.const);
    itemSchema = { anyOf: titled };
  } else if (Array.isArray(items['enum'])) {
    const listed = options(items['enum'], limits);
    if (typeof listed === 'string') return { omitted: listed };
    allowed = listed;
    itemSchema = { type: 'string', enum: listed };
  } else {
    return { omitted: 'an array is asked only when its items are a list of options' };
  }
  const fallback = given?.map(optionText);
  const usable = fallback?.every((v): v is string => v !== undefined && allowed.includes(v)) === true;
  return {
    field: defined({
      type: 'array',
      ...bounds,
      items: itemSchema,
      default: usable ? (fallback as string[]) : undefined,
    }),
  };
}

/**
 * The form field of one argument's schema (the merged keywords of the argument and its `inputSchema` property), or
 * why it is left out. Constraints the form cannot carry (`pattern`, `multipleOf`, exclusive bounds, other formats)
 * are dropped from the field: the answers are validated against the full schema anyway.
 */
export function formField(
  schema: Readonly<Record<string, unknown>>,
  limits: FormLimits = DEFAULT_FORM_LIMITS,
): FieldConversion {
  const type = singleType(schema['type']);
  if (type === null) return { omitted: 'its type allows more than one kind of value' };
  if (type === 'object') return { omitted: 'an object cannot be asked in a form' };
  if (type === 'null') return { omitted: 'null cannot be asked in a form' };
  if (type === 'array') return arrayField(schema, limits);
  if (type !== undefined && type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean') {
    return { omitted: `its type '${text(type, 40) ?? ''}' is not one of JSON Schema's` };
  }
  const titled = titledOptions(schema['oneOf'], limits) ?? titledOptions(schema['anyOf'], limits);
  if (typeof titled === 'string') return { omitted: titled };
  const fallback = optionText(schema['default']);
  if (titled !== undefined) {
    const usable = fallback !== undefined && titled.some((o) => o.const === fallback);
    return { field: defined({ type: 'string', oneOf: titled, default: usable ? fallback : undefined }) };
  }
  const allowed = Array.isArray(schema['enum'])
    ? schema['enum']
    : Object.hasOwn(schema, 'const')
      ? [schema['const']]
      : undefined;
  if (allowed !== undefined) {
    const listed = options(allowed, limits);
    if (typeof listed === 'string') return { omitted: listed };
    const usable = fallback !== undefined && listed.includes(fallback);
    return { field: defined({ type: 'string', enum: listed, default: usable ? fallback : undefined }) };
  }
  if (type === undefined && COMPOSED.some((k) => schema[k] !== undefined)) {
    return { omitted: 'its schema has no type and is composed ($ref, anyOf, oneOf, allOf, not, if)' };
  }
  if (type === 'number' || type === 'integer') {
    let given = finite(schema['default']);
    if (type === 'integer' && given !== undefined && !Number.isSafeInteger(given)) given = undefined;
    return {
      field: defined({ type, minimum: finite(schema['minimum']), maximum: finite(schema['maximum']), default: given }),
    };
  }
  if (type === 'boolean') {
    const given = typeof schema['default'] === 'boolean' ? schema['default'] : undefined;
    return { field: defined({ type: 'boolean', default: given }) };
  }
  const format = typeof schema['format'] === 'string' && FORMATS.has(schema['format']) ? schema['format'] : undefined;
  return {
    field: defined({
      type: 'string',
      minLength: count(schema['minLength']),
      maxLength: count(schema['maxLength']),
      format: format as 'email' | 'uri' | 'date' | 'date-time' | undefined,
      default: typeof schema['default'] === 'string' ? wellFormed(schema['default']) : undefined,
    }),
  };
}

/** @internal The keywords an argument entry declares, as a schema (the `inputSchema` property of the same name wins). */
export function argumentSchema(
  declared: PromptArgumentDefinition | undefined,
  property: unknown,
): Readonly<Record<string, unknown>> {
  const merged: Record<string, unknown> = {};
  if (declared !== undefined) {
    for (const [key, value] of Object.entries(declared)) {
      if (key !== 'name' && key !== 'required' && key !== 'complete' && value !== undefined) merged[key] = value;
    }
  }
  if (isRecord(property)) Object.assign(merged, property);
  return merged;
}

/** A form for a request, with what it asks and what it had to leave out. */
export interface ElicitationForm {
  schema: FormSchema;
  /** The argument names the form asks for, in form order. */
  asked: string[];
  /** Arguments left out of the form, and why. */
  omitted: { argument: string; reason: string }[];
}

/**
 * The form asking for a prompt's arguments that a request did not give: the missing required ones (required in the
 * form) first, then the optional ones, in listing order, while the form stays within its limits. `undefined` when a
 * missing required argument cannot be asked (left out, or over the limits): then only the -32602 can answer.
 */
export function elicitationForm(
  definition: PromptDefinition,
  listed: readonly PromptArgument[],
  given: (name: string) => boolean,
  missing: readonly string[],
  limits: FormLimits = DEFAULT_FORM_LIMITS,
): ElicitationForm | undefined {
  const properties = schemaProperties(definition);
  const declared = definition.arguments ?? [];
  const missingSet = new Set(missing);
  const order = [
    ...listed.filter((a) => missingSet.has(a.name)),
    ...listed.filter((a) => !missingSet.has(a.name) && !given(a.name)),
  ];
  const form: FormSchema = { type: 'object', properties: Object.create(null) as Record<string, FormField> };
  const asked: string[] = [];
  const omitted: { argument: string; reason: string }[] = [];
  // The fixed part of the form's JSON: `{"type":"object","properties":{},"required":[]}`.
  let bytes = 48;
  for (const arg of order) {
    const required = missingSet.has(arg.name);
    const leaveOut = (reason: string): boolean => {
      omitted.push({ argument: arg.name, reason });
      return required;
    };
    if (asked.length >= limits.maxFields) {
      if (leaveOut(`the form holds at most ${limits.maxFields} fields`)) return undefined;
      continue;
    }
    const conversion = formField(
      argumentSchema(
        declared.find((d) => d.name === arg.name),
        Object.hasOwn(properties, arg.name) ? properties[arg.name] : undefined,
      ),
      limits,
    );
    if ('omitted' in conversion) {
      if (leaveOut(conversion.omitted)) return undefined;
      continue;
    }
    const field: FormField = conversion.field;
    const title = text(arg.title, MAX_TITLE);
    const description = text(arg.description, MAX_DESCRIPTION);
    const described = defined({ ...field, title, description }) as FormField;
    const size = utf8ByteLength(JSON.stringify(arg.name)) + utf8ByteLength(JSON.stringify(described)) + 2;
    const requiredSize = required ? utf8ByteLength(JSON.stringify(arg.name)) + 1 : 0;
    if (bytes + size + requiredSize > limits.maxBytes) {
      if (leaveOut(`the form holds at most ${limits.maxBytes} bytes`)) return undefined;
      continue;
    }
    bytes += size + requiredSize;
    form.properties[arg.name] = described;
    asked.push(arg.name);
    if (required) (form.required ??= []).push(arg.name);
  }
  if (asked.length === 0 || missing.some((name) => !asked.includes(name))) return undefined;
  // A plain object on the wire (the null prototype only kept `__proto__`-like names as data while building).
  form.properties = Object.fromEntries(Object.entries(form.properties));
  return { schema: form, asked, omitted };
}
