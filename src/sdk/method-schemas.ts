/**
 * The schema objects the MCP SDKs register handlers by, built without importing either SDK or zod: shared by the
 * server adapter (request handlers) and the agent tool (a client's notification handler).
 *
 * @module
 * @internal
 */
/**
 * SDK v1 registers handlers by request schema: it reads the method literal from the schema's shape and parses each
 * request with it before calling the handler. It accepts Zod 3 schemas structurally (`shape.method` with
 * `_def.value`, and `safeParse`/`parse`); this object has that shape, with a parse that passes the request through.
 * That keeps this module free of zod and of a synchronous `require` of the SDK, and works with every v1 release.
 *
 * @internal A Zod-3-shaped schema object for `method` that passes messages through (SDK v1 handler registration).
 */
export function v1MethodSchema(method: string): object {
  const literal = { value: method, _def: { typeName: 'ZodLiteral', value: method } };
  return {
    shape: { method: literal },
    _def: { typeName: 'ZodObject' },
    parse: (request: unknown): unknown => request,
    safeParse: (request: unknown): { success: true; data: unknown } => ({ success: true, data: request }),
  };
}

/**
 * @internal A Standard Schema (v1) that accepts any params as they are, for SDK v2's `(method, {params}, handler)`
 * form.
 */
export const PASS_THROUGH_PARAMS = Object.freeze({
  '~standard': Object.freeze({
    version: 1 as const,
    vendor: 'mcp-prompt-kit',
    validate: (value: unknown): { value: unknown } => ({ value }),
  }),
});
