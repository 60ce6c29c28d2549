/**
 * The published JSON Schema (draft-07) of a prompt definition FILE: the data form of a definition (no `render` or
 * `complete` functions). Shipped as `schema/prompt-definition.schema.json`; point a file's `"$schema"` at it for
 * editor autocompletion.
 *
 * The schema and {@link parsePromptDefinition} agree on every rule JSON Schema can express. Three rules only the
 * parser checks: argument names are unique, `pattern` compiles as a JavaScript RegExp with the `u` flag, and a
 * `default` is one of the `enum` values.
 *
 * @module
 */
import { DEFAULT_MAX_CASES } from '../cases/parse.js';
import { ERROR_TABLE } from '../errors.js';
import type { JsonSchema } from '../types.js';
import { ARGUMENT_NAME_PATTERN, MAX_NAME_LENGTH, PROMPT_NAME_PATTERN, RESERVED_ARGUMENT_NAMES } from './names.js';

/** The `$id` of {@link promptDefinitionSchema}. */
export const PROMPT_DEFINITION_SCHEMA_ID = 'https://unpkg.com/mcp-prompt-kit/schema/prompt-definition.schema.json';

type Schema = { [keyword: string]: unknown };

const meta: Schema = { type: 'object', description: 'Arbitrary metadata (`_meta`), passed through to clients.' };
const nonEmptyString: Schema = { type: 'string', minLength: 1 };

const ARGUMENT_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;

/** With a declared `type`, `enum` values and `default` must be of that type. */
const typedValues: Schema[] = ARGUMENT_TYPES.map((type) => ({
  if: { type: 'object', required: ['type'], properties: { type: { const: type } } },
  then: {
    type: 'object',
    properties: {
      enum: { type: 'array', items: { type } },
      default: { type },
    },
  },
}));

/** With neither `type` nor `enum`, an argument is a string, so its `default` must be a string. */
const untypedDefault: Schema = {
  if: { type: 'object', not: { anyOf: [{ required: ['type'] }, { required: ['enum'] }] } },
  then: { type: 'object', properties: { default: { type: 'string' } } },
};

const contentVariants: Record<string, Schema> = {
  textContent: {
    type: 'object',
    description: 'A text block; `text` may hold mustache placeholders and `{{resource:URI}}` directives.',
    required: ['type', 'text'],
    additionalProperties: false,
    properties: {
      type: { const: 'text' },
      text: { type: 'string' },
      _meta: { $ref: '#/definitions/meta' },
    },
  },
  mediaContent: {
    type: 'object',
    description: 'An image or audio block: inline base64 `data`, or a `path` loaded at render time (exactly one).',
    required: ['type', 'mimeType'],
    additionalProperties: false,
    properties: {
      type: { enum: ['image', 'audio'] },
      data: { ...nonEmptyString, description: 'Base64-encoded bytes.' },
      path: { ...nonEmptyString, description: 'A file to load at render time (resolved by the loader).' },
      mimeType: { ...nonEmptyString, description: 'For example image/png or audio/wav.' },
      _meta: { $ref: '#/definitions/meta' },
    },
    oneOf: [{ required: ['data'] }, { required: ['path'] }],
  },
  resourceContent: {
    type: 'object',
    description: 'A resource embedded at render time; `uri` may hold mustache placeholders.',
    required: ['type', 'uri'],
    additionalProperties: false,
    properties: {
      type: { const: 'resource' },
      uri: nonEmptyString,
      mimeType: nonEmptyString,
      _meta: { $ref: '#/definitions/meta' },
    },
  },
  resourceLinkContent: {
    type: 'object',
    description: 'A link to a resource; the client fetches it if it wants it.',
    required: ['type', 'uri', 'name'],
    additionalProperties: false,
    properties: {
      type: { const: 'resource_link' },
      uri: nonEmptyString,
      name: nonEmptyString,
      title: { type: 'string' },
      mimeType: nonEmptyString,
      description: { type: 'string' },
      _meta: { $ref: '#/definitions/meta' },
    },
  },
};

const contentBlock: Schema = {
  type: 'object',
  description: 'ONE content block (not an array).',
  required: ['type'],
  properties: { type: { enum: ['text', 'image', 'audio', 'resource', 'resource_link'] } },
  allOf: [
    ['text', 'textContent'],
    ['image', 'mediaContent'],
    ['audio', 'mediaContent'],
    ['resource', 'resourceContent'],
    ['resource_link', 'resourceLinkContent'],
  ].map(([type, ref]) => ({
    if: { type: 'object', required: ['type'], properties: { type: { const: type } } },
    then: { $ref: `#/definitions/${ref}` },
  })),
};

const caseText: Schema = {
  anyOf: [
    { type: 'string' },
    {
      type: 'object',
      required: ['text'],
      additionalProperties: false,
      properties: { text: { type: 'string' }, message: { type: 'integer', minimum: 0 } },
    },
  ],
};
const caseTexts: Schema = { anyOf: [caseText, { type: 'array', items: caseText }] };
const caseTextsRef: Schema = { $ref: '#/definitions/caseTexts' };
const errorCodeRef: Schema = { $ref: '#/definitions/errorCode' };
const errorCode: Schema = {
  anyOf: [
    { enum: [...new Set(Object.values(ERROR_TABLE).map((e) => e.rpcCode))].sort() },
    { enum: Object.keys(ERROR_TABLE) },
  ],
};

/** One example case (the parser also checks: unique names, arguments the prompt declares). */
const exampleCase: Schema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '\\S' },
    arguments: { type: 'object' },
    messages: {
      type: 'array',
      description: 'The exact rendered messages (a snapshot; `test --update` writes it).',
      items: {
        type: 'object',
        required: ['role', 'content'],
        additionalProperties: false,
        properties: {
          role: { enum: ['user', 'assistant'] },
          content: {
            anyOf: [
              { type: 'string' },
              { type: 'object', required: ['type'], properties: { type: { type: 'string' } } },
            ],
          },
        },
      },
    },
    contains: caseTextsRef,
    notContains: caseTextsRef,
    error: {
      anyOf: [
        errorCodeRef,
        {
          type: 'object',
          required: ['code'],
          additionalProperties: false,
          properties: {
            code: errorCodeRef,
            message: { type: 'string' },
            missing_arguments: { type: 'array', items: { type: 'string' } },
          },
        },
      ],
    },
  },
  not: {
    required: ['error'],
    anyOf: [{ required: ['messages'] }, { required: ['contains'] }, { required: ['notContains'] }],
  },
};

/** The published JSON Schema of a prompt definition file (draft-07). Deeply frozen. */
export const promptDefinitionSchema: JsonSchema = deepFreeze({
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: PROMPT_DEFINITION_SCHEMA_ID,
  title: 'MCP prompt definition',
  description: 'A prompt served by mcp-prompt-kit: metadata, declared arguments and message templates.',
  type: 'object',
  required: ['name', 'messages'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string', description: 'The JSON Schema of this file (for editors).' },
    name: {
      type: 'string',
      description:
        "Unique name: ASCII letters, digits, '-', '_' and '.', starting with a letter, digit or '_'; no '..'; at most 128 characters.",
      minLength: 1,
      maxLength: MAX_NAME_LENGTH,
      pattern: PROMPT_NAME_PATTERN,
    },
    title: { type: 'string', description: 'Human-readable name for display.' },
    description: { type: 'string' },
    icons: { type: 'array', items: { $ref: '#/definitions/icon' } },
    _meta: { $ref: '#/definitions/meta' },
    tags: { type: 'array', items: { type: 'string' }, description: 'Free-form labels (not sent on the wire).' },
    arguments: { type: 'array', items: { $ref: '#/definitions/argument' } },
    inputSchema: {
      type: 'object',
      description: 'A full JSON Schema for the arguments object; wins over per-argument keywords.',
    },
    messages: { type: 'array', minItems: 1, items: { $ref: '#/definitions/message' } },
    cases: {
      type: 'array',
      description: 'Example cases run by `mcp-prompt-kit test` (never served).',
      maxItems: DEFAULT_MAX_CASES,
      items: { $ref: '#/definitions/case' },
    },
  },
  definitions: {
    meta,
    case: exampleCase,
    caseTexts,
    errorCode,
    icon: {
      type: 'object',
      required: ['src'],
      additionalProperties: false,
      properties: {
        src: nonEmptyString,
        mimeType: { type: 'string' },
        sizes: { type: 'array', items: { type: 'string' } },
        theme: { enum: ['light', 'dark'] },
      },
    },
    argumentName: {
      type: 'string',
      description:
        'No whitespace, control or invisible characters (bidi controls, zero-width characters, fillers); at most 128 characters.',
      minLength: 1,
      maxLength: MAX_NAME_LENGTH,
      pattern: ARGUMENT_NAME_PATTERN,
      not: { enum: [...RESERVED_ARGUMENT_NAMES] },
    },
    argument: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        name: { $ref: '#/definitions/argumentName' },
        title: { type: 'string' },
        description: { type: 'string' },
        required: { type: 'boolean', description: 'Omitted means optional.' },
        type: { enum: [...ARGUMENT_TYPES], description: 'Values arriving as strings are coerced to this type.' },
        enum: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
        },
        pattern: { type: 'string', description: 'A JavaScript regular expression (compiled with the u flag).' },
        format: { type: 'string', description: 'A format known to ajv-formats, e.g. email, uri, date.' },
        minLength: { type: 'integer', minimum: 0 },
        maxLength: { type: 'integer', minimum: 0 },
        minimum: { type: 'number' },
        maximum: { type: 'number' },
        default: { description: 'Used when the argument is omitted; must match the type (and enum).' },
        items: { type: 'object', description: 'JSON Schema of the items of an array argument.' },
      },
      allOf: [...typedValues, untypedDefault],
    },
    message: {
      type: 'object',
      required: ['role', 'content'],
      additionalProperties: false,
      properties: {
        role: { enum: ['user', 'assistant'], description: "MCP has no 'system' role." },
        content: {
          anyOf: [
            { type: 'string', description: 'Shorthand for a text block.' },
            { $ref: '#/definitions/contentBlock' },
          ],
        },
      },
    },
    contentBlock,
    ...contentVariants,
  },
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
