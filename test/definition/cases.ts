/**
 * The shared table of definition FILES (JSON data) that both the published JSON Schema and parsePromptDefinition
 * judge. `paths` lists the JSON pointers parsePromptDefinition reports, in order. `parserOnly` marks the few rules
 * JSON Schema (draft-07) cannot express.
 */

export interface ValidCase {
  title: string;
  definition: unknown;
}

export interface InvalidCase {
  title: string;
  definition: unknown;
  paths: string[];
  parserOnly?: true;
}

const msg = (content: unknown = 'Hello'): { role: string; content: unknown } => ({ role: 'user', content });
const def = (extra: Record<string, unknown>): Record<string, unknown> => ({ name: 'p', messages: [msg()], ...extra });
const arg = (a: Record<string, unknown>): Record<string, unknown> => def({ arguments: [{ name: 'a', ...a }] });
const content = (c: unknown): Record<string, unknown> => ({ name: 'p', messages: [msg(c)] });

export const validCases: ValidCase[] = [
  { title: 'a kebab-case name with one string message', definition: { name: 'review-code', messages: [msg()] } },
  { title: 'the conformance suite snake_case name', definition: { name: 'test_simple_prompt', messages: [msg()] } },
  { title: 'a mixed name with a dot and digits', definition: { name: 'team.review_code-v2', messages: [msg()] } },
  { title: 'a name starting with a digit or underscore', definition: { name: '_2fa-help', messages: [msg()] } },
  { title: 'a 128-character name', definition: { name: 'a'.repeat(128), messages: [msg()] } },
  {
    title: 'a "$schema" property for editors',
    definition: def({ $schema: 'https://unpkg.com/mcp-prompt-kit/schema/prompt-definition.schema.json' }),
  },
  {
    title: 'every top-level field',
    definition: {
      name: 'review-code',
      title: 'Review code',
      description: 'Review code against our patterns',
      icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }],
      _meta: { 'example.com/owner': 'platform' },
      tags: ['review', 'code'],
      arguments: [
        {
          name: 'code',
          title: 'Code',
          description: 'The code',
          required: true,
          type: 'string',
          maxLength: 10000,
          minLength: 1,
        },
        { name: 'language', enum: ['ts', 'go'], default: 'ts' },
        { name: 'count', type: 'integer', minimum: 1, maximum: 5, default: 3 },
        { name: 'ratio', type: 'number', default: 0.5 },
        { name: 'strict', type: 'boolean', default: false },
        { name: 'files', type: 'array', items: { type: 'string' }, default: [] },
        { name: 'options', type: 'object', default: { depth: 1 } },
        { name: 'email', type: 'string', format: 'email', pattern: '^\\S+@\\S+$' },
        { name: 'código', description: 'non-ASCII argument names are fine' },
        { name: 'level', type: 'integer', enum: [1, 2, 3] },
      ],
      inputSchema: { type: 'object', properties: { code: { type: 'string' } } },
      messages: [
        { role: 'user', content: 'Review {{code}}' },
        { role: 'assistant', content: { type: 'text', text: 'Sure.', _meta: { a: 1 } } },
        { role: 'user', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
        { role: 'user', content: { type: 'audio', path: 'sounds/beep.wav', mimeType: 'audio/wav' } },
        { role: 'user', content: { type: 'resource', uri: 'architecture://adr/{{id}}', mimeType: 'text/markdown' } },
        {
          role: 'user',
          content: {
            type: 'resource_link',
            uri: 'file:///a.md',
            name: 'a.md',
            title: 'A',
            description: 'd',
            mimeType: 'text/markdown',
          },
        },
      ],
    },
  },
  { title: 'an empty text', definition: content({ type: 'text', text: '' }) },
  { title: 'an untyped argument with a string default', definition: arg({ default: 'x' }) },
  { title: 'an enum argument with null and booleans', definition: arg({ enum: [null, true, 'x', 1] }) },
  {
    title: 'example cases with every kind of expectation',
    definition: def({
      arguments: [{ name: 'who' }],
      cases: [
        { name: 'snapshot', arguments: { who: 'Ada' }, messages: [{ role: 'user', content: 'Hello' }] },
        { name: 'text', contains: ['Hello', { text: 'Hello', message: 0 }], notContains: 'Bye' },
        { name: 'error', arguments: { nope: 1 }, error: { code: -32602, message: 'x', missing_arguments: [] } },
        { name: 'error code', error: 'PROMPT_ARGUMENT_INVALID' },
      ],
    }),
  },
];

export const invalidCases: InvalidCase[] = [
  {
    title: 'a case with an unknown key, a case that is not an object, and an unknown error code',
    definition: def({ cases: [{ name: 'a', expect: 1 }, 'b', { name: 'c', error: 'NOPE' }] }),
    paths: ['/cases/0/expect', '/cases/1', '/cases/2/error'],
  },
  {
    title: 'a case that expects an error and messages at once',
    definition: def({ cases: [{ name: 'a', error: -32602, contains: 'x' }] }),
    paths: ['/cases/0/contains'],
  },
  {
    title: 'cases that are not a list',
    definition: def({ cases: { name: 'a' } }),
    paths: ['/cases'],
  },
  {
    title: 'two cases with one name',
    definition: def({ cases: [{ name: 'a' }, { name: 'a' }] }),
    paths: ['/cases/1/name'],
    parserOnly: true,
  },
  {
    title: 'a case passing an argument the prompt does not declare',
    definition: def({ arguments: [{ name: 'who' }], cases: [{ name: 'a', arguments: { whom: 'x' } }] }),
    paths: ['/cases/0/arguments/whom'],
    parserOnly: true,
  },
  {
    title: "role 'system'",
    definition: { name: 'p', messages: [{ role: 'system', content: 'x' }] },
    paths: ['/messages/0/role'],
  },
  {
    title: "role 'tool'",
    definition: { name: 'p', messages: [{ role: 'tool', content: 'x' }] },
    paths: ['/messages/0/role'],
  },
  { title: 'a missing role', definition: { name: 'p', messages: [{ content: 'x' }] }, paths: ['/messages/0/role'] },
  {
    title: 'a missing content',
    definition: { name: 'p', messages: [{ role: 'user' }] },
    paths: ['/messages/0/content'],
  },
  { title: 'content as an array', definition: content([{ type: 'text', text: 'a' }]), paths: ['/messages/0/content'] },
  { title: 'content as a number', definition: content(42), paths: ['/messages/0/content'] },
  {
    title: 'an unknown content type',
    definition: content({ type: 'video', uri: 'x' }),
    paths: ['/messages/0/content/type'],
  },
  { title: 'a content block without a type', definition: content({ text: 'x' }), paths: ['/messages/0/content/type'] },
  { title: 'a text block without text', definition: content({ type: 'text' }), paths: ['/messages/0/content/text'] },
  {
    title: 'a text block with a number text',
    definition: content({ type: 'text', text: 1 }),
    paths: ['/messages/0/content/text'],
  },
  {
    title: 'an image with both data and path',
    definition: content({ type: 'image', data: 'AA==', path: 'a.png', mimeType: 'image/png' }),
    paths: ['/messages/0/content'],
  },
  {
    title: 'an image with neither data nor path',
    definition: content({ type: 'image', mimeType: 'image/png' }),
    paths: ['/messages/0/content'],
  },
  {
    title: 'audio without a mimeType',
    definition: content({ type: 'audio', data: 'AA==' }),
    paths: ['/messages/0/content/mimeType'],
  },
  { title: 'a resource without a uri', definition: content({ type: 'resource' }), paths: ['/messages/0/content/uri'] },
  {
    title: 'a resource with an empty uri',
    definition: content({ type: 'resource', uri: '' }),
    paths: ['/messages/0/content/uri'],
  },
  {
    title: 'a resource_link without a name',
    definition: content({ type: 'resource_link', uri: 'file:///a' }),
    paths: ['/messages/0/content/name'],
  },
  {
    title: 'an unknown key in a content block',
    definition: content({ type: 'text', text: 'x', annotation: {} }),
    paths: ['/messages/0/content/annotation'],
  },
  {
    title: 'an unknown key in a message',
    definition: { name: 'p', messages: [{ ...msg(), priority: 1 }] },
    paths: ['/messages/0/priority'],
  },
  { title: "a typo 'argument' for 'arguments'", definition: def({ argument: [] }), paths: ['/argument'] },
  { title: 'a string render in a file', definition: { name: 'p', render: 'x' }, paths: ['/render'] },
  { title: 'an empty messages array', definition: { name: 'p', messages: [] }, paths: ['/messages'] },
  {
    title: 'messages as an object',
    definition: { name: 'p', messages: { role: 'user', content: 'x' } },
    paths: ['/messages'],
  },
  { title: 'no messages', definition: { name: 'p' }, paths: ['/messages'] },
  { title: 'a message that is a string', definition: { name: 'p', messages: ['hello'] }, paths: ['/messages/0'] },
  { title: 'no name', definition: { messages: [msg()] }, paths: ['/name'] },
  { title: 'an empty name', definition: { name: '', messages: [msg()] }, paths: ['/name'] },
  { title: 'a numeric name', definition: { name: 7, messages: [msg()] }, paths: ['/name'] },
  { title: "a name with '/'", definition: { name: 'a/b', messages: [msg()] }, paths: ['/name'] },
  { title: "a name with '\\'", definition: { name: 'a\\b', messages: [msg()] }, paths: ['/name'] },
  { title: "a name with '..'", definition: { name: 'a..b', messages: [msg()] }, paths: ['/name'] },
  { title: 'a name with a space', definition: { name: 'review code', messages: [msg()] }, paths: ['/name'] },
  { title: 'a name with a control character', definition: { name: 'a\u0007b', messages: [msg()] }, paths: ['/name'] },
  { title: 'a 129-character name', definition: { name: 'a'.repeat(129), messages: [msg()] }, paths: ['/name'] },
  { title: "a name starting with '-'", definition: { name: '-p', messages: [msg()] }, paths: ['/name'] },
  { title: 'a name with a non-ASCII letter', definition: { name: 'révision', messages: [msg()] }, paths: ['/name'] },
  { title: 'a title that is not a string', definition: def({ title: 3 }), paths: ['/title'] },
  { title: 'tags that are not strings', definition: def({ tags: ['a', 1] }), paths: ['/tags/1'] },
  { title: '_meta as an array', definition: def({ _meta: [] }), paths: ['/_meta'] },
  { title: 'an icon without src', definition: def({ icons: [{ mimeType: 'image/png' }] }), paths: ['/icons/0/src'] },
  {
    title: 'an icon with an unknown theme',
    definition: def({ icons: [{ src: 'a.png', theme: 'blue' }] }),
    paths: ['/icons/0/theme'],
  },
  { title: 'inputSchema as an array', definition: def({ inputSchema: [] }), paths: ['/inputSchema'] },
  { title: 'arguments as an object', definition: def({ arguments: { code: {} } }), paths: ['/arguments'] },
  {
    title: 'an argument without a name',
    definition: def({ arguments: [{ required: true }] }),
    paths: ['/arguments/0/name'],
  },
  { title: 'an argument name with a space', definition: arg({ name: 'my arg' }), paths: ['/arguments/0/name'] },
  { title: "an argument named '__proto__'", definition: arg({ name: '__proto__' }), paths: ['/arguments/0/name'] },
  { title: "an argument named 'constructor'", definition: arg({ name: 'constructor' }), paths: ['/arguments/0/name'] },
  {
    title: 'an argument name of 129 characters',
    definition: arg({ name: 'x'.repeat(129) }),
    paths: ['/arguments/0/name'],
  },
  { title: "a typo 'requried'", definition: arg({ requried: true }), paths: ['/arguments/0/requried'] },
  { title: "required: 'yes'", definition: arg({ required: 'yes' }), paths: ['/arguments/0/required'] },
  { title: "type 'text'", definition: arg({ type: 'text' }), paths: ['/arguments/0/type'] },
  { title: 'a negative minLength', definition: arg({ minLength: -1 }), paths: ['/arguments/0/minLength'] },
  { title: 'a fractional maxLength', definition: arg({ maxLength: 1.5 }), paths: ['/arguments/0/maxLength'] },
  { title: 'a string minimum', definition: arg({ minimum: '3' }), paths: ['/arguments/0/minimum'] },
  { title: 'a numeric pattern', definition: arg({ pattern: 5 }), paths: ['/arguments/0/pattern'] },
  { title: 'an empty enum', definition: arg({ enum: [] }), paths: ['/arguments/0/enum'] },
  { title: 'enum as a string', definition: arg({ enum: 'a|b' }), paths: ['/arguments/0/enum'] },
  { title: 'a duplicate enum value', definition: arg({ enum: ['a', 'a'] }), paths: ['/arguments/0/enum/1'] },
  { title: 'an object enum value', definition: arg({ enum: ['a', {}] }), paths: ['/arguments/0/enum/1'] },
  {
    title: 'an enum value of the wrong type',
    definition: arg({ type: 'string', enum: ['a', 1] }),
    paths: ['/arguments/0/enum/1'],
  },
  {
    title: 'a default of the wrong type',
    definition: arg({ type: 'string', default: 5 }),
    paths: ['/arguments/0/default'],
  },
  {
    title: 'a fractional integer default',
    definition: arg({ type: 'integer', default: 1.5 }),
    paths: ['/arguments/0/default'],
  },
  {
    title: 'an untyped argument with a number default',
    definition: arg({ default: 5 }),
    paths: ['/arguments/0/default'],
  },
  { title: 'items as a string', definition: arg({ type: 'array', items: 'string' }), paths: ['/arguments/0/items'] },
  { title: 'a root that is an array', definition: [], paths: [''] },
  { title: 'a root that is a string', definition: 'name: p', paths: [''] },
  { title: 'a root that is null', definition: null, paths: [''] },
  {
    title: 'several problems at once',
    definition: {
      name: 'a b',
      argument: [],
      arguments: [{ name: 'x', type: 'text' }, { name: 'x' }],
      messages: [
        { role: 'system', content: 'a' },
        { role: 'user', content: ['a'] },
      ],
    },
    paths: ['/argument', '/name', '/arguments/0/type', '/arguments/1/name', '/messages/0/role', '/messages/1/content'],
  },
  {
    title: 'a duplicate argument name',
    definition: def({ arguments: [{ name: 'code' }, { name: 'code' }] }),
    paths: ['/arguments/1/name'],
    parserOnly: true,
  },
  {
    title: "a pattern that doesn't compile",
    definition: arg({ pattern: '(' }),
    paths: ['/arguments/0/pattern'],
    parserOnly: true,
  },
  {
    title: "a pattern that only compiles without the 'u' flag",
    definition: arg({ pattern: 'a{' }),
    paths: ['/arguments/0/pattern'],
    parserOnly: true,
  },
  {
    title: 'a default outside the enum',
    definition: arg({ enum: ['ts', 'go'], default: 'rust' }),
    paths: ['/arguments/0/default'],
    parserOnly: true,
  },
];
