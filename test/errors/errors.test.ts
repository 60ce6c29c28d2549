import { describe, expect, it } from 'vitest';
import { ERROR_TABLE, PromptError, echoed, errorClassName, isPromptError, toPromptError } from '../../src/errors.js';
import type { PromptErrorCode } from '../../src/errors.js';

// The table of ../shared/ARCHITECTURE.md, row by row.
const architectureTable: [PromptErrorCode, number, number][] = [
  ['PROMPT_NOT_FOUND', -32602, 404],
  ['PROMPT_ARGUMENT_MISSING', -32602, 400],
  ['PROMPT_ARGUMENT_INVALID', -32602, 400],
  ['PROMPT_ARGUMENT_TOO_LONG', -32602, 400],
  ['INVALID_CURSOR', -32602, 400],
  ['INVALID_PARAMS', -32602, 400],
  ['RESOURCE_NOT_FOUND', -32602, 400],
  ['RESOURCE_DENIED', -32602, 400],
  ['LIMIT_EXCEEDED', -32602, 413],
  ['INVALID_PROMPT_DEFINITION', -32603, 500],
  ['PROMPT_RENDER_FAILED', -32603, 500],
  ['INTERNAL_ERROR', -32603, 500],
  ['METHOD_NOT_FOUND', -32601, 404],
  ['INVALID_REQUEST', -32600, 400],
  ['PARSE_ERROR', -32700, 400],
  ['FUNCTION_NOT_FOUND', -32602, 404],
  ['FUNCTION_FAILED', -32603, 500],
  ['METHOD_NOT_ALLOWED', -32601, 405],
  ['UNSUPPORTED_MEDIA_TYPE', -32600, 415],
  ['REQUEST_TIMEOUT', -32600, 408],
  ['SESSION_NOT_FOUND', -32001, 404],
  ['TOO_MANY_SESSIONS', -32000, 503],
  ['FUNCTION_ARGUMENT_MISSING', -32602, 400],
  ['FUNCTION_ARGUMENT_INVALID', -32602, 400],
  ['FUNCTION_ARGUMENT_TOO_LONG', -32602, 400],
  ['FORBIDDEN', -32000, 403],
  ['SERVER_BUSY', -32000, 503],
];

describe('PromptError and the error table', () => {
  it.each(architectureTable)('maps %s to JSON-RPC %i and HTTP %i', (code, rpc, http) => {
    const error = new PromptError(code, 'detail');
    expect([error.rpcCode, error.httpStatus]).toEqual([rpc, http]);
    expect([ERROR_TABLE[code].rpcCode, ERROR_TABLE[code].httpStatus]).toEqual([rpc, http]);
  });

  it('has exactly the rows of the architecture table', () => {
    expect(Object.keys(ERROR_TABLE).sort()).toEqual(architectureTable.map(([c]) => c).sort());
  });

  it('is frozen, rows included, so nothing can remap a code or expose internal detail at run time', () => {
    expect(Object.isFrozen(ERROR_TABLE)).toBe(true);
    for (const row of Object.values(ERROR_TABLE)) expect(Object.isFrozen(row)).toBe(true);
    expect(() => {
      (ERROR_TABLE.INTERNAL_ERROR as { expose: boolean }).expose = true;
    }).toThrow(TypeError);
    expect(new PromptError('INTERNAL_ERROR', 'db password').toJsonRpcError()).toEqual({
      code: -32603,
      message: 'Internal error',
    });
  });

  it('sends exposed errors with their message and data', () => {
    const error = new PromptError('PROMPT_ARGUMENT_MISSING', 'Missing required prompt arguments', {
      data: { missing_arguments: ['code'], provided_count: 0, required_count: 1 },
    });
    expect(error.toJsonRpcError()).toEqual({
      code: -32602,
      message: 'Missing required prompt arguments',
      data: { missing_arguments: ['code'], provided_count: 0, required_count: 1 },
    });
  });

  it.each(['INTERNAL_ERROR', 'PROMPT_RENDER_FAILED', 'INVALID_PROMPT_DEFINITION'] as const)(
    'hides the detail and data of %s behind a generic message',
    (code) => {
      const error = new PromptError(code, 'connection string postgres://user:secret@db', { data: { secret: 1 } });
      expect(error.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
      expect(error.clientMessage).toBe('Internal error');
      expect(error.message).toContain('secret');
    },
  );

  it('uses the table message when none is given', () => {
    expect(new PromptError('INVALID_CURSOR').message).toBe('Invalid cursor');
  });

  it('recognises a PromptError from another copy of the package by its brand', () => {
    const foreign = Object.assign(new Error('Unknown prompt: x'), {
      code: 'PROMPT_NOT_FOUND',
      [Symbol.for('mcp-prompt-kit.PromptError')]: true,
    });
    expect(foreign instanceof PromptError).toBe(false);
    expect(isPromptError(foreign)).toBe(true);
    expect(isPromptError(new PromptError('INTERNAL_ERROR'))).toBe(true);
    expect(isPromptError(Object.assign(new Error('x'), { code: 'PROMPT_NOT_FOUND' }))).toBe(false);
    expect(isPromptError(null)).toBe(false);
  });

  it("rebuilds a foreign PromptError through this copy's table, trusting only its code, message and data", () => {
    const brand = Symbol.for('mcp-prompt-kit.PromptError');
    const plain = { [brand]: true, code: 'PROMPT_NOT_FOUND', message: 'Unknown prompt: x' };
    const rebuilt = toPromptError(plain);
    expect(rebuilt).toBeInstanceOf(PromptError);
    expect(rebuilt.toJsonRpcError()).toEqual({ code: -32602, message: 'Unknown prompt: x' });
    const unknownCode = toPromptError({ [brand]: true, code: 'MADE_UP', message: 'secret detail', rpcCode: 1 });
    expect(unknownCode.toJsonRpcError()).toEqual({ code: -32603, message: 'Internal error' });
    const withData = toPromptError({
      [brand]: true,
      code: 'PROMPT_ARGUMENT_MISSING',
      message: 'Missing required prompt arguments',
      data: { missing_arguments: ['a'] },
    });
    expect(withData.toJsonRpcError().data).toEqual({ missing_arguments: ['a'] });
  });

  it('turns anything else thrown into INTERNAL_ERROR and keeps the cause', () => {
    const cause = new TypeError('boom');
    const error = toPromptError(cause);
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.cause).toBe(cause);
    expect(toPromptError('plain string').message).toBe('plain string');
    const original = new PromptError('PROMPT_NOT_FOUND', 'Unknown prompt: y');
    expect(toPromptError(original)).toBe(original);
  });

  it('serialises for logs with its code and detail', () => {
    expect(JSON.parse(JSON.stringify(new PromptError('INTERNAL_ERROR', 'db down')))).toEqual({
      name: 'PromptError',
      code: 'INTERNAL_ERROR',
      message: 'db down',
    });
  });
});

describe('PromptError: what a client sees is bounded', () => {
  it('cuts a long exposed message and long strings in its data at 1,024 characters, with an ellipsis', () => {
    const long = 'n'.repeat(100_000);
    const data = { details: [{ argument: long, message: 'ok' }], count: 1 };
    const error = new PromptError('PROMPT_ARGUMENT_INVALID', `bad ${long}`, { data });
    const wire = error.toJsonRpcError();
    expect(wire.message).toBe(`bad ${'n'.repeat(1_020)}…`);
    expect(wire.data).toEqual({ details: [{ argument: `${'n'.repeat(1_024)}…`, message: 'ok' }], count: 1 });
    expect(data.details[0]!.argument).toBe(long); // the caller's object is copied, never changed
  });

  it('never splits a surrogate pair where it cuts, and counts characters as code points', () => {
    const name = `${'a'.repeat(127)}\u{1F600}tail`;
    expect(echoed(name)).toBe(`${'a'.repeat(127)}\u{1F600}…`);
    expect(echoed('\u{1F600}'.repeat(128))).toBe('\u{1F600}'.repeat(128));
    const wire = new PromptError(
      'PROMPT_ARGUMENT_INVALID',
      `${'m'.repeat(1_023)}\u{1F600}${'m'.repeat(10)}`,
    ).toJsonRpcError();
    expect(wire.message).toBe(`${'m'.repeat(1_023)}\u{1F600}…`);
    for (const text of [echoed(name), wire.message]) expect(/\p{Cs}/u.test(text), 'a lone surrogate').toBe(false);
  });

  it('replaces a lone surrogate in quoted client input and in client messages with U+FFFD', () => {
    expect(echoed('ab\uD800c')).toBe('ab\uFFFDc');
    expect(echoed(`\uDC00${'x'.repeat(200)}`)).toBe(`\uFFFD${'x'.repeat(127)}…`);
    expect(new PromptError('PROMPT_NOT_FOUND', 'Unknown prompt: a\uD800').toJsonRpcError().message).toBe(
      'Unknown prompt: a\uFFFD',
    );
  });

  it('keeps short data as the same object and internal detail whole for the logs', () => {
    const data = { argument: 'code' };
    expect(new PromptError('PROMPT_ARGUMENT_INVALID', 'x', { data }).data).toBe(data);
    const detail = 'd'.repeat(5_000);
    expect(new PromptError('INTERNAL_ERROR', detail).message).toBe(detail);
  });
});

describe('errorClassName', () => {
  it('names a thrown value by its class, never by its message', () => {
    expect(errorClassName(new SyntaxError('Unexpected token "hunter2"'))).toBe('SyntaxError');
    expect(errorClassName(Object.assign(new Error('x'), { name: 'AbortError' }))).toBe('AbortError');
    expect(errorClassName(new (class QuotaError {})())).toBe('QuotaError');
    expect(errorClassName(new (class TokenStoreDown extends Error {})())).toBe('TokenStoreDown');
    expect(errorClassName('secret text')).toBe('string');
    expect(errorClassName(null)).toBe('null');
    expect(errorClassName(Object.create(null))).toBe('Object');
  });
});
