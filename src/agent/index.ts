/**
 * `mcp-prompt-kit/agent`: the `retrieve_mcp_prompt` tool for LLM agents connected to MCP servers, and the prompt's
 * messages as plain chat messages. Neither the MCP SDK nor OpenTelemetry is imported: both are recognised by shape.
 *
 * @module
 */
export { createPromptRetrievalTool } from './tool.js';
export type { PromptRetrievalTool, PromptRetrievalToolDefinition, PromptRetrievalToolOptions } from './tool.js';
export type { Integration, PromptSource, SdkClientLike, SourceCallOptions } from './sources.js';
export type { SpanLike, TracerLike } from './tracing.js';
export { toAnthropicMessages, toOpenAiMessages } from './messages.js';
export type { AnthropicContentBlock, AnthropicMessage, OpenAiChatMessage, OpenAiContentPart } from './messages.js';
export { toAiSdkTool, toAnthropicTool, toOpenAiTool } from './adapters.js';
export type { AnthropicTool, OpenAiFunctionTool } from './adapters.js';
