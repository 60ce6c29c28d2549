import { describe, expect, it } from 'vitest';
import { inexactMark, parseJsonBody } from '../../src/json-body.js';

describe('parsing a JSON body', () => {
  it('gives the value JSON.parse gives when every number is exact', () => {
    const text = '{"a":1,"b":[2.5,"x"],"c":{"d":null}}';
    expect(parseJsonBody(text)).toEqual(JSON.parse(text));
  });

  it('throws on text that is not JSON, as JSON.parse does', () => {
    expect(() => parseJsonBody('{"a":')).toThrow(SyntaxError);
  });

  it('marks each argument holding a number JSON.parse changed, with where inside it and why', () => {
    const body = parseJsonBody('{"big":12345678901234567890,"nested":{"x":[1,1e400]},"fine":3}') as Record<
      string,
      unknown
    >;
    expect(inexactMark(body['big'])).toMatchObject({ path: [] });
    expect(inexactMark(body['big'])?.message).toMatch(/different integer/);
    expect(inexactMark(body['nested'])).toMatchObject({ path: ['x', 1] });
    expect(inexactMark(body['nested'])?.message).toMatch(/beyond the range of a double/);
    expect(body['fine']).toBe(3);
    expect(inexactMark(body['fine'])).toBeUndefined();
  });

  it('marks only the entries of the object at the path asked about', () => {
    const text = '{"params":{"name":"p","arguments":{"n":9007199254740993}},"other":{"n":9007199254740993}}';
    const body = parseJsonBody(text, ['params', 'arguments']) as {
      params: { arguments: Record<string, unknown> };
      other: Record<string, unknown>;
    };
    expect(inexactMark(body.params.arguments['n'])).toBeDefined();
    expect(body.other['n']).toBe(9007199254740992);
  });

  it('leaves the value alone when the path leads to no object', () => {
    expect(parseJsonBody('{"params":[1e400]}', ['params', 'arguments'])).toEqual({ params: [Infinity] });
    expect(parseJsonBody('[1e400]')).toEqual([Infinity]);
  });
});
