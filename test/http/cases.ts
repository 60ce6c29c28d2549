/**
 * The rules every HTTP-like transport obeys (fetch, node:http, Express, Hono, CGI): one request, the status and the
 * JSON body it must get.
 */
export interface HttpCase {
  title: string;
  method: string;
  /** Below the base path. */
  path: string;
  contentType?: string;
  body?: string | Uint8Array;
  status: number;
  /** The exact body text, when it is fixed. */
  text?: string;
  /** Checks on the parsed body. */
  check?: (body: Record<string, unknown>) => void;
  allow?: string;
}

const JSON_TYPE = 'application/json';

export const HTTP_CASES: readonly HttpCase[] = [
  { title: 'lists prompts', method: 'GET', path: '/prompts', status: 200, check: (b) => expectPromptNames(b, ['explain_error', 'review_code', 'write_commit_message']) },
  {
    title: 'describes one prompt',
    method: 'GET',
    path: '/prompts/review_code',
    status: 200,
    check: (b) => {
      if ((b['result'] as { name?: string }).name !== 'review_code') throw new Error('wrong prompt');
    },
  },
  {
    title: 'renders a prompt from a JSON body, without HTML escaping',
    method: 'POST',
    path: '/prompts/review_code',
    contentType: JSON_TYPE,
    body: JSON.stringify({ code: 'a < b && c' }),
    status: 200,
    check: (b) => {
      const text = JSON.stringify(b);
      if (!text.includes('a < b && c')) throw new Error(`not rendered as is: ${text.slice(0, 200)}`);
    },
  },
  {
    title: 'answers missing prompt arguments with 400 and the -32602 data',
    method: 'POST',
    path: '/prompts/review_code',
    contentType: JSON_TYPE,
    body: '{}',
    status: 400,
    text: '{"error":"Missing required prompt arguments","data":{"missing_arguments":["code"],"provided_count":0,"required_count":1}}',
  },
  { title: 'answers an unknown prompt with 404', method: 'POST', path: '/prompts/nope', contentType: JSON_TYPE, body: '{}', status: 404, text: '{"error":"Unknown prompt: nope"}' },
  { title: 'calls a function: Add {"x":7,"y":3} is {"result":10}', method: 'POST', path: '/functions/Add', contentType: JSON_TYPE, body: '{"x":7,"y":3}', status: 200, text: '{"result":10}' },
  { title: 'gives several results as result0, result1', method: 'POST', path: '/functions/DivMod', contentType: JSON_TYPE, body: '{"a":7,"b":2}', status: 200, text: '{"result0":3,"result1":1}' },
  { title: 'gives no result as {}', method: 'POST', path: '/functions/Remember', contentType: JSON_TYPE, body: '{"key":"k","note":"n"}', status: 200, text: '{}' },
  {
    title: 'answers wrongly typed function arguments with 400 and data',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: '{"x":"not_a_number","y":3}',
    status: 400,
    check: (b) => {
      if (b['error'] !== 'Prompt arguments do not conform to schema' || typeof b['data'] !== 'object') throw new Error(JSON.stringify(b));
    },
  },
  {
    title: 'answers a body number JSON.parse would change with 400 naming the argument, never the changed result',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: '{"x":9007199254740993,"y":0}',
    status: 400,
    text:
      '{"error":"Prompt arguments do not conform to schema","data":{"error_type":"schema_validation_failed","details":' +
      '[{"argument":"x","keyword":"exactNumber","message":"would become a different integer (a double holds whole ' +
      'numbers exactly only up to ±9007199254740991)"}],"provided_count":2,"required_count":2}}',
  },
  { title: 'answers an error thrown by a function with 500 and its message', method: 'POST', path: '/functions/DivMod', contentType: JSON_TYPE, body: '{"a":1,"b":0}', status: 500, text: '{"error":"b must not be 0"}' },
  { title: 'answers an unknown function with 404', method: 'POST', path: '/functions/NonExistent', contentType: JSON_TYPE, body: '{}', status: 404, text: '{"error":"Function not found: NonExistent"}' },
  { title: 'answers invalid JSON with 400 Invalid JSON body', method: 'POST', path: '/functions/Add', contentType: JSON_TYPE, body: '{"x": 7,', status: 400, text: '{"error":"Invalid JSON body"}' },
  { title: 'answers invalid UTF-8 with 400 Invalid JSON body', method: 'POST', path: '/functions/Add', contentType: JSON_TYPE, body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), status: 400, text: '{"error":"Invalid JSON body"}' },
  { title: 'answers a JSON body that is not an object with 400', method: 'POST', path: '/functions/Add', contentType: JSON_TYPE, body: '[7,3]', status: 400, text: '{"error":"The JSON body must be an object of arguments"}' },
  { title: 'answers a body that is not JSON with 415', method: 'POST', path: '/functions/Add', contentType: 'text/plain', body: 'x=7&y=3', status: 415, text: '{"error":"Content-Type must be application/json"}' },
  { title: 'answers a 2 MB body with 413', method: 'POST', path: '/functions/Add', contentType: JSON_TYPE, body: JSON.stringify({ x: 1, y: 2, pad: 'x'.repeat(2 * 1024 * 1024) }), status: 413, text: '{"error":"Request body exceeds 1048576 bytes"}' },
  { title: 'answers a 100,000-deep body with 400, not a crash', method: 'POST', path: '/functions/Add', contentType: JSON_TYPE, body: `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)},"y":1}`, status: 400 },
  {
    title: 'answers a body with more than 1,000 arguments with 400 (a limit per request)',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: JSON.stringify({ x: 1, y: 2, ...Object.fromEntries(Array.from({ length: 999 }, (_, i) => [`e${i}`, 0])) }),
    status: 400,
    check: (b) => expectDetail(b, { argument: '', keyword: 'maxArguments' }),
  },
  {
    title: 'counts the array/object arguments of a body against one item budget',
    method: 'POST',
    path: '/prompts/review_code',
    contentType: JSON_TYPE,
    body: JSON.stringify({ code: 'x', a: new Array(6_000).fill(0), b: new Array(6_000).fill(0) }),
    status: 400,
    check: (b) => expectDetail(b, { argument: 'b', keyword: 'maxItems' }),
  },
  { title: 'treats __proto__ in a body as plain data', method: 'POST', path: '/functions/Add', contentType: JSON_TYPE, body: '{"x":1,"y":2,"__proto__":{"polluted":true}}', status: 200, text: '{"result":3}' },
  { title: 'answers a wrong method on a known route with 405 and Allow', method: 'DELETE', path: '/prompts', status: 405, allow: 'GET' },
  { title: 'answers a POST to a function list with 405 and Allow', method: 'PUT', path: '/functions/Add', status: 405, allow: 'POST' },
  {
    title: 'answers an unknown route with 404 JSON',
    method: 'GET',
    path: '/nothing/here',
    status: 404,
    check: (b) => {
      if (!/^Not found: (\/api)?\/nothing\/here$/.test(String(b['error']))) throw new Error(String(b['error']));
    },
  },
  {
    title: 'serves its OpenAPI document',
    method: 'GET',
    path: '/openapi.json',
    status: 200,
    check: (b) => {
      if (b['openapi'] !== '3.1.0') throw new Error('not OpenAPI 3.1');
    },
  },
];

function expectDetail(body: Record<string, unknown>, expected: { argument: string; keyword: string }): void {
  const detail = (body['data'] as { details?: { argument: string; keyword: string }[] } | undefined)?.details?.[0];
  if (detail?.argument !== expected.argument || detail.keyword !== expected.keyword) throw new Error(JSON.stringify(body).slice(0, 300));
}

function expectPromptNames(body: Record<string, unknown>, names: string[]): void {
  const got = ((body['result'] as { prompts: { name: string }[] }).prompts ?? []).map((p) => p.name);
  if (JSON.stringify(got) !== JSON.stringify(names)) throw new Error(`prompts: ${JSON.stringify(got)}`);
}
