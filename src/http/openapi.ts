/** The OpenAPI 3.1 document of the HTTP routes: exactly the bodies the handlers send. */
import { getArgumentSchema } from '../arguments/plan.js';
import { toSources } from './sources.js';
import type { HttpSource, Sources } from './sources.js';
import type { JsonSchema } from '../types.js';

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiOptions {
  title: string;
  version: string;
  /** `servers[0].url`, e.g. `https://api.example.com`. */
  serverUrl?: string;
  /** The handlers' base path (default `''`). */
  basePath?: string;
  /** The readiness route below the base path (`/readyz`), when the handler answers one (its `readiness` option). */
  readinessPath?: string;
}

type Json = Record<string, unknown>;

const nullable = (schema: Json): Json => ({ oneOf: [schema, { type: 'null' }] });

/** The readiness answer: `ready`, `reasons` when not, and the sync's health (RegistrySyncHealth). */
const READINESS: Json = {
  type: 'object',
  properties: {
    ready: { type: 'boolean' },
    reasons: { type: 'array', items: { type: 'string' } },
    status: { enum: ['ok', 'degraded', 'closed'] },
    source: { enum: ['store', 'snapshot'] },
    listening: { type: 'boolean' },
    prompts: { type: 'integer', minimum: 0 },
    lastApplied: nullable({
      type: 'object',
      properties: { prompt: { type: 'string' }, version: { type: 'integer' }, at: { type: 'integer' } },
    }),
    lastCheckedAt: nullable({ type: 'integer' }),
    lagMs: { type: 'integer', minimum: 0 },
    degradedSince: nullable({ type: 'integer' }),
    lastError: nullable({
      type: 'object',
      properties: { error: { type: 'string' }, code: nullable({ type: 'string' }), at: { type: 'integer' } },
    }),
    snapshotSavedAt: nullable({ type: 'integer' }),
  },
  required: ['ready'],
};

const ERROR_SCHEMA: Json = {
  type: 'object',
  properties: { error: { type: 'string' }, data: {} },
  required: ['error'],
};

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid JSON body or invalid arguments (`data` carries the -32602 details)',
  '403': 'Host or Origin not allowed (DNS rebinding, a cross-site request)',
  '404': 'Unknown prompt, function or route',
  '405': 'Method not allowed (see the Allow header)',
  '408': 'The request body arrived too slowly',
  '413': 'Request body or rendered prompt over the limit',
  '415': 'Content-Type is not application/json',
  '500': 'Internal error (details only in the server log)',
  '503': 'Request bodies in flight over the server budget: retry after Retry-After seconds',
};

const PROMPT_ARGUMENT: Json = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    required: { type: 'boolean' },
  },
  required: ['name'],
};
const PROMPT: Json = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    arguments: { type: 'array', items: { $ref: '#/components/schemas/PromptArgument' } },
  },
  required: ['name'],
};
const CONTENT_BLOCK: Json = {
  type: 'object',
  properties: { type: { enum: ['text', 'image', 'audio', 'resource', 'resource_link'] } },
  required: ['type'],
};
const GET_PROMPT_RESULT: Json = {
  type: 'object',
  properties: {
    description: { type: 'string' },
    messages: {
      type: 'array',
      items: {
        type: 'object',
        properties: { role: { enum: ['user', 'assistant'] }, content: { $ref: '#/components/schemas/ContentBlock' } },
        required: ['role', 'content'],
      },
    },
  },
  required: ['messages'],
};

function errors(): Json {
  const out: Json = {};
  for (const status of Object.keys(ERROR_STATUSES)) out[status] = { $ref: `#/components/responses/Error${status}` };
  return out;
}

function ok(description: string, schema: Json): Json {
  return { description, content: { 'application/json': { schema } } };
}

function result(schema: Json): Json {
  return { type: 'object', properties: { result: schema }, required: ['result'] };
}

function body(schema: JsonSchema): Json {
  return { required: false, content: { 'application/json': { schema } } };
}

/**
 * The OpenAPI 3.1 document of the HTTP routes for these sources: an operation per prompt and per function (request
 * body = its argument JSON Schema; 200 = the success body), the list and metadata routes, and every error status
 * referencing one shared error schema `{error, data?}`. `GET /openapi.json` serves it.
 *
 * @example
 * ```ts
 * const doc = createOpenApiDocument({ prompts: registry, functions }, { title: 'My API', version: '1.0.0' });
 * ```
 */
export function createOpenApiDocument(source: HttpSource, options: OpenApiOptions): Record<string, unknown> {
  return openApiDocument(toSources(source), options);
}

/** @internal The document for sources already split. */
export function openApiDocument(sources: Sources, options: OpenApiOptions): Json {
  const base = options.basePath ?? '';
  const paths: Json = {};
  const { prompts, functions } = sources;
  if (prompts !== undefined) {
    paths[`${base}/prompts`] = {
      get: {
        operationId: 'listPrompts',
        summary: 'List prompts (sorted by name; pass nextCursor back as cursor)',
        parameters: [{ name: 'cursor', in: 'query', required: false, schema: { type: 'string' } }],
        responses: {
          '200': ok(
            'A page of prompts',
            result({
              type: 'object',
              properties: {
                prompts: { type: 'array', items: { $ref: '#/components/schemas/Prompt' } },
                nextCursor: { type: 'string' },
              },
              required: ['prompts'],
            }),
          ),
          ...errors(),
        },
      },
    };
    for (const def of prompts.definitions()) {
      const schema = (def.inputSchema ?? getArgumentSchema(def.arguments)) as JsonSchema;
      paths[`${base}/prompts/${encodeURIComponent(def.name)}`] = {
        get: {
          operationId: `describePrompt_${def.name}`,
          summary: `The prompts/list entry of ${def.name}`,
          responses: { '200': ok('The prompt', result({ $ref: '#/components/schemas/Prompt' })), ...errors() },
        },
        post: {
          operationId: `getPrompt_${def.name}`,
          summary: def.description ?? `Render ${def.name}`,
          requestBody: body(schema),
          responses: {
            '200': ok('The rendered prompt', result({ $ref: '#/components/schemas/GetPromptResult' })),
            ...errors(),
          },
        },
      };
    }
  }
  if (functions !== undefined) {
    paths[`${base}/functions`] = {
      get: {
        operationId: 'listFunctions',
        summary: 'List functions',
        responses: { '200': ok('The functions', result({ type: 'array', items: { type: 'object' } })), ...errors() },
      },
    };
    for (const fn of functions.list()) {
      paths[`${base}/functions/${encodeURIComponent(fn.name)}`] = {
        post: {
          operationId: `call_${fn.name}`,
          summary: fn.description ?? fn.title ?? `Call ${fn.name}`,
          requestBody: body(fn.inputSchema),
          responses: { '200': ok('The function result', fn.outputSchema as Json), ...errors() },
        },
      };
    }
  }
  paths[`${base}/openapi.json`] = {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      responses: { '200': ok('OpenAPI 3.1', { type: 'object' }), ...errors() },
    },
  };
  if (options.readinessPath !== undefined) {
    const health = (description: string) => ({
      description,
      headers: { 'cache-control': { schema: { type: 'string', const: 'no-store' } } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } },
    });
    paths[`${base}${options.readinessPath}`] = {
      get: {
        operationId: 'readiness',
        summary: "Whether this replica serves a known-good set of prompts (the registry sync's health)",
        responses: { '200': health('Ready'), '503': health('Not ready: `reasons` says why') },
      },
    };
  }
  const responses: Json = {};
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    responses[`Error${status}`] = {
      description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const doc: Json = {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version },
    paths,
    components: {
      schemas: {
        Error: ERROR_SCHEMA,
        ...(options.readinessPath === undefined ? {} : { Readiness: READINESS }),
        Prompt: PROMPT,
        PromptArgument: PROMPT_ARGUMENT,
        ContentBlock: CONTENT_BLOCK,
        GetPromptResult: GET_PROMPT_RESULT,
      },
      responses,
    },
  };
  if (options.serverUrl !== undefined) doc['servers'] = [{ url: options.serverUrl }];
  return structuredClone(doc); // no shared constants reach the caller
}
