import { describe, expect, expectTypeOf, it } from 'vitest';
import { definePrompt, parsePromptDefinition } from '../../src/definition/index.js';
import type { PromptArgs, PromptDefinition, RenderContext } from '../../src/definition/index.js';
import { PromptRegistry } from '../../src/registry/registry.js';

describe('definePrompt', () => {
  it('returns the definition unchanged', () => {
    const def = { name: 'greet', messages: [{ role: 'user' as const, content: 'Hello' }] };
    expect(definePrompt(def)).toBe(def);
  });

  it('gives render typed arguments inferred from the declarations', () => {
    const review = definePrompt({
      name: 'review-code',
      arguments: [
        { name: 'code', required: true, type: 'string' },
        { name: 'focus' },
        { name: 'count', type: 'integer' },
        { name: 'language', enum: ['ts', 'go'] },
        { name: 'tone', default: 'kind' },
        { name: 'strict', type: 'boolean', required: true },
      ],
      render(args) {
        // a required string argument is `string`
        expectTypeOf(args.code).toEqualTypeOf<string>();
        // an optional one is `string | undefined`
        expectTypeOf(args.focus).toEqualTypeOf<string | undefined>();
        // type 'integer' is a number
        expectTypeOf(args.count).toEqualTypeOf<number | undefined>();
        // an enum is the union of its literals
        expectTypeOf(args.language).toEqualTypeOf<'ts' | 'go' | undefined>();
        // an argument with a default is always present
        expectTypeOf(args.tone).toEqualTypeOf<string>();
        expectTypeOf(args.strict).toEqualTypeOf<boolean>();
        // @ts-expect-error an undeclared argument name is a type error
        void args.nope;
        return `Review ${args.code}`;
      },
    });
    type Args = Parameters<NonNullable<typeof review.render>>[0];
    expectTypeOf<Args>().toEqualTypeOf<
      PromptArgs<
        readonly [
          { readonly name: 'code'; readonly required: true; readonly type: 'string' },
          { readonly name: 'focus' },
          { readonly name: 'count'; readonly type: 'integer' },
          { readonly name: 'language'; readonly enum: readonly ['ts', 'go'] },
          { readonly name: 'tone'; readonly default: 'kind' },
          { readonly name: 'strict'; readonly type: 'boolean'; readonly required: true },
        ]
      >
    >();
    expectTypeOf(review.render).parameter(1).toEqualTypeOf<RenderContext>();
    expect(parsePromptDefinition(review).name).toBe('review-code');
  });

  it('types a prompt without arguments with an empty args object', () => {
    const plain = definePrompt({ name: 'hello', render: (args) => `hi ${Object.keys(args).length}` });
    expectTypeOf(plain).toExtend<PromptDefinition>();
    const withNothing = definePrompt({
      name: 'hello',
      render(args) {
        // @ts-expect-error no argument is declared
        void args.anything;
        return 'hi';
      },
    });
    expect(withNothing.name).toBe('hello');
  });

  it('rejects an invalid role at compile time', () => {
    type MessageOf<D> = D extends { messages: readonly (infer M)[] } ? M : never;
    expectTypeOf<MessageOf<Parameters<typeof definePrompt>[0]>['role']>().toEqualTypeOf<'user' | 'assistant'>();
    // tsc (npm run typecheck) fails this file if 'system' is ever accepted:
    const build = (): unknown =>
      definePrompt({
        name: 'p',
        // @ts-expect-error 'system' is not a role
        messages: [{ role: 'system', content: 'x' }],
      });
    expect(typeof build).toBe('function');
  });

  it('stays assignable to the untyped PromptDefinition that registries accept', () => {
    const typed = definePrompt({
      name: 'p',
      arguments: [{ name: 'code', required: true }],
      render: (args) => args.code,
    });
    const list: PromptDefinition[] = [typed];
    expect(list).toHaveLength(1);
  });
});

describe('definePrompt assignability (what registries accept)', () => {
  it('registers a prompt mixing a required string and an optional integer or boolean', () => {
    const registry = new PromptRegistry();
    registry.add(
      definePrompt({
        name: 's',
        arguments: [
          { name: 'text', required: true },
          { name: 'n', type: 'integer' },
          { name: 'b', type: 'boolean' },
        ],
        messages: [{ role: 'user', content: '{{text}} {{n}} {{b}}' }],
      }),
    );
    const typed = definePrompt({
      name: 't',
      arguments: [
        { name: 'text', required: true },
        { name: 'n', type: 'integer' },
      ],
      render: (args) => {
        expectTypeOf(args.text).toEqualTypeOf<string>();
        expectTypeOf(args.n).toEqualTypeOf<number | undefined>();
        return args.text;
      },
    });
    registry.add(typed);
    expect(registry.size).toBe(2);
  });

  it('types a standalone definition whose argument has a complete function', () => {
    const def = definePrompt({
      name: 'c',
      arguments: [{ name: 'lang', complete: (value) => ['go', 'rust'].filter((l) => l.startsWith(value)) }],
      render: (args) => {
        expectTypeOf(args.lang).toEqualTypeOf<string | undefined>();
        return `lang ${args.lang ?? 'any'}`;
      },
    });
    new PromptRegistry().add(def);
    expect(def.arguments?.[0]?.name).toBe('lang');
  });

  it('gives a prompt declared by inputSchema only a record of unknown arguments', async () => {
    const def = definePrompt({
      name: 'schema_only',
      inputSchema: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
      render: (args) => {
        expectTypeOf(args).toEqualTypeOf<Readonly<Record<string, unknown>>>();
        return `code: ${String(args['code'])}`;
      },
    });
    const registry = new PromptRegistry();
    registry.add(def);
    expect((await registry.getPrompt('schema_only', { code: 'x' })).messages[0]?.content).toEqual({
      type: 'text',
      text: 'code: x',
    });
  });
});
