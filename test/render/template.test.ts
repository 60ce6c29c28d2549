import Mustache from 'mustache';
import { afterEach, describe, expect, it } from 'vitest';
import { PromptError } from '../../src/errors.js';
import { TemplateCache, compileTemplate } from '../../src/render/index.js';
import type { CompileTemplateOptions } from '../../src/render/index.js';
import { RenderBudget } from '../../src/render/limits.js';
import { renderCases } from './cases.js';
import { renderCase, toView } from './helpers.js';
import { thrownBy } from '../support/errors.js';
import { prng } from '../support/schedule.js';

function compileError(source: string, options: CompileTemplateOptions = {}): PromptError {
  try {
    compileTemplate(source, options);
  } catch (error) {
    expect(error).toBeInstanceOf(PromptError);
    return error as PromptError;
  }
  throw new Error(`expected ${JSON.stringify(source)} not to compile`);
}

function problems(error: PromptError): { path: string; message: string; line?: number; column?: number }[] {
  return (error.data as { problems: { path: string; message: string; line?: number; column?: number }[] }).problems;
}

describe('render rules (shared case table)', () => {
  for (const c of renderCases) {
    it(c.name, async () => {
      expect(await renderCase(c)).toBe(c.expected);
    });
  }

  describe('matches mustache (escaping off) wherever the rules do not deliberately differ', () => {
    const writer = new Mustache.Writer();
    for (const c of renderCases) {
      if (c.resources !== undefined || c.differsFromMustache !== undefined) continue;
      it(c.name, async () => {
        const expected = writer.render(c.template, toView(c.args), c.partials as Record<string, string>, {
          escape: (v: unknown) => String(v),
        });
        expect(await renderCase(c)).toBe(expected);
      });
    }
  });
});

function generateTemplate(random: () => number, depth = 0): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const texts = ['x', ' ', '  ', '\n', '\r\n', '\t', '<&>', 'line\n', '  \n', 'é😀', '}', '{ ', 'a}}b'];
  const tags = ['{{a}}', '{{{b}}}', '{{&c}}', '{{ a }}', '{{! note }}', '{{o.x}}', '{{> p}}', '{{missing}}'];
  let out = '';
  const parts = 1 + Math.floor(random() * 8);
  for (let i = 0; i < parts; i++) {
    const r = random();
    if (r < 0.45) out += pick(texts);
    else if (r < 0.8) out += pick(tags);
    else if (depth < 3) {
      const name = pick(['s', 't', 'a', 'o']);
      const kind = pick(['#', '^']);
      const pad = pick(['', '  ', '\n', '\n  ']);
      out += `${pad}{{${kind}${name}}}${pad}${generateTemplate(random, depth + 1)}${pad}{{/${name}}}${pick(['', '\n'])}`;
    }
  }
  return out;
}

describe('renders exactly like mustache (escaping off) on 500 generated templates', () => {
  const random = prng(20250301);
  const writer = new Mustache.Writer();
  const partials = { p: 'P{{a}}\n  second {{b}}\n' };
  const views = [
    { a: '<A>', b: 'B&', c: '', s: true, t: false, o: { x: 'ox' } },
    { a: 'a', b: '', c: 'c', s: [{ a: 'i1' }, { a: 'i2', o: { x: 'io' } }], t: [], o: { x: '' } },
    { a: '', s: { a: 'obj' }, t: 'str', o: {} },
  ];
  it('matches for every template and view', () => {
    for (let i = 0; i < 500; i++) {
      const source = generateTemplate(random);
      const compiled = compileTemplate(source, { partials: (n) => (n === 'p' ? partials.p : undefined) });
      for (const view of views) {
        const expected = writer.render(source, toView(view), partials, { escape: (v: unknown) => String(v) });
        const actual = compiled.render(toView(view));
        if (actual !== expected) expect({ source, view, actual }).toEqual({ source, view, actual: expected });
      }
    }
  });
});

describe('compileTemplate', () => {
  it('does not call functions found in the data', () => {
    let called = false;
    const fn = (): string => {
      called = true;
      return 'called';
    };
    expect(compileTemplate('[{{fn}}][{{#fn}}x{{/fn}}][{{^fn}}y{{/fn}}]').render(toView({ fn }))).toBe('[][][]');
    expect(called).toBe(false);
  });

  it('reports a value that cannot be serialized as a render failure', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => compileTemplate('{{v}}').render(toView({ v: cyclic }))).toThrow(
      expect.objectContaining({ code: 'PROMPT_RENDER_FAILED' }),
    );
  });

  it('lists top-level variables and section names in order of first appearance', () => {
    const t = compileTemplate('{{b}} {{#a}}{{inner}}{{/a}} {{^c}}{{d}}{{/c}} {{user.name}} {{b}} {{resource:x://y}}');
    expect(t.variables).toEqual(['b', 'a', 'c', 'd', 'user']);
  });

  it('lists resource directives once each, in order of first appearance, trimmed', () => {
    const t = compileTemplate('{{resource:b://1}} {{{ resource:a://* }}} {{#s}}{{resource:b://1}}{{/s}}');
    expect(t.resourceDirectives).toEqual(['b://1', 'a://*']);
  });

  it('marks only a template without any tag as static and renders it as its source', () => {
    const text = 'Plain text with { single braces } and }} closers';
    const t = compileTemplate(text);
    expect(t.isStatic).toBe(true);
    expect(t.render(toView({}))).toBe(text);
    expect(compileTemplate('only {{! a comment }}').isStatic).toBe(false);
    expect(compileTemplate('only {{! a comment }}').render(toView({}))).toBe('only ');
    expect(compileTemplate('').render(toView({}))).toBe('');
  });

  it('returns only the directives a render with the given arguments reaches', () => {
    const t = compileTemplate(
      '{{resource:a://1}}{{#docs}}{{resource:b://2}}{{/docs}}{{^docs}}{{resource:c://3}}{{/docs}}',
    );
    expect(t.resourceDirectivesFor(toView({}))).toEqual(['a://1', 'c://3']);
    expect(t.resourceDirectivesFor(toView({ docs: true }))).toEqual(['a://1', 'b://2']);
    expect(t.resourceDirectivesFor(toView({ docs: [] }))).toEqual(['a://1', 'c://3']);
  });

  it('fails with INTERNAL_ERROR when a reached directive was not resolved', () => {
    const t = compileTemplate('x {{resource:docs://a}}');
    expect(() => t.render(toView({}))).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR' }));
    expect(() => t.render(toView({}), new Map([['docs://other', 'x']]))).toThrow(/docs:\/\/a/);
  });

  it('reports which partials a template inlined', () => {
    const partials: Record<string, string> = { a: '{{> b}}', b: 'b' };
    expect([...compileTemplate('{{> a}}', { partials: (n) => partials[n] }).partialNames].sort()).toEqual(['a', 'b']);
  });
});

describe('template definition errors', () => {
  const where = { pointer: '/messages/1/content/text', source: 'prompts/review.json' };

  it('reports an unclosed section at its opening tag with line and column', () => {
    const error = compileError('Intro\n  {{#focus}}Focus: {{focus}}\nend', where);
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(error.data).toEqual({
      source: 'prompts/review.json',
      problems: [
        {
          path: '/messages/1/content/text',
          message: 'unclosed section "focus": add {{/focus}} (line 2, column 3)',
          line: 2,
          column: 3,
        },
      ],
    });
    expect(error.message).toContain('prompts/review.json');
    expect(error.message).toContain('/messages/1/content/text');
  });

  it('reports a mismatched closing tag where it stands', () => {
    const error = compileError('{{#a}}\nx {{/b}}', where);
    expect(problems(error)[0]).toMatchObject({ line: 2, column: 3 });
    expect(problems(error)[0]?.message).toContain('expected {{/a}}, found {{/b}}');
  });

  it('reports a closing tag without an opening tag', () => {
    const error = compileError('a\nb {{/x}}');
    expect(problems(error)[0]).toMatchObject({ path: '', line: 2, column: 3 });
    expect(problems(error)[0]?.message).toContain('{{/x}}');
  });

  it('reports an unclosed tag at its opening braces', () => {
    const error = compileError('Hello {{name}},\nplease {{review');
    expect(problems(error)[0]).toMatchObject({ line: 2, column: 8 });
    expect(problems(error)[0]?.message).toContain('unclosed tag');
  });

  it('rejects a tag whose name holds spaces or braces (a missing closing brace)', () => {
    const error = compileError('{{a} and {{b}}');
    expect(problems(error)[0]).toMatchObject({ line: 1, column: 1 });
    expect(problems(error)[0]?.message).toContain('invalid tag name');
    expect(() => compileTemplate('{{}}')).toThrow(PromptError);
    expect(() => compileTemplate('{{a..b}}')).toThrow(PromptError);
  });

  it('rejects a resource directive without a URI or used as a section', () => {
    expect(problems(compileError('x {{resource:}}'))[0]?.message).toContain('invalid resource directive');
    expect(problems(compileError('{{#resource:a://b}}x{{/resource:a://b}}'))[0]?.message).toContain(
      'cannot open a section',
    );
  });

  it('rejects an unknown partial, and any partial when no partials are available', () => {
    expect(problems(compileError('x\n{{> missing}}', { partials: () => undefined }))[0]).toMatchObject({
      message: "unknown partial 'missing' (line 2, column 1)",
      line: 2,
    });
    expect(problems(compileError('{{> p}}'))[0]?.message).toContain("unknown partial 'p'");
  });

  it('rejects recursive partials', () => {
    const partials: Record<string, string> = { a: 'A {{> b}}', b: 'B {{#x}}{{> a}}{{/x}}' };
    const error = compileError('{{> a}}', { partials: (n) => partials[n] });
    expect(problems(error)[0]?.message).toContain('a > b > a');
  });

  it('rejects partials that expand exponentially', () => {
    const partials: Record<string, string> = {};
    for (let i = 0; i < 12; i++) partials[`p${i}`] = `{{> p${i + 1}}}{{> p${i + 1}}}`;
    partials.p12 = 'x';
    expect(problems(compileError('{{> p0}}', { partials: (n) => partials[n] }))[0]?.message).toContain(
      'too many partial inclusions',
    );
  });

  it('reports an error inside a partial at the including tag, naming the partial', () => {
    const partials: Record<string, string> = { card: 'ok\n{{#open}}never closed' };
    const error = compileError('Line one\n  x {{> card}}', { partials: (n) => partials[n] });
    expect(problems(error)[0]).toMatchObject({ line: 2, column: 5 });
    expect(problems(error)[0]?.message).toContain("in partial 'card' (line 2, column 1 of the partial)");
  });

  describe('with set-delimiter tags', () => {
    it('reports an unclosed section at its opening tag, telling the closing tag in the active delimiters', () => {
      const error = compileError('{{=<% %>=}}\nIntro\n  <%#focus%>Focus: <%focus%>\nend');
      expect(problems(error)[0]).toEqual({
        path: '',
        message: 'unclosed section "focus": add <%/focus%> (line 3, column 3)',
        line: 3,
        column: 3,
      });
    });

    it('uses the delimiters active at the end when they change inside the unclosed section', () => {
      const error = compileError('{{#a}}\nx {{=[ ]=}} [b]');
      expect(problems(error)[0]).toMatchObject({ message: 'unclosed section "a": add [/a] (line 1, column 1)' });
    });

    it('reports a mismatched closing tag in the active delimiters', () => {
      const error = compileError('{{=<% %>=}}<%#a%>\nx <%/b%>');
      expect(problems(error)[0]).toMatchObject({ line: 2, column: 3 });
      expect(problems(error)[0]?.message).toContain('expected <%/a%>, found <%/b%>');
    });

    it('reports a closing tag without an opening tag in the active delimiters', () => {
      const error = compileError('{{=<% %>=}}a\nb <%/x%>');
      expect(problems(error)[0]).toMatchObject({ line: 2, column: 3 });
      expect(problems(error)[0]?.message).toContain('closing tag <%/x%> has no matching opening tag');
    });

    it('reports an unclosed tag at its opening delimiter, naming the closing delimiter', () => {
      const error = compileError('{{=<% %>=}}<%a%>\nplease <%review');
      expect(problems(error)[0]).toMatchObject({ message: 'unclosed tag: missing closing %> (line 2, column 8)' });
    });
  });

  describe('nesting depth', () => {
    const nested = (levels: number, open = '{{#a}}', close = '{{/a}}'): string =>
      `${open.repeat(levels)}x${close.repeat(levels)}`;

    it('renders sections nested 100 levels deep', () => {
      const t = compileTemplate(`${nested(99)}{{#a}}{{^b}}{{resource:docs://deep}}{{/b}}{{/a}}`);
      expect(t.render(toView({ a: [true] }), new Map([['docs://deep', 'D']]))).toBe('xD');
      expect(t.resourceDirectivesFor(toView({ a: [true] }))).toEqual(['docs://deep']);
    });

    it('rejects sections nested deeper than 100 levels at the 101st opening tag', () => {
      const error = compileError(
        `${'{{#a}}'.repeat(50)}\n${'{{^b}}'.repeat(51)}x${'{{/b}}'.repeat(51)}${'{{/a}}'.repeat(50)}`,
      );
      expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
      expect(problems(error)).toEqual([
        { path: '', message: 'sections nested deeper than 100 levels (line 2, column 301)', line: 2, column: 301 },
      ]);
    });

    it('fails with a definition error, not a stack overflow, for thousands of nested sections', () => {
      for (const levels of [5_000, 50_000]) {
        const error = compileError(nested(levels));
        expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
        expect(error.message).toContain('sections nested deeper than 100 levels');
      }
    });

    it('counts the sections of included partials', () => {
      const partials: Record<string, string> = { deep: nested(60) };
      const lookup = (n: string): string | undefined => partials[n];
      expect(() =>
        compileTemplate(`${nested(40, '{{#a}}', '')}{{> deep}}${'{{/a}}'.repeat(40)}`, { partials: lookup }),
      ).not.toThrow();
      const error = compileError(`${'{{#a}}'.repeat(41)}{{> deep}}${'{{/a}}'.repeat(41)}`, { partials: lookup });
      // 41 sections around the inclusion + the partial's 60th: the 101st level.
      expect(problems(error)[0]?.message).toBe(
        "in partial 'deep' (line 1, column 355 of the partial): sections nested deeper than 100 levels (line 1, column 247)",
      );
    });

    it('counts the sections of a partial included again deeper than its first inclusion', () => {
      const partials: Record<string, string> = { deep: nested(60) };
      const error = compileError(`{{> deep}}${'{{#a}}'.repeat(41)}{{> deep}}${'{{/a}}'.repeat(41)}`, {
        partials: (n) => partials[n],
      });
      expect(problems(error)[0]?.message).toBe(
        "sections nested deeper than 100 levels (counting the sections of partial 'deep') (line 1, column 257)",
      );
    });

    it('rejects partials nested deeper than 100 levels without overflowing the stack', () => {
      const partials: Record<string, string> = {};
      for (let i = 0; i < 3000; i++) partials[`p${i}`] = `{{#s}}{{> p${i + 1}}}{{/s}}`;
      partials.p3000 = 'end';
      const error = compileError('top {{> p0}}', { partials: (n) => partials[n] });
      expect(problems(error)[0]).toEqual({
        path: '',
        message:
          "in partial 'p99' (line 1, column 7 of the partial): partials nested deeper than 100 levels " +
          "(included through partial 'p0') (line 1, column 5)",
        line: 1,
        column: 5,
      });
      const chain: Record<string, string> = {};
      for (let i = 0; i < 3000; i++) chain[`p${i}`] = `{{> p${i + 1}}}`;
      chain.p3000 = 'end';
      expect(problems(compileError('{{> p0}}', { partials: (n) => chain[n] }))[0]?.message).toBe(
        "in partial 'p99' (line 1, column 1 of the partial): partials nested deeper than 100 levels " +
          "(included through partial 'p0') (line 1, column 1)",
      );
      const twoLevels: Record<string, string> = {};
      for (let i = 0; i < 3000; i++) twoLevels[`p${i}`] = `{{#s}}{{^t}}{{> p${i + 1}}}{{/t}}{{/s}}`;
      expect(problems(compileError('{{> p0}}', { partials: (n) => twoLevels[n] }))[0]?.message).toBe(
        // p0..p49 hold 100 levels; the first section of p50 is the 101st.
        "in partial 'p50' (line 1, column 1 of the partial): sections nested deeper than 100 levels " +
          "(included through partial 'p0') (line 1, column 1)",
      );
    });
  });

  it('rejects a template that is not a string', () => {
    expect(() => compileTemplate(42 as unknown as string)).toThrow(PromptError);
  });
});

describe('undeclared arguments', () => {
  const declared = new Set(['code', 'language', 'user', 'items']);

  it('rejects a placeholder naming an undeclared argument, with its line and column', () => {
    const error = compileError('Review {{language}} code:\n  {{cdoe}}', { declaredArguments: declared, pointer: '/p' });
    expect(error.code).toBe('INVALID_PROMPT_DEFINITION');
    expect(problems(error)).toEqual([
      { path: '/p', message: "undeclared argument 'cdoe' in template (line 2, column 3)", line: 2, column: 3 },
    ]);
  });

  it('reports every undeclared argument at once', () => {
    const error = compileError('{{a}} {{code}} {{b}}', { declaredArguments: declared });
    expect(problems(error).map((p) => p.message)).toEqual([
      "undeclared argument 'a' in template (line 1, column 1)",
      "undeclared argument 'b' in template (line 1, column 16)",
    ]);
  });

  it('checks section names, inverted section bodies and the first segment of dotted names', () => {
    expect(() => compileTemplate('{{#focus}}x{{/focus}}', { declaredArguments: declared })).toThrow(/'focus'/);
    expect(() => compileTemplate('{{^code}}{{oops}}{{/code}}', { declaredArguments: declared })).toThrow(/'oops'/);
    expect(() => compileTemplate('{{usr.name}}', { declaredArguments: declared })).toThrow(/'usr'/);
    expect(() => compileTemplate('{{user.anything.deep}}', { declaredArguments: declared })).not.toThrow();
  });

  describe('inside sections', () => {
    // focus, language, strict: scalars; items, user: arrays/objects (iterable).
    const scalars = new Set(['focus', 'language', 'strict']);
    const iterable = new Set(['items', 'user']);
    const typed: CompileTemplateOptions = {
      declaredArguments: new Set([...scalars, ...iterable]),
      iterableArguments: iterable,
    };

    it('catches a typo inside a section opened by a scalar argument (the optional-argument idiom)', () => {
      const error = compileError('Review.\n{{#focus}}Focus on {{focsu}}.{{/focus}}', { ...typed, pointer: '/p' });
      expect(problems(error)).toEqual([
        { path: '/p', message: "undeclared argument 'focsu' in template (line 2, column 20)", line: 2, column: 20 },
      ]);
    });

    it('accepts declared arguments inside a section opened by a scalar argument', () => {
      expect(() =>
        compileTemplate('{{#focus}}Focus on {{focus}} in {{language}}.{{^strict}}Be kind.{{/strict}}{{/focus}}', typed),
      ).not.toThrow();
    });

    it('does not check names inside a section opened by an iterable argument, which may name item fields', () => {
      expect(() => compileTemplate('{{#items}}{{id}}: {{title}} {{#done}}ok{{/done}}{{/items}}', typed)).not.toThrow();
      expect(() => compileTemplate('{{#items}}{{^done}}{{id}}{{/done}}{{/items}}', typed)).not.toThrow();
    });

    it('does not check names inside a section opened by a dotted name whose first segment is iterable', () => {
      expect(() => compileTemplate('{{#user.tags}}{{label}}{{/user.tags}}', typed)).not.toThrow();
    });

    it('checks names inside a section opened by a dotted name of a scalar argument', () => {
      expect(() => compileTemplate('{{#language.length}}{{lenght}}{{/language.length}}', typed)).toThrow(/'lenght'/);
    });

    it('checks nested sections recursively until an iterable argument opens one', () => {
      expect(() => compileTemplate('{{#focus}}{{#strict}}{{tpyo}}{{/strict}}{{/focus}}', typed)).toThrow(/'tpyo'/);
      expect(() => compileTemplate('{{#focus}}{{#itmes}}x{{/itmes}}{{/focus}}', typed)).toThrow(/'itmes'/);
      expect(() => compileTemplate('{{#focus}}{{#items}}{{id}}{{/items}}{{/focus}}', typed)).not.toThrow();
      expect(() => compileTemplate('{{#items}}{{#focus}}{{id}}{{/focus}}{{/items}}', typed)).not.toThrow();
      expect(() => compileTemplate('{{#focus}}{{#.}}{{tpyo}}{{/.}}{{/focus}}', typed)).toThrow(/'tpyo'/);
    });

    it('reports only the name of a section opened by an undeclared name, not the names inside it', () => {
      const error = compileError('{{#fcous}}{{anything}}{{/fcous}}', typed);
      expect(problems(error).map((p) => p.message)).toEqual([
        "undeclared argument 'fcous' in template (line 1, column 1)",
      ]);
    });

    it('checks names from a partial included inside a scalar section, not inside an iterable one', () => {
      const partials: Record<string, string> = { card: '[{{name}}]' };
      const withPartials = { ...typed, partials: (n: string) => partials[n] };
      expect(() => compileTemplate('{{#items}}{{> card}}{{/items}}', withPartials)).not.toThrow();
      expect(() => compileTemplate('{{#focus}}{{> card}}{{/focus}}', withPartials)).toThrow(/'name'/);
    });

    it('reports a name once, at its first checked occurrence', () => {
      const error = compileError('{{#items}}{{x}}{{/items}}\n{{#focus}}{{x}}{{/focus}} {{x}}', typed);
      expect(problems(error)).toMatchObject([{ message: "undeclared argument 'x' in template (line 2, column 11)" }]);
    });

    it('keeps skipping names inside every section when iterableArguments is not given', () => {
      const untyped = { declaredArguments: typed.declaredArguments };
      expect(() => compileTemplate('{{#focus}}Focus on {{focsu}}{{/focus}}', untyped)).not.toThrow();
      expect(() => compileTemplate('{{#items}}{{id}} {{title}}{{/items}}', untyped)).not.toThrow();
      expect(() => compileTemplate('{{^focus}}{{focsu}}{{/focus}}', untyped)).toThrow(/'focsu'/);
    });

    it('checks a cached template against the iterable arguments of each acquire', () => {
      const cache = new TemplateCache();
      const source = '{{#tags}}{{label}}{{/tags}}';
      const declaredTags = new Set(['tags']);
      expect(() =>
        cache.acquire(source, { declaredArguments: declaredTags, iterableArguments: new Set(['tags']) }),
      ).not.toThrow();
      expect(() => cache.acquire(source, { declaredArguments: declaredTags, iterableArguments: new Set() })).toThrow(
        /'label'/,
      );
      expect(cache.size).toBe(1);
    });
  });

  it('names the partial and the position inside it when a name from a partial is undeclared', () => {
    const error = compileError('ok\n{{> p}}', { declaredArguments: declared, partials: () => 'text {{nope}}' });
    expect(problems(error)[0]).toMatchObject({
      message: "in partial 'p' (line 1, column 6 of the partial): undeclared argument 'nope' (line 2, column 1)",
      line: 2,
      column: 1,
    });
  });

  it('locates a name in an indented standalone partial as written, not as indented', () => {
    const partials: Record<string, string> = { list: '- {{code}}\n- {{nope}}\n' };
    const error = compileError('List:\n    {{> list}}\nEnd', {
      declaredArguments: declared,
      partials: (n) => partials[n],
    });
    expect(problems(error)[0]?.message).toBe(
      "in partial 'list' (line 2, column 3 of the partial): undeclared argument 'nope' (line 2, column 5)",
    );
  });

  it('names every partial on the way to a name from nested partials', () => {
    const partials: Record<string, string> = { outer: 'a\n  <{{> inner}}>', inner: '{{code}} {{nope}}' };
    const error = compileError('{{> outer}}', { declaredArguments: declared, partials: (n) => partials[n] });
    expect(problems(error)[0]?.message).toBe(
      "in partial 'outer' (line 2, column 4 of the partial): in partial 'inner' (line 1, column 10 of the partial): " +
        "undeclared argument 'nope' (line 1, column 1)",
    );
  });

  it("names the partial in the warning with undeclared: 'warn'", () => {
    const warnings: string[] = [];
    compileTemplate('{{> p}}', {
      declaredArguments: declared,
      partials: () => '{{extra}}',
      undeclared: 'warn',
      onWarning: (m) => warnings.push(m),
    });
    expect(warnings).toEqual([
      "in partial 'p' (line 1, column 1 of the partial): undeclared argument 'extra' (line 1, column 1)",
    ]);
  });

  it('does not count resource directives as arguments', () => {
    expect(() => compileTemplate('{{resource:docs://x}}', { declaredArguments: new Set() })).not.toThrow();
  });

  it("warns instead of failing with undeclared: 'warn'", () => {
    const warnings: string[] = [];
    const t = compileTemplate('{{code}} {{extra}}', {
      declaredArguments: declared,
      undeclared: 'warn',
      onWarning: (m) => warnings.push(m),
      source: 'a.json',
      pointer: '/messages/0/content',
    });
    expect(warnings).toEqual([
      "a.json: /messages/0/content: undeclared argument 'extra' in template (line 1, column 10)",
    ]);
    expect(t.render(toView({ code: 'c', extra: 'e' }))).toBe('c e');
  });

  it('does not check at all when declaredArguments is null', () => {
    expect(() => compileTemplate('{{anything}}', { declaredArguments: null })).not.toThrow();
  });
});

describe('mustache globals stay untouched', () => {
  const savedEscape = Mustache.escape;
  const savedTags = Mustache.tags;
  afterEach(() => {
    Mustache.escape = savedEscape;
    Mustache.tags = savedTags;
  });

  it('leaves a host app that renders HTML with Mustache.render escaping as before', () => {
    const html = '<p>{{name}}</p>';
    const before = Mustache.render(html, { name: '<script>&' });
    const ours = compileTemplate('<p>{{name}}</p>');
    expect(ours.render(toView({ name: '<script>&' }))).toBe('<p><script>&</p>');
    expect(Mustache.render(html, { name: '<script>&' })).toBe(before);
    expect(before).toBe('<p>&lt;script&gt;&amp;</p>');
    expect(Mustache.escape).toBe(savedEscape);
    expect(Mustache.tags).toEqual(['{{', '}}']);
  });

  it("does not put templates into mustache's global cache", () => {
    const source = `{{a}} unique ${Math.random()}`;
    compileTemplate(source).render(toView({ a: 1 }));
    expect(Mustache.templateCache?.get(`${source}:{{:}}`)).toBeUndefined();
  });

  it('is unaffected by a host that changes Mustache.escape', () => {
    Mustache.escape = () => 'ESCAPED';
    expect(compileTemplate('{{a}} {{{a}}}').render(toView({ a: '<b>' }))).toBe('<b> <b>');
  });

  it('is unaffected by a host that changes Mustache.tags', () => {
    Mustache.tags = ['<%', '%>'];
    const t = compileTemplate('{{a}} <%a%>');
    expect(t.render(toView({ a: 'x' }))).toBe('x <%a%>');
  });
});

describe('TemplateCache', () => {
  it('shares one compiled template between identical texts', () => {
    const cache = new TemplateCache();
    const a = cache.acquire('Hello {{name}}');
    const b = cache.acquire('Hello {{name}}');
    const c = cache.acquire('Bye {{name}}');
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(cache.size).toBe(2);
  });

  it('frees an entry with its last release', () => {
    const cache = new TemplateCache();
    const a = cache.acquire('{{x}}');
    cache.acquire('{{x}}');
    cache.release(a);
    expect(cache.size).toBe(1);
    cache.release(a);
    expect(cache.size).toBe(0);
    cache.release(a);
    expect(cache.size).toBe(0);
    expect(cache.acquire('{{x}}')).not.toBe(a);
  });

  it('retains a held template for one more holder, but not one it freed or whose partial changed', () => {
    const cache = new TemplateCache();
    const partials: Record<string, string> = { p: 'v1' };
    const lookup = (n: string): string | undefined => partials[n];
    const a = cache.acquire('[{{> p}}]', { partials: lookup });
    expect(cache.retain(a, lookup)).toBe(true);
    cache.release(a);
    expect(cache.size).toBe(1);
    partials.p = 'v2';
    expect(cache.retain(a, lookup)).toBe(false);
    cache.release(a);
    expect(cache.size).toBe(0);
    expect(cache.retain(a, lookup)).toBe(false);
  });

  it('is not shared between caches', () => {
    const one = new TemplateCache();
    const two = new TemplateCache();
    expect(one.acquire('{{x}}')).not.toBe(two.acquire('{{x}}'));
  });

  it('checks declared arguments on every acquire and takes no reference when the check fails', () => {
    const cache = new TemplateCache();
    cache.acquire('{{a}} {{b}}', { declaredArguments: new Set(['a', 'b']) });
    expect(() => cache.acquire('{{a}} {{b}}', { declaredArguments: new Set(['a']) })).toThrow(/'b'/);
    expect(() => cache.acquire('{{c}}', { declaredArguments: new Set() })).toThrow(/'c'/);
    expect(cache.size).toBe(1);
  });

  it('recompiles when a partial the cached template inlined has changed', () => {
    const cache = new TemplateCache();
    const partials: Record<string, string> = { p: 'v1 {{x}}' };
    const lookup = (n: string): string | undefined => partials[n];
    const first = cache.acquire('[{{> p}}]', { partials: lookup });
    expect(cache.acquire('[{{> p}}]', { partials: lookup })).toBe(first);
    partials.p = 'v2 {{x}}';
    const second = cache.acquire('[{{> p}}]', { partials: lookup });
    expect(second).not.toBe(first);
    expect(second.render(toView({ x: 1 }))).toBe('[v2 1]');
    expect(first.render(toView({ x: 1 }))).toBe('[v1 1]');
    expect(cache.size).toBe(2);
  });
});

describe('rendering is bounded by its budget', () => {
  it('stops {{#xs}}{{.}}{{/xs}} over a 1M-item array with LIMIT_EXCEEDED before writing an item', () => {
    const xs = Array.from({ length: 1_000_000 }, (_, i) => i);
    const budget = new RenderBudget(1_048_576);
    const error = thrownBy(() => compileTemplate('{{#xs}}{{.}}{{/xs}}').render(toView({ xs }), undefined, budget));
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.data).toEqual({ limit: 'maxRenderSteps', max: 1_048_576 });
    expect(budget.units).toBe(1_048_576);
  });

  it('stops an empty section body over a 2M-item array by counting repetitions', () => {
    const xs = new Array(2_000_000).fill(1);
    const error = thrownBy(() => compileTemplate('{{#xs}}{{/xs}}').render(toView({ xs })));
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.message).toMatch(/repeat more than 1048576 times/);
  });

  it('stops a joined list and a JSON value as they grow past the limit', () => {
    const list = Array.from({ length: 1_000_000 }, (_, i) => `item${i}`);
    expect(thrownBy(() => compileTemplate('{{list}}').render(toView({ list }))).code).toBe('LIMIT_EXCEEDED');
    const objects = list.map((name) => ({ name }));
    expect(thrownBy(() => compileTemplate('{{objects}}').render(toView({ objects }))).code).toBe('LIMIT_EXCEEDED');
  });

  it('bounds directive collection over huge arrays the same way', () => {
    const t = compileTemplate('{{#rows}}{{#cols}}{{resource:docs://x}}{{/cols}}{{/rows}}');
    const rows = new Array(5000).fill(1);
    expect(thrownBy(() => t.resourceDirectivesFor(toView({ rows, cols: rows }))).code).toBe('LIMIT_EXCEEDED');
  });

  it('stops nested sections whose bodies render nothing by counting the nodes they visit', () => {
    const xs = new Array(1000).fill(0);
    const t = compileTemplate(`{{#xs}}{{#xs}}${'{{e}}'.repeat(200)}{{/xs}}{{/xs}}`);
    const error = thrownBy(() => t.render(toView({ xs, e: '' })));
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.message).toBe('Template rendering takes more than 1048576 steps');
    expect(error.data).toEqual({ limit: 'maxRenderSteps', max: 1048576 });
  });

  it('renders about 1 MiB from 10,000 items with a few fields each within the default step limit', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      id: i,
      name: `customer-${i}`,
      title: `Senior account manager, northern and eastern sales region ${i % 7}`,
      tags: ['a', 'bb', 'ccc'],
      note: i % 2 ? 'vip' : '',
    }));
    const t = compileTemplate(
      '{{#rows}}- #{{id}} {{name}}, {{title}}{{#tags}} #{{.}}{{/tags}}{{#note}} ({{note}}){{/note}}{{^note}} (regular){{/note}}\n{{/rows}}',
    );
    expect(t.render(toView({ rows }))).toHaveLength(1_027_780);
  });

  it('counts the nodes directive collection visits against the same step limit', () => {
    const xs = new Array(1000).fill(0);
    const t = compileTemplate(`{{#xs}}{{#xs}}${'{{e}}'.repeat(200)}{{resource:docs://x}}{{/xs}}{{/xs}}`);
    expect(thrownBy(() => t.resourceDirectivesFor(toView({ xs }))).data).toEqual({
      limit: 'maxRenderSteps',
      max: 1048576,
    });
  });
});

describe('work a render certainly does is refused before it starts', () => {
  const MiB = 1_048_576;
  /** What a budget has used: steps, repetitions and UTF-16 units written. */
  const used = (b: RenderBudget): { steps: number; repeats: number; units: number } => ({
    steps: b.maxSteps - b.steps,
    repeats: b.maxBytes - b.repeats,
    units: b.maxBytes - b.units,
  });
  const xs = new Array(4999).fill(1);
  const partials: Record<string, string> = { cell: '{{#xs}}{{y}}{{/xs}}' };
  const shapes: [string, string, Record<string, unknown>][] = [
    ['nested sections over the same list', '{{#xs}}{{#xs}}{{y}}{{/xs}}{{/xs}}', { xs }],
    ['nested sections over different lists', '{{#xs}}{{#ys}}{{y}}{{/ys}}{{/xs}}', { xs, ys: xs }],
    ['three levels over a 200-item list', '{{#xs}}{{#xs}}{{#xs}}{{y}}{{/xs}}{{/xs}}{{/xs}}', { xs: xs.slice(0, 200) }],
    ['nested sections writing text', '{{#xs}}{{#xs}}ab{{/xs}}{{/xs}}', { xs }],
    ['an inverted section inside nested ones', '{{#xs}}{{#xs}}{{^y}}{{/y}}{{/xs}}{{/xs}}', { xs }],
    ['a list written as JSON inside a section over it', '{{#xs}}{{xs}}{{/xs}}', { xs }],
    [
      'an object written as JSON inside a section',
      '{{#xs}}{{o}}{{/xs}}',
      { xs, o: Object.fromEntries(xs.map((_, i) => [`k${i}`, i])) },
    ],
    [
      'sections over a string and an object inside nested ones',
      '{{#xs}}{{#s}}{{#o}}{{#xs}}{{y}}{{/xs}}{{/o}}{{/s}}{{/xs}}',
      { xs, s: 'x', o: { a: 1 } },
    ],
    ['a partial inside a section', '{{#xs}}{{> cell}}{{/xs}}', { xs }],
    [
      'items that own other names than the section',
      '{{#xs}}{{#xs}}{{y}}{{/xs}}{{/xs}}',
      { xs: xs.map(() => ({ y: 'v' })) },
    ],
    ['a long text many times', '{{#xs}}{{t}}{{/xs}}', { xs, t: 'x'.repeat(1000) }],
  ];

  for (const [what, source, args] of shapes) {
    it(`refuses ${what} before rendering any of it`, () => {
      const t = compileTemplate(source, { partials: (name) => partials[name] });
      const budget = new RenderBudget(MiB);
      expect(thrownBy(() => t.render(toView(args), undefined, budget)).code).toBe('LIMIT_EXCEEDED');
      expect(used(budget)).toEqual({ steps: 0, repeats: 0, units: 0 });
      const walk = new RenderBudget(MiB);
      if (t.resourceDirectives.length === 0) return;
      expect(thrownBy(() => t.resourceDirectivesFor(toView(args), walk)).code).toBe('LIMIT_EXCEEDED');
    });
  }

  it('refuses a directive repeated by a section, counting the document text, before writing it once', () => {
    const t = compileTemplate('{{#xs}}{{resource:docs://a}}{{/xs}}');
    const budget = new RenderBudget(MiB);
    const error = thrownBy(() =>
      t.render(toView({ xs: xs.slice(0, 20) }), new Map([['docs://a', 'd'.repeat(60_000)]]), budget),
    );
    expect(error.message).toBe('Rendered prompt exceeds 1048576 bytes');
    expect(used(budget)).toEqual({ steps: 0, repeats: 0, units: 0 });
  });

  it('refuses directive collection over nested sections before walking them', () => {
    const t = compileTemplate('{{#xs}}{{#xs}}{{resource:docs://a}}{{/xs}}{{/xs}}');
    const walk = new RenderBudget(MiB);
    expect(thrownBy(() => t.resourceDirectivesFor(toView({ xs }), walk)).code).toBe('LIMIT_EXCEEDED');
    expect(used(walk)).toEqual({ steps: 0, repeats: 0, units: 0 });
  });

  it('refuses sections over lists the items hold, each repeating a list known at the start, before rendering any of it', () => {
    const t = compileTemplate('{{#groups}}{{#ys}}{{#xs}}{{y}}{{/xs}}{{/ys}}{{/groups}}');
    const budget = new RenderBudget(MiB);
    const groups = Array.from({ length: 2500 }, () => ({ ys: [1, 2] }));
    expect(thrownBy(() => t.render(toView({ groups, xs: xs.slice(0, 2500) }), undefined, budget)).code).toBe(
      'LIMIT_EXCEEDED',
    );
    expect(used(budget)).toEqual({ steps: 0, repeats: 0, units: 0 });
  });

  it('refuses a section over a list an item holds when it starts, when the render could not count it before', () => {
    // A dotted name inside the items is not counted ahead; the section over it forecasts itself when it starts.
    const t = compileTemplate('{{#groups}}{{#g.ys}}{{#xs}}{{y}}{{/xs}}{{/g.ys}}{{/groups}}');
    const budget = new RenderBudget(MiB);
    const groups = [{ g: { ys: xs } }];
    expect(thrownBy(() => t.render(toView({ groups, xs }), undefined, budget)).code).toBe('LIMIT_EXCEEDED');
    expect(used(budget)).toEqual({ steps: 1 + 1 + 2, repeats: 1, units: 0 });
  });

  it('renders nested sections whose items shadow the outer list, counting only what they hold', () => {
    const t = compileTemplate('{{#xs}}[{{#xs}}{{.}}{{/xs}}]{{/xs}}');
    const items = xs.map((_, i) => ({ xs: [i % 10] }));
    expect(t.render(toView({ xs: items }))).toHaveLength(3 * 4999);
  });

  it('never refuses a render within its budget where an item, or the item holding a list, shadows a name', () => {
    const long = 'x'.repeat(500);
    const cases: [string, Record<string, unknown>][] = [
      // The holder of ys owns n: {{n}} inside is the holder's empty n, not the long one outside.
      [
        '{{#xs}}{{#ys}}{{n}}{{/ys}}{{/xs}}',
        {
          xs: [
            { ys: [1, 2], n: '' },
            { ys: [3], n: '' },
          ],
          n: long,
        },
      ],
      // The holder owns zs: the inner section is over its empty list, not the long one outside.
      ['{{#xs}}{{#ys}}{{#zs}}ab{{/zs}}{{/ys}}{{/xs}}', { xs: [{ ys: [1, 2], zs: [] }], zs: new Array(300).fill(1) }],
      // An item owns the name a section on the path to ys is opened by.
      [
        '{{#xs}}{{#f}}{{#ys}}{{n}}{{/ys}}{{/f}}{{/xs}}',
        { xs: [{ f: false, ys: [1, 2] }, { ys: [1] }], f: true, n: long },
      ],
      // A list item itself owns the name.
      ['{{#xs}}{{#ys}}{{n}}{{/ys}}{{/xs}}', { xs: [{ ys: [{ n: '' }, { n: '' }] }], n: long }],
      // A string owns its indices when a dotted name reads through one ({{0.length}} is 'a'.length inside 'ab').
      ['{{#xs}}{{#s}}{{0.length}}{{/s}}{{/xs}}', { xs: [1, 2], s: 'ab', 0: { length: long } }],
    ];
    for (const [source, args] of cases) {
      const t = compileTemplate(source);
      const open = new RenderBudget(1e9, 1e12);
      const text = t.render(toView(args), undefined, open);
      const need = used(open);
      const exact = new RenderBudget(Math.max(need.units, need.repeats, 1), Math.max(need.steps, 1));
      expect(t.render(toView(args), undefined, exact), source).toBe(text);
    }
  });

  it('never refuses a render that fits its budget (generated templates and values)', () => {
    let state = 7;
    const random = (n: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return Math.floor((state / 2147483648) * n);
    };
    // Few names, so items often own (shadow) a name a nested section or placeholder looks up.
    const names = ['a', 'b', '.', 'length'];
    const value = (level: number): unknown => {
      const kind = random(level > 2 ? 4 : 10);
      if (kind === 0) return 'tx'.repeat(random(3));
      if (kind === 1) return random(3);
      if (kind === 2) return random(2) === 0;
      if (kind === 3) return null;
      if (kind < 7) return Array.from({ length: random(6) }, () => value(level + 1));
      const o: Record<string, unknown> = {};
      for (const k of names.slice(0, 2)) if (random(2) === 0) o[k] = value(level + 1);
      return o;
    };
    const body = (level: number): string => {
      let out = '';
      for (let i = random(4); i > 0; i--) {
        const name = names[random(names.length)] as string;
        const kind = random(level > 3 ? 2 : 5);
        if (kind === 0) out += 'w';
        else if (kind === 1) out += `{{${name}}}`;
        else if (kind === 2) out += name === '.' ? '{{.}}' : `{{${name}.a}}`;
        else out += `{{${kind === 3 ? '#' : '^'}${name}}}${body(level + 1)}{{/${name}}}`;
      }
      return out;
    };
    let refused = 0;
    for (let i = 0; i < 6000; i++) {
      const t = compileTemplate(body(0));
      const view = toView({ a: value(0), b: value(0) });
      const open = new RenderBudget(1e9, 1e12);
      const text = t.render(view, undefined, open);
      const need = used(open);
      const maxBytes = random(60) + 1;
      const maxSteps = random(200) + 1;
      const tight = new RenderBudget(maxBytes, maxSteps);
      let result: string | undefined;
      try {
        result = t.render(view, undefined, tight);
      } catch (error) {
        expect((error as PromptError).code).toBe('LIMIT_EXCEEDED');
        refused++;
        expect(need.units > maxBytes || need.repeats > maxBytes || need.steps > maxSteps).toBe(true);
        continue;
      }
      expect(result).toBe(text);
      expect(need.units <= maxBytes && need.repeats <= maxBytes && need.steps <= maxSteps).toBe(true);
    }
    expect(refused).toBeGreaterThan(100);
  });
});

describe('deeply nested values', () => {
  function nestedArray(depth: number): unknown {
    let value: unknown = [];
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  }
  function nestedObject(depth: number): unknown {
    let value: unknown = { leaf: true };
    for (let i = 0; i < depth; i++) value = { next: value };
    return value;
  }

  it('renders values nested up to 100 levels as JSON, like JSON.stringify', () => {
    const value = { a: nestedArray(50), b: nestedObject(40), n: null, skip: undefined, f: Number.NaN };
    expect(compileTemplate('{{v}}').render(toView({ v: value }))).toBe(JSON.stringify(value));
  });

  it('answers LIMIT_EXCEEDED for a deeper array or object passed from code, never a stack overflow', () => {
    for (const v of [nestedArray(100_000), nestedObject(100_000)]) {
      const error = thrownBy(() => compileTemplate('{{v}}').render(toView({ v })));
      expect(error.code).toBe('LIMIT_EXCEEDED');
      expect(error.message).toBe('An argument value nests deeper than 100 levels');
    }
  });

  it('fails a value that refers to itself with a render error, not a transport crash', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(thrownBy(() => compileTemplate('{{v}}').render(toView({ v: cyclic }))).code).toBe('PROMPT_RENDER_FAILED');
  });

  it('never calls toJSON or getters of values passed from code', () => {
    let called = 0;
    const value = {
      plain: 1,
      toJSON: () => ((called += 1), 'replaced'),
      get secret() {
        called += 1;
        return 'getter';
      },
    };
    expect(compileTemplate('{{v}}').render(toView({ v: value }))).toBe('{"plain":1}');
    expect(called).toBe(0);
  });
});
