import { describe, expect, it } from 'vitest';
import { ERROR_TABLE, PromptError } from '../../src/errors.js';
import { buildErrorResponse, buildSuccessResponse, errorResponseFor, toCallToolResult } from '../../src/response.js';

describe('buildSuccessResponse', () => {
  it('wraps a single value as {result}', () => {
    expect(buildSuccessResponse([10])).toStrictEqual({ result: 10 });
  });

  it('numbers several values as result0, result1, ...', () => {
    expect(buildSuccessResponse([10, 'a', null])).toStrictEqual({ result0: 10, result1: 'a', result2: null });
  });

  it('returns an empty object when there are no values', () => {
    expect(buildSuccessResponse([])).toStrictEqual({});
  });

  it('keeps a single array value as one result instead of spreading it', () => {
    expect(buildSuccessResponse([[1, 2]])).toStrictEqual({ result: [1, 2] });
  });

  it('keeps an undefined value as null instead of dropping its key', () => {
    expect(JSON.stringify(buildSuccessResponse([10, undefined]))).toBe('{"result0":10,"result1":null}');
    expect(JSON.stringify(buildSuccessResponse([undefined]))).toBe('{"result":null}');
  });

  it('keeps every value JSON cannot represent (a function, a symbol, a toJSON answering undefined) as null', () => {
    expect(JSON.stringify(buildSuccessResponse([10, () => 1]))).toBe('{"result0":10,"result1":null}');
    expect(JSON.stringify(buildSuccessResponse([Symbol('s')]))).toBe('{"result":null}');
    expect(JSON.stringify(buildSuccessResponse([{ toJSON: () => undefined }, new Date(0)]))).toBe(
      '{"result0":null,"result1":"1970-01-01T00:00:00.000Z"}',
    );
  });

  it('builds the JSON data every transport sends: toJSON called at every depth, strings well-formed', () => {
    expect(buildSuccessResponse([{ at: [new Date(0)], 'k\uD800': 'v\uDC00', skip: undefined }])).toStrictEqual({
      result: { at: ['1970-01-01T00:00:00.000Z'], 'k\uFFFD': 'v\uFFFD' },
    });
  });

  it('accepts results nested 100 levels deep and refuses deeper ones, like other data from outside code', () => {
    const nest = (levels: number): unknown => {
      let value: unknown = 1;
      for (let i = 0; i < levels; i++) value = [value];
      return value;
    };
    expect(JSON.stringify(buildSuccessResponse([nest(100)]))).toContain('[1]');
    expect(() => buildSuccessResponse([nest(101)])).toThrow('nests deeper than 100 levels');
    expect(toCallToolResult({ result: nest(10_000) }).structuredContent).toStrictEqual({ error: 'Internal error' });
  });
});

describe('buildErrorResponse', () => {
  it('returns {error} without a data key when no data is given', () => {
    const body = buildErrorResponse('Invalid JSON body');
    expect(body).toStrictEqual({ error: 'Invalid JSON body' });
    expect(Object.keys(body)).toEqual(['error']);
  });

  it('adds data when it is given, even a falsy value', () => {
    expect(buildErrorResponse('bad', { missing_arguments: ['code'] })).toStrictEqual({
      error: 'bad',
      data: { missing_arguments: ['code'] },
    });
    expect(buildErrorResponse('bad', 0)).toStrictEqual({ error: 'bad', data: 0 });
  });

  it('always yields a non-empty error message, even for an empty or non-string message', () => {
    for (const message of ['', undefined, null, 42, { text: 'x' }]) {
      expect(buildErrorResponse(message as never)).toStrictEqual({ error: 'Internal error' });
    }
    expect(buildErrorResponse('', { n: 1 })).toStrictEqual({ error: 'Internal error', data: { n: 1 } });
  });

  it('treats a blank message like an empty one and replaces lone surrogates', () => {
    expect(buildErrorResponse(' \n\t ')).toStrictEqual({ error: 'Internal error' });
    expect(buildErrorResponse('bad \uD800')).toStrictEqual({ error: 'bad \uFFFD' });
  });

  it('leaves the data key out when data is undefined', () => {
    expect('data' in buildErrorResponse('bad', undefined)).toBe(false);
  });
});

describe('errorResponseFor', () => {
  it('uses the status and message of an exposed PromptError', () => {
    const response = errorResponseFor(new PromptError('PROMPT_NOT_FOUND', 'Unknown prompt: review-code'));
    expect(response).toStrictEqual({ status: 404, body: { error: 'Unknown prompt: review-code' } });
  });

  it('includes the data of an exposed PromptError', () => {
    const data = { missing_arguments: ['code'], provided_count: 0, required_count: 1 };
    const response = errorResponseFor(
      new PromptError('PROMPT_ARGUMENT_MISSING', 'Missing required prompt arguments', { data }),
    );
    expect(response).toStrictEqual({ status: 400, body: { error: 'Missing required prompt arguments', data } });
  });

  it('maps a size limit error to 413', () => {
    const response = errorResponseFor(new PromptError('LIMIT_EXCEEDED', 'Rendered prompt exceeds 10 bytes'));
    expect(response).toStrictEqual({ status: 413, body: { error: 'Rendered prompt exceeds 10 bytes' } });
  });

  it.each(['INTERNAL_ERROR', 'PROMPT_RENDER_FAILED', 'INVALID_PROMPT_DEFINITION'] as const)(
    'hides the message and data of %s behind "Internal error" with status 500',
    (code) => {
      const response = errorResponseFor(new PromptError(code, 'secret detail at /srv/app', { data: { secret: 1 } }));
      expect(response).toStrictEqual({ status: 500, body: { error: 'Internal error' } });
    },
  );

  it('maps an error that is not a PromptError to 500 "Internal error"', () => {
    expect(errorResponseFor(new TypeError('x is undefined'))).toStrictEqual({
      status: 500,
      body: { error: 'Internal error' },
    });
    expect(errorResponseFor('a thrown string')).toStrictEqual({ status: 500, body: { error: 'Internal error' } });
    expect(errorResponseFor(undefined)).toStrictEqual({ status: 500, body: { error: 'Internal error' } });
  });

  it('takes every status from the error table', () => {
    for (const [code, entry] of Object.entries(ERROR_TABLE)) {
      const response = errorResponseFor(new PromptError(code as keyof typeof ERROR_TABLE, 'message'));
      expect(response.status, code).toBe(entry.httpStatus);
      expect(response.body.error, code).toBe(entry.expose ? 'message' : entry.clientMessage);
    }
  });
});

describe('toCallToolResult', () => {
  it('puts exactly the HTTP success JSON in a single text block', () => {
    const result = toCallToolResult({ result: 10 });
    expect(result.content).toStrictEqual([{ type: 'text', text: '{"result":10}' }]);
    expect(result.content[0]?.text).toBe(JSON.stringify(buildSuccessResponse([10])));
  });

  it('keeps numbers as numbers in toCallToolResult', () => {
    const result = toCallToolResult({ result: 10 });
    expect(result.structuredContent).toStrictEqual({ result: 10 });
    expect(typeof result.structuredContent?.result).toBe('number');
    const parsed = JSON.parse(result.content[0]?.text ?? '') as { result: unknown };
    expect(parsed.result).toBe(10);
  });

  it('numbers several results like the HTTP response', () => {
    const result = toCallToolResult({ results: [10, 20] });
    expect(result.content[0]?.text).toBe('{"result0":10,"result1":20}');
    expect(result.structuredContent).toStrictEqual({ result0: 10, result1: 20 });
  });

  it('returns {} for a call with no results', () => {
    const result = toCallToolResult({ results: [] });
    expect(result.content[0]?.text).toBe('{}');
    expect(result.structuredContent).toStrictEqual({});
  });

  it('does not set isError on success', () => {
    expect(toCallToolResult({ result: 'ok' }).isError).toBeUndefined();
  });

  it('holds the same object in structuredContent as in the text block', () => {
    const value = { nested: { list: [1, 'two', true, null, -0] }, when: new Date(0) };
    const result = toCallToolResult({ result: value });
    expect(result.structuredContent).toStrictEqual(JSON.parse(result.content[0]?.text ?? ''));
    expect(result.structuredContent).toStrictEqual({
      result: { nested: { list: [1, 'two', true, null, 0] }, when: '1970-01-01T00:00:00.000Z' },
    });
  });

  it('returns the HTTP error JSON with isError true for an exposed error', () => {
    const error = new PromptError('PROMPT_NOT_FOUND', 'Unknown prompt: x');
    const result = toCallToolResult({ error });
    expect(result.isError).toBe(true);
    expect(result.content).toStrictEqual([{ type: 'text', text: '{"error":"Unknown prompt: x"}' }]);
    expect(result.content[0]?.text).toBe(JSON.stringify(errorResponseFor(error).body));
    expect(result.structuredContent).toStrictEqual({ error: 'Unknown prompt: x' });
  });

  it('includes the data of an exposed error in both text and structuredContent', () => {
    const data = { missing_arguments: ['code'], provided_count: 0, required_count: 1 };
    const result = toCallToolResult({ error: new PromptError('PROMPT_ARGUMENT_MISSING', 'Missing', { data }) });
    expect(JSON.parse(result.content[0]?.text ?? '')).toStrictEqual({ error: 'Missing', data });
    expect(result.structuredContent).toStrictEqual({ error: 'Missing', data });
  });

  it('keeps the message of a tool execution error (anything thrown that is not a PromptError)', () => {
    const result = toCallToolResult({ error: new Error('x must be a number') });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe('{"error":"x must be a number"}');
    expect(result.structuredContent).toStrictEqual({ error: 'x must be a number' });
  });

  it('shows only "Internal error" for a masked tool execution error and logs its class name only', () => {
    const logged: Record<string, unknown>[] = [];
    const result = toCallToolResult(
      { error: new TypeError('db password rejected') },
      { maskErrors: true, logger: { error: (fields) => logged.push(fields) } },
    );
    expect(result.content[0]?.text).toBe('{"error":"Internal error"}');
    expect(logged).toStrictEqual([{ event: 'tool_failed', code: 'INTERNAL_ERROR', error: 'TypeError' }]);
  });

  it('keeps a failed prompt render generic: internal PromptErrors never show their message', () => {
    const result = toCallToolResult({ error: new PromptError('PROMPT_RENDER_FAILED', 'template crashed on secret') });
    expect(result.content[0]?.text).toBe('{"error":"Internal error"}');
  });

  it('turns a result that cannot be serialized into an internal error instead of a malformed success', () => {
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    for (const value of [10n, cyclic]) {
      const result = toCallToolResult({ result: value });
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toBe('{"error":"Internal error"}');
    }
  });

  it('logs a result that cannot be serialized by its error class only', () => {
    const logged: Record<string, unknown>[] = [];
    const logger = { error: (fields: Record<string, unknown>) => logged.push(fields) };
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    const throwing = {
      toJSON: () => {
        throw new RangeError('secret');
      },
    };
    for (const value of [10n, cyclic, throwing]) {
      expect(toCallToolResult({ result: value }, { logger }).content[0]?.text).toBe('{"error":"Internal error"}');
    }
    expect(logged.map((fields) => fields['event'])).toEqual([
      'tool_result_invalid',
      'tool_result_invalid',
      'tool_result_invalid',
    ]);
    expect(logged[2]).toStrictEqual({ event: 'tool_result_invalid', error: 'RangeError' });
    expect(JSON.stringify(logged)).not.toContain('secret');
  });

  it('logs a thrown value that cannot even be read as a failed tool, by its class only', () => {
    const logged: Record<string, unknown>[] = [];
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('secret');
        },
      },
    );
    const result = toCallToolResult({ error: hostile }, { logger: { error: (fields) => logged.push(fields) } });
    expect(result.structuredContent).toStrictEqual({ error: 'Internal error' });
    expect(logged).toStrictEqual([{ event: 'tool_failed', code: 'INTERNAL_ERROR', error: 'Object' }]);
  });

  it('keeps the message but drops exposed error data that cannot be serialized, and logs it', () => {
    const logged: Record<string, unknown>[] = [];
    const error = new PromptError('INVALID_PARAMS', 'bad params', { data: { n: 1n } });
    const result = toCallToolResult({ error }, { logger: { error: (fields) => logged.push(fields) } });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe('{"error":"bad params"}');
    expect(logged).toStrictEqual([{ event: 'tool_result_invalid', error: 'TypeError' }]);
  });

  it('keeps a result key whose value JSON cannot represent, as null', () => {
    expect(toCallToolResult({ result: Symbol('s') }).content[0]?.text).toBe('{"result":null}');
    expect(toCallToolResult({ results: [() => 1, 2] }).structuredContent).toStrictEqual({ result0: null, result1: 2 });
  });

  it('never throws, even when reading the message of a thrown error throws', () => {
    const hostile = Object.defineProperty(new Error('x'), 'message', {
      get() {
        throw new Error('boom');
      },
    });
    const result = toCallToolResult({ error: hostile });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toStrictEqual({ error: 'Function failed' });
    const throwingToJson = {
      toJSON: () => {
        throw new Error('no');
      },
    };
    expect(toCallToolResult({ result: throwingToJson }).structuredContent).toStrictEqual({ error: 'Internal error' });
  });

  it('replaces lone surrogates in error messages, results and result keys', () => {
    expect(toCallToolResult({ error: new Error('bad \uD800') }).structuredContent).toStrictEqual({
      error: 'bad \uFFFD',
    });
    const result = toCallToolResult({ result: { 'k\uDC00': ['v\uD800', '\\ud800', '😀'] } });
    expect(result.structuredContent).toStrictEqual({ result: { 'k\uFFFD': ['v\uFFFD', '\\ud800', '😀'] } });
    expect(result.content[0]?.text).toBe(JSON.stringify(result.structuredContent));
  });

  it('treats an outcome with an error key as an error even when the error is undefined', () => {
    const result = toCallToolResult({ error: undefined });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toStrictEqual({ error: 'Function failed' });
  });
});
