/** The preview form of a prompt: one field per listed argument, typed from its schema. */
import { argumentSchema, formField } from '../../definition/elicitation-form.js';
import { schemaProperties } from '../../definition/listing.js';
import type { PromptDefinition } from '../../definition/types.js';
import type { PromptArgument } from '../../types.js';

/** How the page asks for one argument. */
export type FieldControl = 'select' | 'boolean' | 'number' | 'integer' | 'text' | 'json';

/** One field of the form (everything the page shows about an argument). */
export interface PreviewField {
  name: string;
  title?: string;
  description?: string;
  required: boolean;
  control: FieldControl;
  /** The choices of a select (as the wire's text). */
  options?: string[];
  /** The default, as the text the field starts with. */
  default?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  /** The argument has a completer: the page asks for suggestions as the user types. */
  completes: boolean;
}

/** Options a select may hold before the field falls back to text with suggestions. */
const MAX_OPTIONS = 500;

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A default as the text a field holds (JSON for what is not a string). */
function defaultText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The fields of a prompt, in listing order. */
export function previewFields(definition: PromptDefinition, listed: readonly PromptArgument[]): PreviewField[] {
  const properties = schemaProperties(definition);
  const declared = definition.arguments ?? [];
  return listed.map((arg) => {
    const entry = declared.find((d) => d.name === arg.name);
    const schema = argumentSchema(entry, Object.hasOwn(properties, arg.name) ? properties[arg.name] : undefined);
    const field: PreviewField = {
      name: arg.name,
      required: arg.required === true,
      control: 'text',
      completes: typeof entry?.complete === 'function',
    };
    if (arg.title !== undefined) field.title = arg.title;
    if (arg.description !== undefined) field.description = arg.description;
    const converted = formField(schema, { maxFields: 1, maxBytes: Number.MAX_SAFE_INTEGER, maxOptions: MAX_OPTIONS });
    const given = defaultText(schema['default']);
    if (given !== undefined) field.default = given;
    if ('field' in converted) {
      const f = converted.field;
      if ('enum' in f && f.type === 'string') {
        field.control = 'select';
        field.options = f.enum;
      } else if ('oneOf' in f) {
        field.control = 'select';
        field.options = f.oneOf.map((o) => o.const);
      } else if (f.type === 'boolean') field.control = 'boolean';
      else if (f.type === 'number' || f.type === 'integer') field.control = f.type;
      else if (f.type === 'array') field.control = 'json';
    } else if (schema['type'] !== undefined && schema['type'] !== 'string') {
      field.control = 'json';
    }
    const bounds = {
      minimum: finite(schema['minimum']),
      maximum: finite(schema['maximum']),
      minLength: finite(schema['minLength']),
      maxLength: finite(schema['maxLength']),
    };
    for (const [key, value] of Object.entries(bounds))
      if (value !== undefined) field[key as keyof typeof bounds] = value;
    if (typeof schema['pattern'] === 'string') field.pattern = schema['pattern'];
    if (typeof schema['format'] === 'string') field.format = schema['format'];
    return field;
  });
}
