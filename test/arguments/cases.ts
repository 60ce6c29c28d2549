/**
 * The shared table of argument-validation behaviours (required, optional, mixed, types, coercion, limits, schemas).
 * Each row: declarations (`arguments` and/or `inputSchema`), `options`, what the client sent, and the exact
 * outcome: the validated arguments, or the -32602 error object (`code`, `message`, `data`).
 *
 * Adapters can run the same rows end to end: `wire: true` marks rows whose `provided` is what the MCP wire can
 * carry (an object of strings, or nothing), so they can be sent through prompts/get unchanged.
 */
import type { ArgumentValidationFailure, ArgumentValidationOptions } from '../../src/arguments/index.js';
import type { PromptArgumentDefinition } from '../../src/definition/types.js';
import type { JsonSchema } from '../../src/types.js';

export interface ArgumentCase {
  /** Reads as a behaviour: "reports a missing required argument". */
  title: string;
  /** The kind of behaviour the row pins (basic, types, length, extra, ...), for grouping. */
  group: string;
  arguments?: readonly PromptArgumentDefinition[];
  inputSchema?: JsonSchema;
  options?: ArgumentValidationOptions;
  provided: unknown;
  /** True when `provided` is an object of strings (or undefined): MCP prompts/get can send it as is. */
  wire: boolean;
  expected: { ok: true; arguments: Record<string, unknown> } | { ok: false; error: ArgumentValidationFailure };
}

const missing = (names: string[], provided: number, required: number): ArgumentCase['expected'] => ({
  ok: false,
  error: {
    code: -32602,
    message: 'Missing required prompt arguments',
    data: { missing_arguments: names, provided_count: provided, required_count: required },
  },
});

const invalid = (
  details: { argument: string; keyword: string; message: string }[],
  provided: number,
  required: number,
): ArgumentCase['expected'] => ({
  ok: false,
  error: {
    code: -32602,
    message: 'Prompt arguments do not conform to schema',
    data: { error_type: 'schema_validation_failed', details, provided_count: provided, required_count: required },
  },
});

const tooLong = (argument: string, limit: number, provided: number, required: number): ArgumentCase['expected'] => ({
  ok: false,
  error: {
    code: -32602,
    message: `Argument '${argument}' exceeds ${limit} characters`,
    data: { error_type: 'argument_too_long', argument, limit, provided_count: provided, required_count: required },
  },
});

const ok = (args: Record<string, unknown>): ArgumentCase['expected'] => ({ ok: true, arguments: args });

const OVERFLOW = 'is beyond the range of a double (about ±1.8e308)';
const UNDERFLOW = 'is too small for a double: it would become 0';
const CHANGED = 'would become a different integer (a double holds whole numbers exactly only up to ±9007199254740991)';

const mixed: PromptArgumentDefinition[] = [
  { name: 'code', required: true },
  { name: 'language', required: true },
  { name: 'focus' },
  { name: 'style', required: false },
];

// 999: the ajv-path twin of each case declares one argument more, and a prompt declares at most 1,000.
const manyNames = Array.from({ length: 999 }, (_, i) => `arg_${String(i).padStart(4, '0')}`);
const manyArgs: PromptArgumentDefinition[] = manyNames.map((name) => ({ name, required: true }));
const manyValues = Object.fromEntries(manyNames.map((name) => [name, `value of ${name}`]));
const manyButOne = Object.fromEntries(manyNames.filter((n) => n !== 'arg_0500').map((n) => [n, 'v']));

const emoji6000 = '😀'.repeat(6000);

export const argumentCases: ArgumentCase[] = [
  // ---- basic
  {
    group: 'basic',
    title: 'accepts a prompt that declares no arguments when none are given',
    arguments: [],
    provided: undefined,
    wire: true,
    expected: ok({}),
  },
  {
    group: 'basic',
    title: 'accepts a single required argument that is provided',
    arguments: [{ name: 'topic', required: true }],
    provided: { topic: 'AI ethics' },
    wire: true,
    expected: ok({ topic: 'AI ethics' }),
  },
  {
    group: 'basic',
    title: 'reports a single required argument that is missing',
    arguments: [{ name: 'topic', required: true }],
    provided: {},
    wire: true,
    expected: missing(['topic'], 0, 1),
  },
  {
    group: 'basic',
    title: 'reports every missing required argument in declaration order',
    arguments: [
      { name: 'name', required: true },
      { name: 'email', required: true },
      { name: 'age', required: true },
    ],
    provided: { age: '4' },
    wire: true,
    expected: missing(['name', 'email'], 1, 3),
  },
  // ---- optional
  {
    group: 'optional',
    title: 'accepts an optional argument that is not provided (and leaves it out)',
    arguments: [{ name: 'style', required: false }],
    provided: {},
    wire: true,
    expected: ok({}),
  },
  {
    group: 'optional',
    title: 'passes an optional argument that is provided',
    arguments: [{ name: 'style', required: false }],
    provided: { style: 'formal' },
    wire: true,
    expected: ok({ style: 'formal' }),
  },
  // ---- mixed
  {
    group: 'mixed',
    title: 'accepts all required and optional arguments together',
    arguments: mixed,
    provided: { code: 'x = 1', language: 'python', focus: 'security', style: 'terse' },
    wire: true,
    expected: ok({ code: 'x = 1', language: 'python', focus: 'security', style: 'terse' }),
  },
  {
    group: 'mixed',
    title: 'accepts only the required arguments of a mixed declaration',
    arguments: mixed,
    provided: { code: 'x = 1', language: 'python' },
    wire: true,
    expected: ok({ code: 'x = 1', language: 'python' }),
  },
  {
    group: 'mixed',
    title: 'reports the missing required argument of a mixed declaration, counting the optional one given',
    arguments: mixed,
    provided: { code: 'x = 1', focus: 'security' },
    wire: true,
    expected: missing(['language'], 2, 2),
  },
  // ---- extra
  {
    group: 'extra',
    title: 'accepts extra undeclared arguments by default and counts them as provided',
    arguments: [{ name: 'topic', required: true }],
    provided: { topic: 't', unexpected: 'u' },
    wire: true,
    expected: ok({ topic: 't', unexpected: 'u' }),
  },
  {
    group: 'extra',
    title: "rejects extra arguments in 'reject' mode, naming the extra key",
    arguments: [{ name: 'topic', required: true }],
    options: { extraArguments: 'reject' },
    provided: { topic: 't', unexpected: 'u' },
    wire: true,
    expected: invalid(
      [{ argument: 'unexpected', keyword: 'additionalProperties', message: 'is not a declared argument' }],
      2,
      1,
    ),
  },
  {
    group: 'extra',
    title: "rejects extra arguments in 'reject' mode on the ajv path too",
    arguments: [{ name: 'n', type: 'integer' }],
    options: { extraArguments: 'reject' },
    provided: { n: '2', other: 'u' },
    wire: true,
    expected: invalid(
      [{ argument: 'other', keyword: 'additionalProperties', message: 'is not a declared argument' }],
      2,
      0,
    ),
  },
  {
    group: 'extra',
    title: 'reports missing arguments before rejected extras',
    arguments: [{ name: 'topic', required: true }],
    options: { extraArguments: 'reject' },
    provided: { unexpected: 'u' },
    wire: true,
    expected: missing(['topic'], 1, 1),
  },
  {
    group: 'extra',
    title: "applies 'reject' mode to an inputSchema that says nothing about extra properties",
    inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
    options: { extraArguments: 'reject' },
    provided: { a: 'x', other: 'u' },
    wire: true,
    expected: invalid(
      [{ argument: 'other', keyword: 'additionalProperties', message: 'is not a declared argument' }],
      2,
      0,
    ),
  },
  {
    group: 'extra',
    title: "lets an inputSchema's explicit additionalProperties: true win over 'reject' mode",
    inputSchema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
    options: { extraArguments: 'reject' },
    provided: { a: 'x', other: 'u' },
    wire: true,
    expected: ok({ a: 'x', other: 'u' }),
  },
  {
    group: 'extra',
    title: "lets an inputSchema's additionalProperties schema decide about extras in 'reject' mode",
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: { type: 'string', minLength: 2 },
    },
    options: { extraArguments: 'reject' },
    provided: { a: 'x', fine: 'uu', short: 'u' },
    wire: true,
    expected: invalid(
      [{ argument: 'short', keyword: 'minLength', message: 'must NOT have fewer than 2 characters' }],
      3,
      0,
    ),
  },
  // ---- edge cases
  {
    group: 'edge',
    title: 'treats an argument whose required flag is undefined as optional',
    arguments: [{ name: 'maybe' }],
    provided: {},
    wire: true,
    expected: ok({}),
  },
  {
    group: 'edge',
    title: 'counts an empty string as provided',
    arguments: [{ name: 'topic', required: true }],
    provided: { topic: '' },
    wire: true,
    expected: ok({ topic: '' }),
  },
  {
    group: 'edge',
    title: 'counts a null value as omitted: missing when required, never coerced to an empty string',
    arguments: [{ name: 'topic', required: true, type: 'string' }],
    provided: { topic: null },
    wire: false,
    expected: missing(['topic'], 0, 1),
  },
  {
    group: 'edge',
    title: 'removes a null optional argument from the output',
    arguments: [{ name: 'style' }],
    provided: { style: null },
    wire: false,
    expected: ok({}),
  },
  {
    group: 'edge',
    title: 'replaces a null optional argument by its default',
    arguments: [{ name: 'style', default: 'plain' }],
    provided: { style: null },
    wire: false,
    expected: ok({ style: 'plain' }),
  },
  {
    group: 'edge',
    title: 'treats null arguments as an empty object',
    arguments: [{ name: 'style' }],
    provided: null,
    wire: false,
    expected: ok({}),
  },
  // ---- types
  {
    group: 'types',
    title: 'accepts numbers and booleans for arguments that declare no type, as their string form',
    arguments: [{ name: 's' }, { name: 'n' }, { name: 'x' }, { name: 'b' }],
    provided: { s: 'text', n: 42, x: -1.5, b: true },
    wire: false,
    expected: ok({ s: 'text', n: '42', x: '-1.5', b: 'true' }),
  },
  {
    group: 'types',
    title: 'rejects arrays and objects for arguments that declare no type (they are strings)',
    arguments: [{ name: 's' }, { name: 'a' }, { name: 'o' }],
    provided: { s: 'text', a: [1, 'two'], o: { k: 'v' } },
    wire: false,
    expected: invalid(
      [
        { argument: 'a', keyword: 'type', message: 'must be string' },
        { argument: 'o', keyword: 'type', message: 'must be string' },
      ],
      3,
      0,
    ),
  },
  {
    group: 'types',
    title: 'leaves an untyped inputSchema property as its schema says: any value is kept as given',
    inputSchema: { type: 'object', properties: { v: {}, w: { description: 'anything' } } },
    provided: { v: { k: [1] }, w: 5 },
    wire: false,
    expected: ok({ v: { k: [1] }, w: 5 }),
  },
  {
    group: 'types',
    title: 'coerces wire strings to the declared number, integer, boolean, array and object types',
    arguments: [
      { name: 'n', type: 'number' },
      { name: 'i', type: 'integer' },
      { name: 'b', type: 'boolean' },
      { name: 'a', type: 'array' },
      { name: 'o', type: 'object' },
    ],
    provided: { n: ' 2.5 ', i: '-7', b: 'TRUE', a: '["x", 1]', o: '{"k": [true]}' },
    wire: true,
    expected: ok({ n: 2.5, i: -7, b: true, a: ['x', 1], o: { k: [true] } }),
  },
  {
    group: 'types',
    title: 'turns a number or boolean given for a string argument into its string form',
    arguments: [
      { name: 'count', type: 'string' },
      { name: 'flag', type: 'string' },
    ],
    provided: { count: 3, flag: false },
    wire: false,
    expected: ok({ count: '3', flag: 'false' }),
  },
  {
    group: 'types',
    title: 'reports non-numeric text for a number argument as a type error (left uncoerced)',
    arguments: [{ name: 'n', type: 'number', required: true }],
    provided: { n: 'abc' },
    wire: true,
    expected: invalid([{ argument: 'n', keyword: 'type', message: 'must be number' }], 1, 1),
  },
  {
    group: 'types',
    title: 'reports a fractional value for an integer argument',
    arguments: [{ name: 'i', type: 'integer' }],
    provided: { i: '1.5' },
    wire: true,
    expected: invalid([{ argument: 'i', keyword: 'type', message: 'must be integer' }], 1, 0),
  },
  {
    group: 'types',
    title: "does not coerce 'yes' to a boolean",
    arguments: [{ name: 'b', type: 'boolean' }],
    provided: { b: 'yes' },
    wire: true,
    expected: invalid([{ argument: 'b', keyword: 'type', message: 'must be boolean' }], 1, 0),
  },
  {
    group: 'types',
    title: 'does not turn JSON text of an object into an array argument',
    arguments: [{ name: 'a', type: 'array' }],
    provided: { a: '{"k":1}' },
    wire: true,
    expected: invalid([{ argument: 'a', keyword: 'type', message: 'must be array' }], 1, 0),
  },
  {
    group: 'types',
    title: 'reports an object given for a string argument as a type error',
    arguments: [{ name: 's', type: 'string' }],
    provided: { s: { nested: true } },
    wire: false,
    expected: invalid([{ argument: 's', keyword: 'type', message: 'must be string' }], 1, 0),
  },
  {
    group: 'types',
    title: 'leaves hexadecimal, Infinity and blank text uncoerced for a number argument',
    arguments: [
      { name: 'hex', type: 'number' },
      { name: 'inf', type: 'number' },
      { name: 'blank', type: 'number' },
    ],
    provided: { hex: '0x10', inf: 'Infinity', blank: '  ' },
    wire: true,
    expected: invalid(
      [
        { argument: 'hex', keyword: 'type', message: 'must be number' },
        { argument: 'inf', keyword: 'type', message: 'must be number' },
        { argument: 'blank', keyword: 'type', message: 'must be number' },
      ],
      3,
      0,
    ),
  },
  {
    group: 'types',
    title: 'accepts exponent and signed numeric text',
    arguments: [
      { name: 'a', type: 'number' },
      { name: 'b', type: 'integer' },
    ],
    provided: { a: '-1.5e3', b: '+12' },
    wire: true,
    expected: ok({ a: -1500, b: 12 }),
  },
  {
    group: 'types',
    title: 'leaves malformed JSON text uncoerced for an array argument',
    arguments: [{ name: 'a', type: 'array' }],
    provided: { a: '[1,' },
    wire: true,
    expected: invalid([{ argument: 'a', keyword: 'type', message: 'must be array' }], 1, 0),
  },
  {
    group: 'types',
    title: 'coerces by the inputSchema property type, trying each type of a type array',
    inputSchema: {
      type: 'object',
      properties: { flag: { type: ['integer', 'boolean'] }, n: { type: ['null', 'integer'] }, s: { type: 'string' } },
    },
    provided: { flag: 'False', n: '7', s: 7 },
    wire: false,
    expected: ok({ flag: false, n: 7, s: '7' }),
  },
  {
    group: 'types',
    title: 'keeps typed JSON values that already match the declared type',
    arguments: [
      { name: 'n', type: 'number' },
      { name: 'b', type: 'boolean' },
      { name: 'a', type: 'array' },
    ],
    provided: { n: 1.25, b: false, a: ['x'] },
    wire: false,
    expected: ok({ n: 1.25, b: false, a: ['x'] }),
  },
  {
    group: 'types',
    title: 'keeps a number given for an argument typed string-or-number',
    inputSchema: { type: 'object', properties: { v: { type: ['string', 'number'] } } },
    provided: { v: 5 },
    wire: false,
    expected: ok({ v: 5 }),
  },
  {
    group: 'types',
    title: 'refuses numeric text beyond the range of a double, naming the argument (1e400 is not Infinity)',
    arguments: [
      { name: 'i', type: 'integer' },
      { name: 'n', type: 'number' },
    ],
    provided: { i: '1e400', n: '-1e400' },
    wire: true,
    expected: invalid(
      [
        { argument: 'i', keyword: 'exactNumber', message: OVERFLOW },
        { argument: 'n', keyword: 'exactNumber', message: OVERFLOW },
      ],
      2,
      0,
    ),
  },
  {
    group: 'types',
    title: 'refuses whole-number text a double would change, however it is spelled, and keeps the exact ones',
    arguments: [
      { name: 'i', type: 'integer' },
      { name: 'fraction', type: 'integer' },
      { name: 'exponent', type: 'integer' },
      { name: 'e0', type: 'number' },
      { name: 'n', type: 'number' },
      { name: 'big', type: 'number' },
      { name: 'edge', type: 'integer' },
    ],
    provided: {
      i: '9007199254740993',
      fraction: '9007199254740993.0',
      exponent: '9.007199254740993e15',
      e0: '9007199254740993e0',
      n: '-9007199254740993',
      big: '100000000000000000000',
      edge: '9007199254740992',
    },
    wire: true,
    expected: invalid(
      [
        { argument: 'i', keyword: 'exactNumber', message: CHANGED },
        { argument: 'fraction', keyword: 'exactNumber', message: CHANGED },
        { argument: 'exponent', keyword: 'exactNumber', message: CHANGED },
        { argument: 'e0', keyword: 'exactNumber', message: CHANGED },
        { argument: 'n', keyword: 'exactNumber', message: CHANGED },
      ],
      7,
      0,
    ),
  },
  {
    group: 'types',
    title: 'refuses a fraction a double turns into an integer (1e-400 into 0, 1.0000000000000001 into 1), not 0.1',
    arguments: [
      { name: 'tiny', type: 'integer' },
      { name: 'small', type: 'number' },
      { name: 'almost', type: 'integer' },
      { name: 'tenth', type: 'number' },
      { name: 'subnormal', type: 'number' },
    ],
    provided: { tiny: '1e-400', small: '-1e-400', almost: '1.0000000000000001', tenth: '0.1', subnormal: '1e-320' },
    wire: true,
    expected: invalid(
      [
        { argument: 'tiny', keyword: 'exactNumber', message: UNDERFLOW },
        { argument: 'small', keyword: 'exactNumber', message: UNDERFLOW },
        { argument: 'almost', keyword: 'exactNumber', message: CHANGED },
      ],
      5,
      0,
    ),
  },
  {
    group: 'types',
    title: 'refuses numbers a double would change inside array and object text, naming the argument and the path',
    inputSchema: {
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'integer' } },
        record: { type: 'object' },
        fine: { type: 'array' },
      },
    },
    provided: {
      list: '[1, 9007199254740993]',
      record: '{"v": {"w~/": [0, 1e-400]}, "s": "9007199254740993"}',
      fine: '[0.1, 1e21, "1e400"]',
    },
    wire: true,
    expected: invalid(
      [
        { argument: 'list', keyword: 'exactNumber', message: `/1: ${CHANGED}` },
        { argument: 'record', keyword: 'exactNumber', message: `/v/w~0~1/1: ${UNDERFLOW}` },
      ],
      3,
      0,
    ),
  },
  {
    group: 'types',
    title: 'refuses text a double would change for an enum of numbers instead of matching the changed number',
    arguments: [
      { name: 'n', enum: [1, 9007199254740992] },
      { name: 'mixed', enum: ['auto', 0, 9007199254740992] },
    ],
    provided: { n: '9.007199254740993e15', mixed: '9007199254740993' },
    wire: true,
    expected: invalid(
      [
        { argument: 'n', keyword: 'exactNumber', message: CHANGED },
        { argument: 'mixed', keyword: 'exactNumber', message: CHANGED },
      ],
      2,
      0,
    ),
  },
  {
    group: 'types',
    title: 'accepts exact decimal multiples of a decimal multipleOf (0.07 of 0.01, 0.3 of 0.1)',
    inputSchema: {
      type: 'object',
      properties: {
        price: { type: 'number', multipleOf: 0.01 },
        total: { type: 'number', multipleOf: 0.01 },
        step: { type: 'number', multipleOf: 0.1 },
      },
    },
    provided: { price: '0.07', total: '19.99', step: '0.3' },
    wire: true,
    expected: ok({ price: 0.07, total: 19.99, step: 0.3 }),
  },
  {
    group: 'types',
    title: 'accepts exact decimal multiples of tiny steps (1.1 of 1e-7, 19.99 of 1e-10, 1e21 of 0.1)',
    inputSchema: {
      type: 'object',
      properties: {
        a: { type: 'number', multipleOf: 1e-7 },
        b: { type: 'number', multipleOf: 1e-10 },
        c: { type: 'number', multipleOf: 0.1 },
      },
    },
    provided: { a: '1.1', b: '19.99', c: '1e21' },
    wire: true,
    expected: ok({ a: 1.1, b: 19.99, c: 1e21 }),
  },
  {
    group: 'types',
    title: 'rejects a number that is not an exact decimal multiple, however close (1.0000000001 of 1, 1e-9 of 100)',
    inputSchema: {
      type: 'object',
      properties: {
        one: { type: 'number', multipleOf: 1 },
        thousand: { type: 'number', multipleOf: 1000 },
        hundred: { type: 'number', multipleOf: 100 },
        cent: { type: 'number', multipleOf: 0.01 },
        three: { type: 'number', multipleOf: 3 },
      },
    },
    provided: { one: '1.0000000001', thousand: '0.000001', hundred: '1e-9', cent: '0.07000000001', three: '1e21' },
    wire: true,
    expected: invalid(
      [
        { argument: 'one', keyword: 'multipleOf', message: 'must be multiple of 1' },
        { argument: 'thousand', keyword: 'multipleOf', message: 'must be multiple of 1000' },
        { argument: 'hundred', keyword: 'multipleOf', message: 'must be multiple of 100' },
        { argument: 'cent', keyword: 'multipleOf', message: 'must be multiple of 0.01' },
        { argument: 'three', keyword: 'multipleOf', message: 'must be multiple of 3' },
      ],
      5,
      0,
    ),
  },
  {
    group: 'types',
    title: 'judges multipleOf on numbers at any depth, and on defaults, exactly in decimal',
    inputSchema: {
      type: 'object',
      properties: {
        prices: { type: 'array', items: { type: 'number', multipleOf: 0.01 } },
        step: { type: 'number', multipleOf: 0.1, default: 0.3 },
      },
    },
    provided: { prices: '[0.07, 19.99, 0.015]' },
    wire: true,
    expected: invalid([{ argument: 'prices', keyword: 'multipleOf', message: '/2: must be multiple of 0.01' }], 1, 0),
  },
  // ---- coercion inferred when there is no literal type
  {
    group: 'inferred',
    title: 'coerces wire text to the number an enum of integers allows',
    arguments: [{ name: 'n', enum: [1, 2, 10] }],
    provided: { n: '10' },
    wire: true,
    expected: ok({ n: 10 }),
  },
  {
    group: 'inferred',
    title: 'reports a number outside an enum of integers with the allowed values',
    arguments: [{ name: 'n', enum: [1, 2, 10] }],
    provided: { n: '3' },
    wire: true,
    expected: invalid([{ argument: 'n', keyword: 'enum', message: 'must be one of: 1, 2, 10' }], 1, 0),
  },
  {
    group: 'inferred',
    title: 'coerces wire text by the values of enums and consts of numbers and booleans in an inputSchema',
    inputSchema: {
      type: 'object',
      properties: { ratio: { enum: [0.5, 1.5] }, flag: { const: true }, off: { enum: [false] } },
    },
    provided: { ratio: '1.5', flag: 'TRUE', off: 'false' },
    wire: true,
    expected: ok({ ratio: 1.5, flag: true, off: false }),
  },
  {
    group: 'inferred',
    title: 'turns a number given for an enum of strings into its string form',
    arguments: [{ name: 'level', enum: ['1', '2'] }],
    provided: { level: 2 },
    wire: false,
    expected: ok({ level: '2' }),
  },
  {
    group: 'inferred',
    title: 'coerces by the type of a local $ref to $defs or definitions',
    inputSchema: {
      type: 'object',
      $defs: { count: { type: 'integer', minimum: 0 } },
      definitions: { toggle: { type: 'boolean' } },
      properties: { n: { $ref: '#/$defs/count' }, b: { $ref: '#/definitions/toggle' } },
    },
    provided: { n: '7', b: 'false' },
    wire: true,
    expected: ok({ n: 7, b: false }),
  },
  {
    group: 'inferred',
    title: 'coerces by the values of a $ref target that has an enum and no type',
    inputSchema: {
      type: 'object',
      $defs: { size: { enum: [8, 16, 32] } },
      properties: { size: { $ref: '#/$defs/size' } },
    },
    provided: { size: '16' },
    wire: true,
    expected: ok({ size: 16 }),
  },
  // ---- coercion through allOf / anyOf / oneOf
  {
    group: 'combinators',
    title: 'coerces wire text by the types of anyOf branches and of a single allOf branch',
    inputSchema: {
      type: 'object',
      properties: {
        n: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
        b: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
        i: { allOf: [{ type: 'integer' }] },
      },
    },
    provided: { n: '5', b: 'true', i: '5' },
    wire: true,
    expected: ok({ n: 5, b: true, i: 5 }),
  },
  {
    group: 'combinators',
    title: 'keeps the literal string an anyOf const allows, else takes the integer another branch allows',
    inputSchema: {
      type: 'object',
      properties: {
        a: { anyOf: [{ const: 'auto' }, { type: 'integer', minimum: 1 }] },
        b: { anyOf: [{ const: 'auto' }, { type: 'integer', minimum: 1 }] },
      },
    },
    provided: { a: 'auto', b: '8' },
    wire: true,
    expected: ok({ a: 'auto', b: 8 }),
  },
  {
    group: 'combinators',
    title: 'reports text that no anyOf branch allows with the problem of each branch',
    inputSchema: { type: 'object', properties: { a: { anyOf: [{ const: 'auto' }, { type: 'integer', minimum: 1 }] } } },
    provided: { a: 'many' },
    wire: true,
    expected: invalid(
      [
        { argument: 'a', keyword: 'const', message: 'must be auto' },
        { argument: 'a', keyword: 'type', message: 'must be integer' },
        { argument: 'a', keyword: 'anyOf', message: 'must match a schema in anyOf' },
      ],
      1,
      0,
    ),
  },
  {
    group: 'combinators',
    title: 'keeps the text when an anyOf branch allows any string (or says nothing about types)',
    inputSchema: {
      type: 'object',
      properties: {
        s: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        any: { anyOf: [{ type: 'integer' }, {}] },
      },
    },
    provided: { s: '5', any: '5' },
    wire: true,
    expected: ok({ s: '5', any: '5' }),
  },
  {
    group: 'combinators',
    title: 'coerces through a nullable anyOf, a oneOf of number or array, and an allOf over a $ref',
    inputSchema: {
      type: 'object',
      $defs: { positive: { type: 'integer', minimum: 1 } },
      properties: {
        nullable: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
        one: { oneOf: [{ type: 'number' }, { type: 'array', items: { type: 'number' } }] },
        many: { oneOf: [{ type: 'number' }, { type: 'array', items: { type: 'number' } }] },
        ref: { allOf: [{ $ref: '#/$defs/positive' }, { description: 'a count' }] },
      },
    },
    provided: { nullable: '7', one: '2.5', many: '[1, 2]', ref: '3' },
    wire: true,
    expected: ok({ nullable: 7, one: 2.5, many: [1, 2], ref: 3 }),
  },
  {
    group: 'combinators',
    title: 'coerces to the values anyOf enum branches allow, and only to those',
    inputSchema: {
      type: 'object',
      properties: {
        hit: { anyOf: [{ enum: ['x', 'y'] }, { enum: [1, 5, true] }] },
        flag: { anyOf: [{ enum: ['x', 'y'] }, { enum: [1, 5, true] }] },
        miss: { anyOf: [{ enum: ['x', 'y'] }, { enum: [1, 5, true] }] },
      },
    },
    provided: { hit: '5', flag: 'true', miss: '2' },
    wire: true,
    expected: invalid(
      [
        { argument: 'miss', keyword: 'enum', message: 'must be one of: x, y' },
        { argument: 'miss', keyword: 'enum', message: 'must be one of: 1, 5, true' },
        { argument: 'miss', keyword: 'anyOf', message: 'must match a schema in anyOf' },
      ],
      3,
      0,
    ),
  },
  {
    group: 'combinators',
    title: 'coerces by what every allOf branch allows (integer within number)',
    inputSchema: {
      type: 'object',
      properties: { n: { allOf: [{ type: ['number', 'string'] }, { type: 'integer' }, { minimum: 0 }] } },
    },
    provided: { n: '12' },
    wire: true,
    expected: ok({ n: 12 }),
  },
  {
    group: 'inferred',
    title: 'keeps the literal string of a mixed enum, else takes the allowed number or boolean the text spells',
    inputSchema: {
      type: 'object',
      properties: {
        a: { enum: ['auto', '2', 0, 2.5, true] },
        b: { enum: ['auto', '2', 0, 2.5, true] },
        c: { enum: ['auto', '2', 0, 2.5, true] },
        d: { enum: ['auto', '2', 0, 2.5, true] },
        e: { enum: ['auto', '2', 0, 2.5, true] },
      },
    },
    provided: { a: 'auto', b: '2', c: ' 0 ', d: '2.5', e: 'True' },
    wire: true,
    expected: ok({ a: 'auto', b: '2', c: 0, d: 2.5, e: true }),
  },
  {
    group: 'inferred',
    title: 'coerces only to values a mixed enum allows (no number or boolean it does not list)',
    inputSchema: {
      type: 'object',
      properties: { a: { enum: ['auto', 0] }, b: { enum: ['auto', 0] } },
    },
    provided: { a: '1', b: 'false' },
    wire: true,
    expected: invalid(
      [
        { argument: 'a', keyword: 'enum', message: 'must be one of: auto, 0' },
        { argument: 'b', keyword: 'enum', message: 'must be one of: auto, 0' },
      ],
      2,
      0,
    ),
  },
  {
    group: 'inferred',
    title: 'turns a typed number for a mixed enum into the string the enum lists',
    inputSchema: { type: 'object', properties: { v: { enum: ['10', 'auto', false] } } },
    provided: { v: 10 },
    wire: false,
    expected: ok({ v: '10' }),
  },
  // ---- schema keywords
  {
    group: 'schema',
    title: 'reports an enum mismatch with the allowed values',
    arguments: [{ name: 'language', required: true, enum: ['typescript', 'python'] }],
    provided: { language: 'rust' },
    wire: true,
    expected: invalid([{ argument: 'language', keyword: 'enum', message: 'must be one of: typescript, python' }], 1, 1),
  },
  {
    group: 'schema',
    title: 'reports a pattern mismatch',
    arguments: [{ name: 'ticket', pattern: '^[A-Z]+-\\d+$' }],
    provided: { ticket: 'abc' },
    wire: true,
    expected: invalid(
      [{ argument: 'ticket', keyword: 'pattern', message: 'must match pattern "^[A-Z]+-\\d+$"' }],
      1,
      0,
    ),
  },
  {
    group: 'schema',
    title: 'reports a format mismatch',
    arguments: [{ name: 'email', format: 'email' }],
    provided: { email: 'not-an-email' },
    wire: true,
    expected: invalid([{ argument: 'email', keyword: 'format', message: 'must be a valid email' }], 1, 0),
  },
  {
    group: 'schema',
    title: 'reports a number out of range after coercion',
    arguments: [{ name: 'age', type: 'integer', minimum: 0, maximum: 150 }],
    provided: { age: '200' },
    wire: true,
    expected: invalid([{ argument: 'age', keyword: 'maximum', message: 'must be <= 150' }], 1, 0),
  },
  {
    group: 'schema',
    title: 'reports every schema problem at once, naming each argument',
    arguments: [
      { name: 'language', enum: ['typescript', 'python'] },
      { name: 'n', type: 'integer' },
    ],
    provided: { language: 'rust', n: 'x' },
    wire: true,
    expected: invalid(
      [
        { argument: 'language', keyword: 'enum', message: 'must be one of: typescript, python' },
        { argument: 'n', keyword: 'type', message: 'must be integer' },
      ],
      2,
      0,
    ),
  },
  {
    group: 'schema',
    title: 'prefixes the nested location of a problem inside an argument',
    arguments: [{ name: 'tags', type: 'array', items: { type: 'string' } }],
    provided: { tags: '["ok", 2]' },
    wire: true,
    expected: invalid([{ argument: 'tags', keyword: 'type', message: '/1: must be string' }], 1, 0),
  },
  {
    group: 'schema',
    title: 'reports missing arguments before schema problems',
    arguments: [
      { name: 'code', required: true },
      { name: 'language', enum: ['typescript', 'python'] },
    ],
    provided: { language: 'rust' },
    wire: true,
    expected: missing(['code'], 1, 1),
  },
  {
    group: 'schema',
    title: 'applies declared defaults to omitted arguments',
    arguments: [
      { name: 'style', default: 'plain' },
      { name: 'limit', type: 'integer', default: 10 },
      { name: 'tags', type: 'array', default: ['a'] },
    ],
    provided: { style: 'bold' },
    wire: true,
    expected: ok({ style: 'bold', limit: 10, tags: ['a'] }),
  },
  // ---- inputSchema
  {
    group: 'inputSchema',
    title: 'validates against a simple JSON Schema (required from its required array)',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
      required: ['name'],
    },
    provided: { age: '30' },
    wire: true,
    expected: missing(['name'], 1, 1),
  },
  {
    group: 'inputSchema',
    title: 'coerces and accepts arguments that conform to the JSON Schema',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
      required: ['name'],
    },
    provided: { name: 'Ada', age: '36' },
    wire: true,
    expected: ok({ name: 'Ada', age: 36 }),
  },
  {
    group: 'inputSchema',
    title: 'reports a JSON Schema range violation',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
      required: ['name'],
    },
    provided: { name: 'Ada', age: '-1' },
    wire: true,
    expected: invalid([{ argument: 'age', keyword: 'minimum', message: 'must be >= 0' }], 2, 1),
  },
  {
    group: 'inputSchema',
    title: "lets the inputSchema's required array win over per-argument required flags",
    arguments: [{ name: 'name', required: true, type: 'integer' }],
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, note: { type: 'string' } },
      required: ['note'],
    },
    provided: { name: '12' },
    wire: true,
    expected: missing(['note'], 1, 1),
  },
  {
    group: 'inputSchema',
    title: "lets the inputSchema's property types win over per-argument types",
    arguments: [{ name: 'name', required: true, type: 'integer' }],
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, note: { type: 'string' } },
      required: ['note'],
    },
    provided: { name: '12', note: 'n' },
    wire: true,
    expected: ok({ name: '12', note: 'n' }),
  },
  {
    group: 'inputSchema',
    title: 'applies inputSchema property defaults',
    inputSchema: { type: 'object', properties: { tone: { type: 'string', default: 'neutral' } } },
    provided: {},
    wire: true,
    expected: ok({ tone: 'neutral' }),
  },
  {
    group: 'inputSchema',
    title: 'reports the extra key of an inputSchema that forbids additional properties',
    inputSchema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    provided: { a: 'x', b: 'y' },
    wire: true,
    expected: invalid(
      [{ argument: 'b', keyword: 'additionalProperties', message: 'is not a declared argument' }],
      2,
      0,
    ),
  },
  {
    group: 'inputSchema',
    title: 'accepts a draft-07 $schema and evaluates the schema',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { n: { type: 'number' } },
    },
    provided: { n: 'x' },
    wire: true,
    expected: invalid([{ argument: 'n', keyword: 'type', message: 'must be number' }], 1, 0),
  },
  // ---- length limits
  {
    group: 'length',
    title: 'reports a string argument over the default 10,000-character limit',
    arguments: [{ name: 'code', required: true }],
    provided: { code: 'x'.repeat(10_001) },
    wire: true,
    expected: tooLong('code', 10_000, 1, 1),
  },
  {
    group: 'length',
    title: 'accepts a string of exactly the limit',
    arguments: [{ name: 'code', required: true }],
    provided: { code: 'x'.repeat(10_000) },
    wire: true,
    expected: ok({ code: 'x'.repeat(10_000) }),
  },
  {
    group: 'length',
    title: 'counts code points: 6,000 emoji (12,000 UTF-16 units) pass a 10,000 limit',
    arguments: [{ name: 'code', required: true }],
    provided: { code: emoji6000 },
    wire: true,
    expected: ok({ code: emoji6000 }),
  },
  {
    group: 'length',
    title: 'counts code points: 5,001 emoji exceed a declared maxLength of 5,000',
    arguments: [{ name: 'code', maxLength: 5000 }],
    provided: { code: '😀'.repeat(5001) },
    wire: true,
    expected: tooLong('code', 5000, 1, 0),
  },
  {
    group: 'length',
    title: 'still counts the arguments after a too-long one as provided',
    arguments: [
      { name: 'note', required: true },
      { name: 'code', required: true },
    ],
    provided: { note: 'n'.repeat(10_001), code: 'x' },
    wire: true,
    expected: tooLong('note', 10_000, 2, 2),
  },
  {
    group: 'length',
    title: 'applies the limit to extra arguments too',
    arguments: [{ name: 'code' }],
    provided: { code: 'short', extra: 'y'.repeat(10_001) },
    wire: true,
    expected: tooLong('extra', 10_000, 2, 0),
  },
  {
    group: 'length',
    title: 'lets a declared maxLength above the default win (reported as too long, not a schema error)',
    arguments: [{ name: 'doc', maxLength: 20_000 }],
    provided: { doc: 'z'.repeat(20_001) },
    wire: true,
    expected: tooLong('doc', 20_000, 1, 0),
  },
  {
    group: 'length',
    title: 'accepts a string longer than the default under a larger declared maxLength',
    arguments: [{ name: 'doc', maxLength: 20_000 }],
    provided: { doc: 'z'.repeat(15_000) },
    wire: true,
    expected: ok({ doc: 'z'.repeat(15_000) }),
  },
  {
    group: 'length',
    title: 'lets a declared inputSchema maxLength win',
    inputSchema: { type: 'object', properties: { title: { type: 'string', maxLength: 10 } } },
    provided: { title: 'eleven chars' },
    wire: true,
    expected: tooLong('title', 10, 1, 0),
  },
  {
    group: 'length',
    title: 'uses options.maxLength as the default limit',
    arguments: [{ name: 'code' }],
    options: { maxLength: 5 },
    provided: { code: 'abcdef' },
    wire: true,
    expected: tooLong('code', 5, 1, 0),
  },
  {
    group: 'length',
    title: 'reports missing arguments before a too-long one, and a too-long one before schema problems',
    arguments: [
      { name: 'code', required: true },
      { name: 'language', enum: ['typescript', 'python'] },
      { name: 'note' },
    ],
    provided: { language: 'rust', note: 'n'.repeat(10_001) },
    wire: true,
    expected: missing(['code'], 2, 1),
  },
  {
    group: 'length',
    title: 'reports a too-long argument before schema problems',
    arguments: [{ name: 'language', enum: ['typescript', 'python'] }, { name: 'note' }],
    provided: { language: 'rust', note: 'n'.repeat(10_001) },
    wire: true,
    expected: tooLong('note', 10_000, 2, 0),
  },
  // ---- large
  {
    group: 'large',
    title: 'accepts 999 required arguments all provided',
    arguments: manyArgs,
    provided: manyValues,
    wire: true,
    expected: ok(manyValues),
  },
  {
    group: 'large',
    title: 'finds the one missing argument among 999 required ones',
    arguments: manyArgs,
    provided: manyButOne,
    wire: true,
    expected: missing(['arg_0500'], 998, 999),
  },
];
