/**
 * `mcp-prompt-kit/mcp`: serve a PromptRegistry from an official MCP TypeScript SDK server (v1 or v2).
 * Neither SDK is imported: both are optional peer dependencies, recognised by shape.
 *
 * @module
 */
export { attachPrompts } from './attach.js';
export type { AttachPromptsOptions, DetachPrompts } from './attach.js';
export type { ElicitationOptions } from './elicit.js';
export { DEFAULT_DEBOUNCE_MS } from './notifier.js';
export { MAX_CACHE_TTL_MS } from './cache-hints.js';
export type { CacheHints, CacheScope } from './cache-hints.js';
export type { McpAuthInfo, McpRequestInfo } from './request-info.js';
export { completeFromResourceTemplates } from './resource-completion.js';
export type {
  CompleteResource,
  CompleteResourceParams,
  CompleteTemplateVariable,
  RegisteredResourceTemplateLike,
  ResourceTemplateLike,
} from './resource-completion.js';
export type { AttachableServer, SdkMcpServerLike, SdkServerLike, SdkVersion } from './server-shape.js';
export { attachResources } from './resources.js';
export type { AttachResourcesOptions, AttachedResources, ListedResource, ResourceSource } from './resources.js';
export { attachFunctions } from './functions.js';
export type { AttachFunctionsOptions, DetachFunctions, ToolListing } from './functions.js';
