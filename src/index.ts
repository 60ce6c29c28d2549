/**
 * mcp-prompt-kit core: prompt definitions, argument validation, rendering, the registry, protocol handlers and
 * response helpers. Runs in Node, browsers and edge runtimes (no `node:` imports, no SDK).
 *
 * Any new export added here becomes public API: named exports only.
 *
 * @module
 */
// MCP wire types (spec 2025-11-25) and JSON-RPC shapes.
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  CompleteParams,
  CompleteResult,
  ContentBlock,
  EmbeddedResource,
  GetPromptParams,
  GetPromptResult,
  Icon,
  ImageContent,
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcId,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccessResponse,
  JsonSchema,
  JsonValue,
  ListPromptsParams,
  ListPromptsResult,
  Meta,
  Prompt,
  PromptArgument,
  PromptMessage,
  ResourceLink,
  Role,
  TextContent,
  TextResourceContents,
} from './types.js';
// Logging (pino-style, silent by default).
export type { Logger, LogFn } from './logger.js';
// Errors: PromptError, JsonRpcError and the one table mapping codes to JSON-RPC, HTTP and client messages.
export {
  ERROR_TABLE,
  JSON_RPC_ERROR_CODES,
  JsonRpcError,
  PromptError,
  isPromptError,
  toPromptError,
} from './errors.js';
export type { ErrorTableEntry, PromptErrorCode, PromptErrorOptions } from './errors.js';
// Where embedded resources and image/audio files come from.
export type { AssetLoader, ResourceContents, ResourceReadContext, ResourceResolver } from './resources.js';
// Prompt definitions: types, parsing, legacy normalisation and the published JSON Schema.
export type {
  ArgumentType,
  ArgumentValue,
  CompletionContext,
  ContentTemplate,
  DefinitionProblem,
  InvalidDefinitionData,
  MediaContentTemplate,
  ProgrammaticPromptDefinition,
  PromptArgs,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptDefinitionBase,
  PromptMessageTemplate,
  RenderContext,
  RenderOutput,
  RequiredArgs,
  ResourceContentTemplate,
  ResourceLinkContentTemplate,
  SystemRolePolicy,
  TemplatePromptDefinition,
  TextContentTemplate,
} from './definition/types.js';
export {
  PROMPT_DEFINITION_SCHEMA_ID,
  argumentNameProblem,
  definePrompt,
  normalizeLegacyPrompt,
  parsePromptDefinition,
  promptDefinitionSchema,
  promptNameProblem,
} from './definition/index.js';
export type {
  LocatePointer,
  NormalizeLegacyPromptOptions,
  ParsePromptDefinitionOptions,
} from './definition/index.js';
// Argument validation (JSON Schema with ajv; -32602 data).
export {
  argumentFailureToPromptError,
  getArgumentSchema,
  validatePromptArguments,
} from './arguments/index.js';
export type {
  ArgumentTooLongData,
  ArgumentValidationFailure,
  ArgumentValidationOptions,
  ArgumentValidationResult,
  MissingArgumentsData,
  SchemaValidationData,
  SchemaValidationDetail,
} from './arguments/index.js';
// Templates and resources (mustache syntax, no HTML escaping, budgets).
export {
  DEFAULT_RENDER_LIMITS,
  compileTemplate,
  createMemoryResourceResolver,
  matchResourcePattern,
} from './render/index.js';
export type {
  CompileTemplateOptions,
  CompiledTemplate,
  MemoryResourceInput,
  MemoryResourceResolver,
  RenderLimits,
  ResourceErrorMode,
} from './render/index.js';
// The registry: compiled prompts, listing, get, completion, change events.
export { PromptRegistry } from './registry/index.js';
export type {
  CompletionValues,
  ListOptions,
  PromptRegistryOptions,
  RegisterOptions,
  RegistryChangeEvent,
  RequestContext,
} from './registry/index.js';
// Transport-agnostic protocol handlers (prompts/list, prompts/get, completion/complete).
export { createPromptHandlers, handleJsonRpc } from './protocol.js';
export type { HandlerExtra, PromptHandlers, PromptMethod } from './protocol.js';
// Response helpers: one JSON shape for every transport.
export {
  buildErrorResponse,
  buildSuccessResponse,
  errorResponseFor,
  formatPromptResult,
  toCallToolResult,
} from './response.js';
export type { CallToolResult, ErrorResponse, ErrorResponseBody, ToolErrorOptions, ToolOutcome } from './response.js';
// Prompt stores: the interface every store implements, the in-memory store, and keeping a registry in step with one.
export { SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION, createMemoryPromptStore, syncRegistry } from './stores/index.js';
export type {
  PromptStore,
  RegistrySnapshotStorage,
  RegistrySync,
  RegistrySyncHealth,
  StoreChangeEvent,
  StoreReadOptions,
  StoreRevisions,
  StoreRevisionsOptions,
  StoredPrompt,
  SyncRegistryOptions,
} from './stores/index.js';
// Functions: plain functions validated like prompts, answered as {"result": …} over MCP tools and HTTP.
export { FunctionRegistry, defineFunction } from './functions/index.js';
export type {
  CallFunctionOptions,
  FunctionContext,
  FunctionDefinition,
  FunctionListing,
  FunctionRegistryOptions,
  FunctionResults,
  SuccessBody,
} from './functions/index.js';
// Server telemetry: OpenTelemetry spans and metrics per MCP operation (the API module is passed in, never imported).
export { createTelemetry } from './telemetry/index.js';
export type {
  OpenTelemetryApi,
  SyncLagSource,
  Telemetry,
  TelemetryAttributeValue,
  TelemetryAttributes,
  TelemetryContext,
  TelemetryCounter,
  TelemetryGetter,
  TelemetryHistogram,
  TelemetryInstrumentOptions,
  TelemetryMeter,
  TelemetryMeterProvider,
  TelemetryObservableGauge,
  TelemetryObservableResult,
  TelemetryOptions,
  TelemetrySpan,
  TelemetryTracer,
  TelemetryTracerProvider,
} from './telemetry/index.js';
// Example cases beside a prompt: read, run against a registry, diff expected and actual.
export { CASE_KEYS, DEFAULT_MAX_CASES, parsePromptCases, runPromptCases, unifiedDiff } from './cases/index.js';
export type {
  DiffOptions,
  ParsePromptCasesOptions,
  ParsedPromptCases,
  PromptCase,
  PromptCaseActualError,
  PromptCaseCheck,
  PromptCaseErrorExpectation,
  PromptCaseExpectations,
  PromptCaseFailure,
  PromptCaseReport,
  PromptCaseResult,
  PromptCaseStatus,
  PromptCaseSuite,
  PromptCaseTarget,
  PromptCaseText,
  RunPromptCasesOptions,
} from './cases/index.js';
