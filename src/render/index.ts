/**
 * The renderer: mustache templates compiled once and rendered without HTML escaping, plus `{{resource:URI}}`
 * directives resolved through a ResourceResolver, with render limits.
 *
 * @module
 */
export { TemplateCache, compileTemplate } from './template.js';
export type { CompileTemplateOptions, CompiledTemplate } from './template.js';
export { formatValue } from './values.js';
export { offsetToPosition } from './position.js';
export type { TextPosition } from './position.js';
export { DEFAULT_RENDER_LIMITS, assertRenderedSize, utf8ByteLength } from './limits.js';
export type { RenderLimits } from './limits.js';
export { compileResourcePattern, isResourcePattern, matchResourcePattern } from './pattern.js';
export { createMemoryResourceResolver } from './memory-resolver.js';
export type { MemoryResourceInput, MemoryResourceResolver } from './memory-resolver.js';
export { resolveEmbeddedResource, resolveResourceDirectives } from './directives.js';
export type { ResolveDirectivesOptions, ResolveEmbeddedOptions, ResourceErrorMode } from './directives.js';
