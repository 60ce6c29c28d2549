import { describe, expect, expectTypeOf, it } from 'vitest';
import { FunctionRegistry, defineFunction } from '../../src/functions/index.js';
import { PromptError } from '../../src/errors.js';

const add = defineFunction({
  name: 'Add',
  description: 'Adds two numbers',
  arguments: [
    { name: 'x', type: 'number', required: true },
    { name: 'y', type: 'number', required: true },
  ],
  run: ({ x, y }) => x + y,
});

async function rejection(promise: Promise<unknown>): Promise<PromptError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PromptError);
    return error as PromptError;
  }
  throw new Error('expected a rejection');
}

describe('FunctionRegistry', () => {
  it('answers one value as {"result": v}, keeping integers as numbers', async () => {
    const functions = new FunctionRegistry().add(add);
    expect(await functions.call('Add', { x: 7, y: 3 })).toStrictEqual({ result: 10 });
    expect(JSON.stringify(await functions.call('Add', { x: 7, y: 3 }))).toBe('{"result":10}');
  });

  it('coerces string arguments like prompt arguments', async () => {
    const functions = new FunctionRegistry().add(add);
    expect(await functions.call('Add', { x: '7', y: '3' })).toStrictEqual({ result: 10 });
  });

  it('gives run typed arguments inferred from the declarations', () => {
    defineFunction({
      name: 'typed',
      arguments: [
        { name: 'n', type: 'integer', required: true },
        { name: 'label', required: false },
        { name: 'mode', enum: ['a', 'b'], default: 'a' },
      ],
      run: (args) => {
        expectTypeOf(args.n).toEqualTypeOf<number>();
        expectTypeOf(args.label).toEqualTypeOf<string | undefined>();
        expectTypeOf(args.mode).toEqualTypeOf<'a' | 'b'>();
        // @ts-expect-error an undeclared argument is a type error
        void args.other;
        return args.n;
      },
    });
  });

  it("answers results: 'many' as result0, result1, … and keeps undefined items as null", async () => {
    const functions = new FunctionRegistry().add(
      defineFunction({
        name: 'DivMod',
        results: 'many',
        arguments: [
          { name: 'a', type: 'integer', required: true },
          { name: 'b', type: 'integer', required: true },
        ],
        run: ({ a, b }) => [Math.trunc(a / b), a % b, undefined],
      }),
    );
    expect(await functions.call('DivMod', { a: 17, b: 5 })).toStrictEqual({ result0: 3, result1: 2, result2: null });
  });

  it('keeps every result key when run returns values JSON cannot represent (null in their place)', async () => {
    const functions = new FunctionRegistry().add([
      defineFunction({ name: 'Many', results: 'many', run: () => [1, () => 2, 3] }),
      defineFunction({ name: 'One', run: () => Symbol('s') }),
    ]);
    expect(await functions.call('Many')).toStrictEqual({ result0: 1, result1: null, result2: 3 });
    expect(await functions.call('One')).toStrictEqual({ result: null });
    expect(functions.get('One')?.outputSchema['required']).toEqual(['result']);
  });

  it('answers well-formed strings: lone surrogates in results become U+FFFD', async () => {
    const functions = new FunctionRegistry().add(
      defineFunction({ name: 'Odd', run: () => ({ 'k\uD800': 'v\uDC00' }) }),
    );
    expect(await functions.call('Odd')).toStrictEqual({ result: { 'k\uFFFD': 'v\uFFFD' } });
  });

  it("answers an array returned with the default results: 'one' as ONE result", async () => {
    const functions = new FunctionRegistry().add(defineFunction({ name: 'pair', run: () => [1, 2] }));
    expect(await functions.call('pair', {})).toStrictEqual({ result: [1, 2] });
  });

  it("answers results: 'none' as {} and an undefined single result as null", async () => {
    let seen = '';
    const functions = new FunctionRegistry().add([
      defineFunction({
        name: 'Log',
        results: 'none',
        arguments: [{ name: 'message', required: true }],
        run: async ({ message }) => {
          seen = message;
        },
      }),
      defineFunction({ name: 'nothing', run: () => undefined }),
    ]);
    expect(await functions.call('Log', { message: 'hi' })).toStrictEqual({});
    expect(seen).toBe('hi');
    expect(await functions.call('nothing')).toStrictEqual({ result: null });
  });

  it('refuses an unknown function with FUNCTION_NOT_FOUND and a bounded message', async () => {
    const functions = new FunctionRegistry().add(add);
    const error = await rejection(functions.call('NonExistent', {}));
    expect([error.code, error.message, error.httpStatus]).toStrictEqual([
      'FUNCTION_NOT_FOUND',
      'Function not found: NonExistent',
      404,
    ]);
    const long = await rejection(functions.call('x'.repeat(100_000), {}));
    expect(long.message.length).toBeLessThan(200);
  });

  it('refuses invalid arguments with the prompt validator’s -32602 errors and data, worded for a function', async () => {
    const functions = new FunctionRegistry().add(add);
    const missing = await rejection(functions.call('Add', { x: 1 }));
    expect([missing.rpcCode, missing.httpStatus, missing.code, missing.message]).toEqual([
      -32602,
      400,
      'FUNCTION_ARGUMENT_MISSING',
      'Missing required function arguments',
    ]);
    expect(missing.data).toStrictEqual({ missing_arguments: ['y'], provided_count: 1, required_count: 2 });
    const invalid = await rejection(functions.call('Add', { x: 'not_a_number', y: 3 }));
    expect([invalid.code, invalid.message]).toEqual([
      'FUNCTION_ARGUMENT_INVALID',
      'Function arguments do not conform to schema',
    ]);
    expect(invalid.data).toMatchObject({ details: [{ argument: 'x', keyword: 'type' }] });
    const notObject = await rejection(functions.call('Add', [1, 2]));
    expect(notObject.rpcCode).toBe(-32602);
  });

  it('applies the argument length limit', async () => {
    const functions = new FunctionRegistry({ maxArgumentLength: 5 }).add(
      defineFunction({ name: 'echo', arguments: [{ name: 's', required: true }], run: ({ s }) => s }),
    );
    const error = await rejection(functions.call('echo', { s: 'abcdefgh' }));
    expect([error.code, error.message]).toEqual(['FUNCTION_ARGUMENT_TOO_LONG', "Argument 's' exceeds 5 characters"]);
  });

  it('bounds typed argument values like prompt arguments (depth, items)', async () => {
    let ran = false;
    const functions = new FunctionRegistry().add(
      defineFunction({
        name: 'count',
        arguments: [{ name: 'xs', type: 'array', required: true }],
        run: ({ xs }) => {
          ran = true;
          return xs.length;
        },
      }),
    );
    expect(await functions.call('count', { xs: [1, 2, 3] })).toStrictEqual({ result: 3 });
    ran = false;
    let deep: unknown = [];
    for (let i = 0; i < 200; i++) deep = [deep];
    expect((await rejection(functions.call('count', { xs: deep }))).rpcCode).toBe(-32602);
    expect((await rejection(functions.call('count', { xs: new Array(20_000).fill(0) }))).rpcCode).toBe(-32602);
    expect(ran).toBe(false);
  });

  it('turns an error thrown by run into FUNCTION_FAILED carrying its message', async () => {
    const warnings: unknown[] = [];
    const functions = new FunctionRegistry({ logger: { warn: (fields) => warnings.push(fields) } }).add(
      defineFunction({
        name: 'fail',
        run: () => {
          throw new RangeError('x must be positive');
        },
      }),
    );
    const error = await rejection(functions.call('fail'));
    expect([error.code, error.clientMessage, error.httpStatus]).toStrictEqual([
      'FUNCTION_FAILED',
      'x must be positive',
      500,
    ]);
    expect(warnings).toStrictEqual([
      { event: 'function_failed', function: 'fail', code: 'FUNCTION_FAILED', error: 'RangeError' },
    ]);
  });

  it('masks errors thrown by run with maskErrors, logging the class name only', async () => {
    const logged: unknown[] = [];
    const functions = new FunctionRegistry({
      maskErrors: true,
      logger: { error: (fields) => logged.push(fields) },
    }).add(
      defineFunction({
        name: 'fail',
        run: async () => {
          throw new Error('password=hunter2');
        },
      }),
    );
    const error = await rejection(functions.call('fail'));
    expect([error.code, error.clientMessage]).toStrictEqual(['INTERNAL_ERROR', 'Internal error']);
    expect(JSON.stringify(logged)).not.toContain('hunter2');
    expect(logged).toHaveLength(1);
  });

  it('passes a PromptError thrown by run through unchanged', async () => {
    const functions = new FunctionRegistry().add(
      defineFunction({
        name: 'limited',
        run: () => {
          throw new PromptError('LIMIT_EXCEEDED', 'Too many rows');
        },
      }),
    );
    const error = await rejection(functions.call('limited'));
    expect([error.code, error.message]).toStrictEqual(['LIMIT_EXCEEDED', 'Too many rows']);
  });

  it("hands run a signal that follows the caller's, and does not run an already aborted call", async () => {
    let ran = 0;
    let seen: AbortSignal | undefined;
    const functions = new FunctionRegistry().add(
      defineFunction({
        name: 'watch',
        run: (_args, context) => {
          ran++;
          seen = context.signal;
          return context.functionName;
        },
      }),
    );
    const controller = new AbortController();
    expect(await functions.call('watch', {}, { signal: controller.signal })).toStrictEqual({ result: 'watch' });
    expect(seen?.aborted).toBe(false);
    controller.abort();
    const error = await rejection(functions.call('watch', {}, { signal: controller.signal }));
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toBe("Function 'watch': request cancelled");
    expect(ran).toBe(1);
  });

  it('stops waiting for a run that never settles when the call is cancelled, aborting the signal run got', async () => {
    let seen: AbortSignal | undefined;
    const functions = new FunctionRegistry().add(
      defineFunction({
        name: 'hang',
        run: (_args, context) => ((seen = context.signal), new Promise<never>(() => {})),
      }),
    );
    const controller = new AbortController();
    const pending = rejection(functions.call('hang', {}, { signal: controller.signal }));
    controller.abort();
    expect((await pending).code).toBe('INTERNAL_ERROR');
    expect(seen?.aborted).toBe(true);
  });

  it('ends a run that takes longer than timeoutMs with FUNCTION_FAILED saying so', async () => {
    let seen: AbortSignal | undefined;
    const functions = new FunctionRegistry({ timeoutMs: 30 }).add(
      defineFunction({
        name: 'slow',
        run: (_args, context) => ((seen = context.signal), new Promise<never>(() => {})),
      }),
    );
    const error = await rejection(functions.call('slow'));
    expect(error.code).toBe('FUNCTION_FAILED');
    expect(error.message).toBe("Function 'slow' took longer than 30 ms");
    expect(seen?.aborted).toBe(true);
    expect(() => new FunctionRegistry({ timeoutMs: 0 })).toThrow(
      /FunctionRegistry: timeoutMs must be an integer of milliseconds from 1 to 2147483647, got 0/,
    );
  });

  it('refuses a result that is not JSON as an internal error, never a malformed success', async () => {
    const functions = new FunctionRegistry().add([
      defineFunction({ name: 'big', run: () => 10n }),
      defineFunction({ name: 'notArray', results: 'many', run: () => 1 }),
    ]);
    expect((await rejection(functions.call('big'))).clientMessage).toBe('Internal error');
    expect((await rejection(functions.call('notArray'))).code).toBe('INTERNAL_ERROR');
  });

  it('refuses broken definitions at registration, naming the problem, and adds nothing of the batch', () => {
    const functions = new FunctionRegistry();
    expect(() => functions.add({ name: '../x', run: () => 1 })).toThrow(/function name/);
    expect(() => functions.add({ name: 'ok', run: 5 } as never)).toThrow(/run must be a function/);
    expect(() => functions.add({ name: 'ok', results: 'all', run: () => 1 } as never)).toThrow(/results must be/);
    expect(() => functions.add({ name: 'ok', inputSchema: { type: 'array' }, run: () => 1 })).toThrow(/type: 'object'/);
    expect(() => functions.add({ name: 'ok', arguments: [{ name: 'p', pattern: '(?=a)' }], run: () => 1 })).toThrow(
      PromptError,
    );
    expect(() => functions.add([add, add])).toThrow(/already registered/);
    expect(functions.size).toBe(0);
  });

  it('refuses an argument declared required with a default at registration, plain or typed', () => {
    const functions = new FunctionRegistry();
    for (const argument of [
      { name: 'a', required: true, default: 'x' },
      { name: 'a', enum: ['x', 'y'], required: true, default: 'x' },
      { name: 'a', type: 'integer', required: true, default: 1 },
    ] as const) {
      expect(() => functions.add({ name: 'F', arguments: [argument], run: () => 1 })).toThrow(
        /required argument cannot have a default/,
      );
    }
    expect(functions.size).toBe(0);
  });

  it('applies the argument name rule to function arguments and inputSchema properties: invisible characters, NUL, NFC twins', () => {
    const problemsOf = (def: Parameters<FunctionRegistry['add']>[0]): unknown[] => {
      try {
        new FunctionRegistry().add(def);
      } catch (error) {
        return ((error as PromptError).data as { problems: unknown[] }).problems;
      }
      throw new Error('expected a definition error');
    };
    const properties = {
      'a\u202eb': { type: 'string' },
      'c\u200bd': {},
      'n\u0000': {},
      'caf\u00e9': {},
      'cafe\u0301': {},
    };
    expect(problemsOf({ name: 'F', inputSchema: { type: 'object', properties }, run: () => 1 })).toEqual([
      {
        path: '/inputSchema/properties/a\u202eb',
        message: expect.stringMatching(/must not contain invisible characters/),
      },
      {
        path: '/inputSchema/properties/c\u200bd',
        message: expect.stringMatching(/must not contain invisible characters/),
      },
      { path: '/inputSchema/properties/n\u0000', message: 'argument name must not contain control characters' },
      {
        path: '/inputSchema/properties/cafe\u0301',
        message: expect.stringMatching(
          /^duplicate argument name 'cafe\u0301' \(first declared at \/inputSchema\/properties\/caf\u00e9, as 'caf\u00e9'/,
        ),
      },
    ]);
    expect(
      problemsOf({
        name: 'G',
        arguments: [{ name: 'caf\u00e9' }, { name: 'cafe\u0301' }, { name: 'x\u3164' }],
        run: () => 1,
      }),
    ).toEqual([
      {
        path: '/arguments/1/name',
        message: expect.stringMatching(
          /^duplicate argument name 'cafe\u0301' \(first declared at \/arguments\/0, as 'caf\u00e9'/,
        ),
      },
      { path: '/arguments/2/name', message: expect.stringMatching(/must not contain invisible characters/) },
    ]);
  });

  it('lists name, description, input schema and the body schema', () => {
    const functions = new FunctionRegistry().add([
      add,
      defineFunction({
        name: 'Pair',
        results: 'many',
        outputSchema: { prefixItems: [{ type: 'integer' }, { type: 'string' }] },
        run: () => [1, 'a'],
      }),
    ]);
    expect(functions.list().map((f) => f.name)).toStrictEqual(['Add', 'Pair']);
    const listing = functions.get('Add');
    expect(listing).toMatchObject({
      name: 'Add',
      description: 'Adds two numbers',
      inputSchema: {
        type: 'object',
        properties: { x: { type: 'number' }, y: { type: 'number' } },
        required: ['x', 'y'],
      },
      outputSchema: { type: 'object', properties: { result: {} }, required: ['result'] },
      results: 'one',
    });
    expect(functions.get('Pair')?.outputSchema).toStrictEqual({
      type: 'object',
      properties: { result0: { type: 'integer' }, result1: { type: 'string' } },
      required: ['result0', 'result1'],
    });
    expect(functions.remove('Add')).toBe(true);
    expect(functions.get('Add')).toBeUndefined();
  });
});
