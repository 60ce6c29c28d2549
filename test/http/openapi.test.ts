import { dereference, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createExampleFunctions, createExampleRegistry } from '../../examples/functions/app.js';
import { createFetchHandler, createOpenApiDocument } from '../../src/http/index.js';
import { HTTP_CASES, createCaseSource } from './cases.js';

const source = () => ({ prompts: createExampleRegistry(), functions: createExampleFunctions() });
const caseSource = () => {
  const { prompts, functions } = createCaseSource();
  return { prompts, functions };
};

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> };

describe('createOpenApiDocument', () => {
  it('is a valid OpenAPI 3.1 document (checked by @readme/openapi-parser)', async () => {
    const doc = createOpenApiDocument(source(), {
      title: 'Example',
      version: '1.2.3',
      serverUrl: 'https://api.example.com',
    });
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(doc['servers']).toEqual([{ url: 'https://api.example.com' }]);
  });

  it('documents an operation per prompt and per function, each with 400 and 500 on the shared error schema', () => {
    const doc = createOpenApiDocument(source(), { title: 'Example', version: '1.0.0', basePath: '/api' });
    const paths = doc['paths'] as Record<string, Record<string, Operation>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/prompts',
        '/api/prompts/review_code',
        '/api/functions/Add',
        '/api/functions/DivMod',
        '/api/functions/Remember',
        '/api/openapi.json',
      ]),
    );
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const status of ['400', '403', '404', '405', '408', '413', '415', '500', '503']) {
          expect(operation.responses[status], `${method} ${path} ${status}`).toEqual({
            $ref: `#/components/responses/Error${status}`,
          });
        }
      }
    }
    expect((doc['components'] as { schemas: Record<string, unknown> }).schemas['Error']).toEqual({
      type: 'object',
      properties: { error: { type: 'string' }, data: {} },
      required: ['error'],
    });
    const add = paths['/api/functions/Add']!['post'] as unknown as {
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(add.requestBody.content['application/json']!.schema.required).toEqual(['x', 'y']);
  });

  it('describes every real response of the handlers, success and each error status', async () => {
    const doc = (await dereference(
      structuredClone(createOpenApiDocument(caseSource(), { title: 'Example', version: '1.0.0' })) as never,
    )) as unknown as {
      paths: Record<string, Record<string, Operation>>;
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const handle = createFetchHandler(caseSource());
    for (const c of HTTP_CASES.filter((c) => c.method !== 'HEAD')) {
      const headers: Record<string, string> = c.contentType === undefined ? {} : { 'content-type': c.contentType };
      if (c.headers?.origin !== undefined)
        headers['origin'] = c.headers.origin === 'same' ? 'http://x' : c.headers.origin;
      if (c.headers?.host !== undefined) headers['host'] = c.headers.host;
      const response = await handle(
        new Request(`http://x${c.path}`, {
          method: c.method,
          headers,
          ...(c.body === undefined ? {} : { body: c.body as BodyInit }),
        }),
      );
      const body: unknown = await response.json();
      const pathItem = doc.paths[c.path];
      // An undocumented route or method can only be a 404/405, answered with the shared error response.
      if (pathItem?.[c.method.toLowerCase()] === undefined) expect([404, 405], c.title).toContain(response.status);
      const operation = pathItem?.[c.method.toLowerCase()] ?? doc.paths['/openapi.json']!['get']!;
      const documented = operation.responses[String(response.status)];
      expect(documented, `${c.method} ${c.path} -> ${response.status} is not documented`).toBeDefined();
      const schema = documented!.content?.['application/json']?.schema;
      expect(schema, `${c.method} ${c.path} -> ${response.status} has no JSON schema`).toBeDefined();
      const check = ajv.compile(schema!);
      expect(check(body), `${c.title}: ${JSON.stringify(check.errors)}`).toBe(true);
    }
  });
});
