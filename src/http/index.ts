/**
 * `mcp-prompt-kit/http`: prompts and functions over HTTP (fetch and node handlers), CGI, and their OpenAPI document,
 * in the one JSON format: `{"result": …}` / `{"result0": …}` / `{}` on success, `{"error": "…", "data"?}` on failure.
 *
 * @module
 */
export { createFetchHandler } from './fetch.js';
export { createNodeHandler } from './node.js';
export { runCgi } from './cgi.js';
export type { CgiIo } from './cgi.js';
export { createOpenApiDocument } from './openapi.js';
export type { OpenApiOptions } from './openapi.js';
export type { HttpHandlerOptions } from './router.js';
export { createReadinessHandler } from './readiness.js';
export type { HealthSource, ReadinessOptions } from './readiness.js';
export type { HttpSource } from './sources.js';
