/**
 * Functions: plain functions with prompt-style argument declarations, served as MCP tools and HTTP endpoints in one
 * JSON format.
 *
 * @module
 */
export { defineFunction } from './define.js';
export { FunctionRegistry } from './registry.js';
export type { FunctionRegistryOptions } from './registry.js';
export type {
  CallFunctionOptions,
  FunctionContext,
  FunctionDefinition,
  FunctionListing,
  FunctionResults,
  SuccessBody,
} from './types.js';
