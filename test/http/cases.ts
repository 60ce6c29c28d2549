/**
 * The rules every HTTP-like transport obeys (fetch, node:http, Express, Hono, CGI): one request, the status and the
 * JSON body it must get. Every runner serves {@link createCaseSource} on a loopback address (CGI: `SERVER_ADDR`
 * 127.0.0.1) and sends Host `127.0.0.1:<port>` unless a case names another.
 */
import { type FunctionRegistry, defineFunction } from '../../src/index.js';
import type { HttpHandlerOptions } from '../../src/http/index.js';
import { createExampleFunctions, createExampleRegistry } from '../../examples/functions/app.js';

export interface HttpCase {
  title: string;
  method: string;
  /** Below the base path. */
  path: string;
  contentType?: string;
  /** `host` replaces the runner's Host; `origin: 'same'` is the runner's own origin (`http://` + its Host). */
  headers?: { host?: string; origin?: string };
  body?: string | Uint8Array;
  status: number;
  /** The exact body text, when it is fixed ('' for HEAD). */
  text?: string;
  /** Checks on the parsed body. */
  check?: (body: Record<string, unknown>) => void;
  allow?: string;
  /** How many times `Ping` (every argument optional) ran for this request, when the case is about it. */
  pings?: number;
  /** Only where the handler sees the raw Host (node:http, Express, CGI): @hono/node-server answers 400 itself first. */
  rawHost?: true;
}

/** The example prompts and functions, plus `Ping`: no required argument, counts its runs. */
export function createCaseSource(): {
  prompts: ReturnType<typeof createExampleRegistry>;
  functions: FunctionRegistry;
  pings(): number;
} {
  const functions = createExampleFunctions();
  let runs = 0;
  functions.add(
    defineFunction({
      name: 'Ping',
      arguments: [{ name: 'note' }],
      run: () => ++runs,
    }),
  );
  return { prompts: createExampleRegistry(), functions, pings: () => runs };
}

const JSON_TYPE = 'application/json';

/** What a browser can send cross-site without a preflight: refused (415) before the body is read, nothing runs. */
const SIMPLE_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'];

export const HTTP_CASES: readonly HttpCase[] = [
  {
    title: 'lists prompts',
    method: 'GET',
    path: '/prompts',
    status: 200,
    check: (b) => expectPromptNames(b, ['explain_error', 'review_code', 'write_commit_message']),
  },
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
  {
    title: 'words missing function arguments for a function, with the same data',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: '{"x":1}',
    status: 400,
    text: '{"error":"Missing required function arguments","data":{"missing_arguments":["y"],"provided_count":1,"required_count":2}}',
  },
  {
    title: 'answers an unknown prompt with 404',
    method: 'POST',
    path: '/prompts/nope',
    contentType: JSON_TYPE,
    body: '{}',
    status: 404,
    text: '{"error":"Unknown prompt: nope"}',
  },
  {
    title: 'calls a function: Add {"x":7,"y":3} is {"result":10}',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: '{"x":7,"y":3}',
    status: 200,
    text: '{"result":10}',
  },
  {
    title: 'gives several results as result0, result1',
    method: 'POST',
    path: '/functions/DivMod',
    contentType: JSON_TYPE,
    body: '{"a":7,"b":2}',
    status: 200,
    text: '{"result0":3,"result1":1}',
  },
  {
    title: 'gives no result as {}',
    method: 'POST',
    path: '/functions/Remember',
    contentType: JSON_TYPE,
    body: '{"key":"k","note":"n"}',
    status: 200,
    text: '{}',
  },
  {
    title: 'answers wrongly typed function arguments with 400 and data',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: '{"x":"not_a_number","y":3}',
    status: 400,
    check: (b) => {
      if (b['error'] !== 'Function arguments do not conform to schema' || typeof b['data'] !== 'object')
        throw new Error(JSON.stringify(b));
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
      '{"error":"Function arguments do not conform to schema","data":{"error_type":"schema_validation_failed","details":' +
      '[{"argument":"x","keyword":"exactNumber","message":"would become a different integer (a double holds whole ' +
      'numbers exactly only up to ±9007199254740991)"}],"provided_count":2,"required_count":2}}',
  },
  {
    title: 'answers an error thrown by a function with 500 and its message',
    method: 'POST',
    path: '/functions/DivMod',
    contentType: JSON_TYPE,
    body: '{"a":1,"b":0}',
    status: 500,
    text: '{"error":"b must not be 0"}',
  },
  {
    title: 'answers an unknown function with 404',
    method: 'POST',
    path: '/functions/NonExistent',
    contentType: JSON_TYPE,
    body: '{}',
    status: 404,
    text: '{"error":"Function not found: NonExistent"}',
  },
  {
    title: 'answers invalid JSON with 400 Invalid JSON body',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: '{"x": 7,',
    status: 400,
    text: '{"error":"Invalid JSON body"}',
  },
  {
    title: 'answers invalid UTF-8 with 400 Invalid JSON body',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    status: 400,
    text: '{"error":"Invalid JSON body"}',
  },
  {
    title: 'answers a JSON body that is not an object with 400',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: '[7,3]',
    status: 400,
    text: '{"error":"The JSON body must be an object of arguments"}',
  },
  {
    title: 'answers a body that is not JSON with 415',
    method: 'POST',
    path: '/functions/Add',
    contentType: 'text/plain',
    body: 'x=7&y=3',
    status: 415,
    text: '{"error":"Content-Type must be application/json (UTF-8); got text/plain"}',
  },
  ...SIMPLE_TYPES.flatMap((type): HttpCase[] => [
    {
      title: `refuses an empty ${type.split(';')[0]} POST from another site with 403, running nothing`,
      method: 'POST',
      path: '/functions/Ping',
      contentType: type,
      headers: { origin: 'https://evil.example' },
      body: '',
      status: 403,
      pings: 0,
    },
    {
      title: `refuses an empty ${type.split(';')[0]} POST with 415, running nothing`,
      method: 'POST',
      path: '/functions/Ping',
      contentType: type,
      body: '',
      status: 415,
      pings: 0,
    },
  ]),
  {
    title: 'refuses a POST without a Content-Type, even an empty one, with 415',
    method: 'POST',
    path: '/functions/Ping',
    status: 415,
    text: '{"error":"Content-Type must be application/json (UTF-8); none was sent"}',
    pings: 0,
  },
  {
    title: 'refuses a JSON body declared in another charset with 415',
    method: 'POST',
    path: '/functions/Ping',
    contentType: 'application/json; charset=iso-8859-1',
    body: '{}',
    status: 415,
    pings: 0,
  },
  {
    title: 'refuses a list of content types with 415',
    method: 'POST',
    path: '/functions/Ping',
    contentType: 'application/json, text/plain',
    body: '{}',
    status: 415,
    pings: 0,
  },
  {
    title: 'runs a function on an empty application/json POST',
    method: 'POST',
    path: '/functions/Ping',
    contentType: JSON_TYPE,
    status: 200,
    pings: 1,
  },
  {
    title: 'takes application/json; charset=utf-8',
    method: 'POST',
    path: '/functions/Add',
    contentType: 'application/json; charset=UTF-8',
    body: '{"x":1,"y":2}',
    status: 200,
    text: '{"result":3}',
  },
  {
    title: 'takes a +json media type',
    method: 'POST',
    path: '/functions/Add',
    contentType: 'application/vnd.example+json',
    body: '{"x":1,"y":2}',
    status: 200,
    text: '{"result":3}',
  },
  {
    title: 'refuses a POST from a foreign Origin with 403, running nothing',
    method: 'POST',
    path: '/functions/Ping',
    contentType: JSON_TYPE,
    headers: { origin: 'https://evil.example' },
    body: '{}',
    status: 403,
    text: '{"error":"Origin not allowed: https://evil.example"}',
    pings: 0,
  },
  {
    title: 'refuses a GET from a foreign Origin with 403',
    method: 'GET',
    path: '/prompts',
    headers: { origin: 'http://evil.example:8080' },
    status: 403,
    text: '{"error":"Origin not allowed: http://evil.example:8080"}',
  },
  {
    title: 'refuses the opaque null Origin with 403',
    method: 'POST',
    path: '/functions/Ping',
    contentType: JSON_TYPE,
    headers: { origin: 'null' },
    body: '{}',
    status: 403,
    text: '{"error":"Invalid Origin header: null"}',
    pings: 0,
  },
  {
    title: 'serves a request from its own origin',
    method: 'POST',
    path: '/functions/Ping',
    contentType: JSON_TYPE,
    headers: { origin: 'same' },
    body: '{}',
    status: 200,
    pings: 1,
  },
  {
    title: 'refuses a foreign Host on a loopback connection with 403 (DNS rebinding)',
    method: 'GET',
    path: '/prompts',
    headers: { host: 'evil.example:8080' },
    status: 403,
    text: '{"error":"Invalid Host: evil.example"}',
  },
  {
    title: 'refuses a rebound POST with 403 before it runs',
    method: 'POST',
    path: '/functions/Ping',
    contentType: JSON_TYPE,
    headers: { host: 'evil.example', origin: 'http://evil.example' },
    body: '{}',
    status: 403,
    pings: 0,
  },
  {
    title: 'serves Host localhost on a loopback connection',
    method: 'GET',
    path: '/functions',
    headers: { host: 'localhost:9' },
    status: 200,
  },
  {
    title: 'answers HEAD on a GET route like GET, without a body',
    method: 'HEAD',
    path: '/prompts',
    status: 200,
    text: '',
  },
  {
    title: 'answers HEAD on the OpenAPI document without a body',
    method: 'HEAD',
    path: '/openapi.json',
    status: 200,
    text: '',
  },
  {
    title: 'answers HEAD on a missing prompt with 404, without a body',
    method: 'HEAD',
    path: '/prompts/nope',
    status: 404,
    text: '',
  },
  {
    title: 'answers HEAD on a POST-only route with 405 and Allow',
    method: 'HEAD',
    path: '/functions/Add',
    status: 405,
    allow: 'POST',
    text: '',
  },
  {
    title: 'answers a 2 MB body with 413',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: JSON.stringify({ x: 1, y: 2, pad: 'x'.repeat(2 * 1024 * 1024) }),
    status: 413,
    text: '{"error":"Request body exceeds 1048576 bytes"}',
  },
  {
    title: 'answers a 100,000-deep body with 400 naming the limit, not a crash',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)},"y":1}`,
    status: 400,
    check: (b) => expectDetail(b, { argument: 'x', keyword: 'maxDepth' }),
  },
  {
    title: 'answers a sent required argument over a limit with that limit, not as missing',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: JSON.stringify({ x: new Array(20_000).fill(0), y: 1 }),
    status: 400,
    check: (b) => expectDetail(b, { argument: 'x', keyword: 'maxItems' }),
  },
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
  {
    title: 'treats __proto__ in a body as plain data',
    method: 'POST',
    path: '/functions/Add',
    contentType: JSON_TYPE,
    body: '{"x":1,"y":2,"__proto__":{"polluted":true}}',
    status: 200,
    text: '{"result":3}',
  },
  {
    title: 'answers a wrong method on a known route with 405 and Allow',
    method: 'DELETE',
    path: '/prompts',
    status: 405,
    allow: 'GET, HEAD',
  },
  {
    title: 'lists GET, HEAD and POST in Allow for a prompt',
    method: 'PATCH',
    path: '/prompts/review_code',
    status: 405,
    allow: 'GET, HEAD, POST',
  },
  {
    title: 'answers a POST to a function list with 405 and Allow',
    method: 'PUT',
    path: '/functions/Add',
    status: 405,
    allow: 'POST',
  },
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
  if (detail?.argument !== expected.argument || detail.keyword !== expected.keyword)
    throw new Error(JSON.stringify(body).slice(0, 300));
}

function expectPromptNames(body: Record<string, unknown>, names: string[]): void {
  const got = ((body['result'] as { prompts: { name: string }[] }).prompts ?? []).map((p) => p.name);
  if (JSON.stringify(got) !== JSON.stringify(names)) throw new Error(`prompts: ${JSON.stringify(got)}`);
}

/** Options the {@link GATE_CASES} runners pass: a host list and an origin list. */
export const GATE_OPTIONS: HttpHandlerOptions = {
  allowedHosts: ['api.example', '127.0.0.1', '[::1]'],
  allowedOrigins: ['app.example', 'https://exact.example:8443'],
};

/** The Host and Origin rules with `allowedHosts` / `allowedOrigins` set ({@link GATE_OPTIONS}). */
export const GATE_CASES: readonly HttpCase[] = [
  {
    title: 'serves a listed Host, whatever its port',
    method: 'GET',
    path: '/functions',
    headers: { host: 'API.example:8443' },
    status: 200,
  },
  {
    title: 'refuses localhost when it is not listed',
    method: 'GET',
    path: '/functions',
    headers: { host: 'localhost' },
    status: 403,
    text: '{"error":"Invalid Host: localhost"}',
  },
  {
    title: 'refuses a Host that is not a host',
    method: 'GET',
    path: '/functions',
    headers: { host: 'a b' },
    status: 403,
    text: '{"error":"Invalid Host header: a b"}',
    rawHost: true,
  },
  {
    title: 'serves an Origin whose hostname is listed, any scheme and port',
    method: 'POST',
    path: '/functions/Ping',
    contentType: JSON_TYPE,
    headers: { origin: 'http://app.example:3000' },
    body: '{}',
    status: 200,
    pings: 1,
  },
  {
    title: 'serves an exactly listed origin',
    method: 'POST',
    path: '/functions/Ping',
    contentType: JSON_TYPE,
    headers: { origin: 'https://exact.example:8443' },
    body: '{}',
    status: 200,
    pings: 1,
  },
  {
    title: 'refuses a listed origin on another port',
    method: 'POST',
    path: '/functions/Ping',
    contentType: JSON_TYPE,
    headers: { origin: 'https://exact.example' },
    body: '{}',
    status: 403,
    text: '{"error":"Origin not allowed: https://exact.example"}',
    pings: 0,
  },
  {
    title: 'refuses a subdomain of a listed hostname',
    method: 'POST',
    path: '/functions/Ping',
    contentType: JSON_TYPE,
    headers: { origin: 'https://evil.app.example' },
    body: '{}',
    status: 403,
    pings: 0,
  },
];
