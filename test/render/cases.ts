/**
 * The shared render rules, one row per behaviour. The renderer's tests run every row through compileTemplate +
 * resolveResourceDirectives; adapters re-run the same rows end to end (define a prompt whose one user message is
 * `template`, declare every key of `args` as an argument whose type follows the value's JSON type, serve
 * `resources` through createMemoryResourceResolver and `partials` through the registry, call prompts/get with
 * `args`, expect `expected` as the message text).
 */
import type { MemoryResourceInput } from '../../src/render/index.js';

/** One render rule. */
export interface RenderCase {
  /** The behaviour, as a test title. */
  readonly name: string;
  readonly template: string;
  /** Argument values after validation (typed JSON values). */
  readonly args: Readonly<Record<string, unknown>>;
  readonly expected: string;
  /** Resources available to `{{resource:URI}}` directives. */
  readonly resources?: Readonly<Record<string, MemoryResourceInput>>;
  /** Partials available to `{{> name}}`. */
  readonly partials?: Readonly<Record<string, string>>;
  /** Why plain mustache (a Writer with escaping off) renders this row differently; absent = identical. */
  readonly differsFromMustache?: string;
}

const CODE = 'if (a < b && c > d) { return "x" + \'y\' + `z`; } // a=b/c';

export const renderCases: readonly RenderCase[] = [
  {
    name: 'substitutes an argument into a placeholder',
    template: 'Review this {{language}} code.',
    args: { language: 'TypeScript' },
    expected: 'Review this TypeScript code.',
  },
  {
    name: 'does not HTML-escape argument values',
    template: '```\n{{code}}\n```',
    args: { code: CODE },
    expected: `\`\`\`\n${CODE}\n\`\`\``,
  },
  {
    name: 'renders triple mustache and ampersand exactly like a double mustache',
    template: '{{a}}|{{{a}}}|{{&a}}',
    args: { a: '<b>&"\'`=/' },
    expected: '<b>&"\'`=/|<b>&"\'`=/|<b>&"\'`=/',
  },
  {
    name: 'allows spaces inside the tag around the name',
    template: '[{{ name }}] [{{{ name }}}]',
    args: { name: 'x' },
    expected: '[x] [x]',
  },
  {
    name: 'renders a missing optional argument as nothing',
    template: 'Language: {{language}}.',
    args: {},
    expected: 'Language: .',
  },
  {
    name: 'renders a null argument as nothing',
    template: 'Focus: {{focus}}.',
    args: { focus: null },
    expected: 'Focus: .',
  },
  {
    name: 'renders a section when its optional argument is given',
    template: 'Review.{{#focus}} Focus on {{focus}}.{{/focus}}',
    args: { focus: 'security' },
    expected: 'Review. Focus on security.',
  },
  {
    name: 'skips a section when its optional argument is missing',
    template: 'Review.{{#focus}} Focus on {{focus}}.{{/focus}}',
    args: {},
    expected: 'Review.',
  },
  {
    name: 'renders an inverted section when its optional argument is missing',
    template: '{{^focus}}Review everything.{{/focus}}{{#focus}}Review {{focus}}.{{/focus}}',
    args: {},
    expected: 'Review everything.',
  },
  {
    name: 'treats an empty string, 0 and false as absent in sections',
    template: '{{#a}}A{{/a}}{{^a}}-a{{/a}} {{#b}}B{{/b}}{{^b}}-b{{/b}} {{#c}}C{{/c}}{{^c}}-c{{/c}}',
    args: { a: '', b: 0, c: false },
    expected: '-a -b -c',
  },
  {
    name: 'renders the body of a section whose value is true in the same context',
    template: '{{#strict}}Be strict with {{language}}.{{/strict}}',
    args: { strict: true, language: 'Go' },
    expected: 'Be strict with Go.',
  },
  {
    name: 'reads top-level arguments inside a section opened by a string argument',
    template: '{{#focus}}Focus on {{focus}} in {{language}}.{{/focus}}',
    args: { focus: 'security', language: 'Go' },
    expected: 'Focus on security in Go.',
  },
  {
    name: 'finds no property of a string or number section value by a plain name',
    template: '{{#name}}[{{length}}]{{/name}}{{#count}}[{{toFixed}}]{{/count}}',
    args: { name: 'abc', count: 2 },
    expected: '[][]',
  },
  {
    name: 'repeats a section for each item of an array argument',
    template: 'Files:\n{{#files}}\n- {{.}}\n{{/files}}\nDone.',
    args: { files: ['a.ts', 'b.ts'] },
    expected: 'Files:\n- a.ts\n- b.ts\nDone.',
  },
  {
    name: 'renders an inverted section for an empty array',
    template: '{{#files}}{{.}} {{/files}}{{^files}}no files{{/files}}',
    args: { files: [] },
    expected: 'no files',
  },
  {
    name: "reads array items' fields and falls back to arguments inside a section",
    template: '{{#issues}}{{id}}: {{title}} ({{project}})\n{{/issues}}',
    args: {
      project: 'core',
      issues: [
        { id: 1, title: 'Crash' },
        { id: 2, title: 'Leak' },
      ],
    },
    expected: '1: Crash (core)\n2: Leak (core)\n',
  },
  {
    name: 'reads dotted names through nested objects',
    template: '{{user.name}} <{{user.contact.email}}> {{user.missing}}|{{user.contact.missing.deeper}}|',
    args: { user: { name: 'Ada', contact: { email: 'ada@example.com' } } },
    expected: 'Ada <ada@example.com> ||',
  },
  {
    name: 'inserts an argument containing mustache tags literally without rendering it',
    template: 'Code: {{code}}',
    args: { code: '{{secret}} {{#a}}x{{/a}} {{> p}} {{resource:docs://a}}', secret: 'leak' },
    expected: 'Code: {{secret}} {{#a}}x{{/a}} {{> p}} {{resource:docs://a}}',
  },
  {
    name: 'inserts replacement patterns like $& and $1 literally',
    template: '[{{v}}]',
    args: { v: "$& $1 $$ $` $'" },
    expected: "[$& $1 $$ $` $']",
  },
  {
    name: 'renders numbers and booleans as their string form',
    template: '{{count}} {{ratio}} {{flag}} {{zero}}',
    args: { count: 42, ratio: 0.5, flag: false, zero: 0 },
    expected: '42 0.5 false 0',
  },
  {
    name: 'renders an array of strings or numbers joined with a comma and a space',
    template: 'Languages: {{languages}}. Ports: {{ports}}.',
    args: { languages: ['go', 'ts', 'rust'], ports: [80, 443] },
    expected: 'Languages: go, ts, rust. Ports: 80, 443.',
    differsFromMustache: 'mustache joins arrays with "," (no space)',
  },
  {
    name: 'renders objects and arrays of objects as compact JSON',
    template: '{{config}} {{items}}',
    args: { config: { retries: 3, tags: ['a'] }, items: [{ id: 1 }, null] },
    expected: '{"retries":3,"tags":["a"]} [{"id":1},null]',
    differsFromMustache: 'mustache renders "[object Object]"',
  },
  {
    name: 'renders prototype member names as nothing',
    template: '[{{constructor}}][{{__proto__}}][{{toString}}][{{hasOwnProperty}}][{{valueOf}}]',
    args: {},
    expected: '[][][][][]',
    differsFromMustache: 'mustache 4.2 crashes on {{hasOwnProperty}} (it shadows its own lookup cache method)',
  },
  {
    name: 'does not read inherited members through dotted names or sections',
    template:
      '[{{user.constructor}}][{{user.constructor.name}}][{{name.length}}][{{list.map}}][{{#user.toString}}x{{/user.toString}}]',
    args: { user: { id: 1 }, name: 'abc', list: [1] },
    expected: '[][][3][][]',
    differsFromMustache: 'mustache reads inherited members such as constructor',
  },
  {
    name: 'removes standalone section and comment lines like mustache',
    template: 'Start\n  {{! a comment }}\n{{#a}}\n  inside\n{{/a}}\nEnd\n',
    args: { a: true },
    expected: 'Start\n  inside\nEnd\n',
  },
  {
    name: 'ignores comments',
    template: 'a{{! ignore this }}b',
    args: { this: 'x' },
    expected: 'ab',
  },
  {
    name: 'keeps Unicode, CRLF line endings and trailing whitespace byte for byte',
    template: 'Grüße 👋 {{name}}\r\n\ttabbed  \r\n',
    args: { name: 'José 日本' },
    expected: 'Grüße 👋 José 日本\r\n\ttabbed  \r\n',
  },
  {
    name: 'supports set-delimiter tags',
    template: '{{=<% %>=}}<% a %> {{a}} <%={{ }}=%>{{a}}',
    args: { a: 'x' },
    expected: 'x {{a}} x',
  },
  {
    name: 'includes a partial in the current context',
    template: 'Header: {{> header}}\n{{#user}}{{> card}}{{/user}}',
    args: { title: 'Review', user: { name: 'Ada' } },
    partials: { header: '# {{title}}', card: '[{{name}} / {{title}}]' },
    expected: 'Header: # Review\n[Ada / Review]',
  },
  {
    name: 'indents a standalone partial like mustache',
    template: 'List:\n  {{> items}}\nEnd',
    args: { a: 'x', b: 'y' },
    partials: { items: '- {{a}}\n- {{b}}\n' },
    expected: 'List:\n  - x\n  - y\nEnd',
  },
  {
    name: 'includes partials nested in partials',
    template: '{{> outer}}',
    args: { v: 'deep' },
    partials: { outer: '<{{> inner}}>', inner: '{{v}}' },
    expected: '<deep>',
  },
  {
    name: 'embeds the text of a resource directive',
    template: 'Follow this decision:\n\n{{resource:architecture://adr/001}}\n\nNow write {{topic}}.',
    args: { topic: 'ADR 002' },
    resources: { 'architecture://adr/001': '# ADR 001\nUse PostgreSQL.' },
    expected: 'Follow this decision:\n\n# ADR 001\nUse PostgreSQL.\n\nNow write ADR 002.',
  },
  {
    name: 'embeds every glob match in URI order, each headed by its URI',
    template: 'Patterns:\n{{resource:architecture://patterns/*}}\nEnd',
    args: {},
    resources: {
      'architecture://patterns/saga': 'Saga text',
      'architecture://patterns/cqrs': 'CQRS text',
      'architecture://patterns/Outbox': 'Outbox text',
      'architecture://patterns/nested/skip': 'not a direct child',
      'architecture://adr/001': 'not a pattern',
    },
    expected:
      'Patterns:\n--- architecture://patterns/Outbox ---\nOutbox text\n\n--- architecture://patterns/cqrs ---\nCQRS text' +
      '\n\n--- architecture://patterns/saga ---\nSaga text\nEnd',
  },
  {
    name: 'never renders an embedded document as a template',
    template: '{{resource:docs://snippet}} / {{{resource:docs://snippet}}}',
    args: { code: 'SHOULD NOT APPEAR' },
    resources: { 'docs://snippet': 'Use {{code}} & <b>{{#x}}literally{{/x}}</b>' },
    expected: 'Use {{code}} & <b>{{#x}}literally{{/x}}</b> / Use {{code}} & <b>{{#x}}literally{{/x}}</b>',
  },
  {
    name: 'embeds a directive inside a section only when the section renders',
    template: '{{#withDocs}}Docs: {{resource:docs://a}}{{/withDocs}}{{^withDocs}}No docs.{{/withDocs}}',
    args: { withDocs: true },
    resources: { 'docs://a': 'A' },
    expected: 'Docs: A',
  },
  {
    name: 'renders a short note for a binary resource in a text directive',
    template: 'Logo: {{resource:assets://logo.png}}',
    args: {},
    resources: { 'assets://logo.png': { mimeType: 'image/png', blob: 'iVBORw0KGgo=' } },
    expected: 'Logo: [binary resource assets://logo.png, image/png, 8 bytes]',
  },
];
