/** The retrieval tool in the shapes common LLM APIs take. */
import type { JsonSchema } from '../types.js';
import type { PromptRetrievalTool, PromptRetrievalToolDefinition } from './tool.js';

/** OpenAI-style function tool (Chat Completions `tools`). */
export interface OpenAiFunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

/** Anthropic-style tool (Messages API `tools`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/**
 * The definition as an OpenAI-style function tool.
 *
 * @example
 * ```ts
 * const tool = createPromptRetrievalTool({ integrations: { docs: registry } });
 * await tool.refresh();
 * const tools = tool.definition === null ? [] : [toOpenAiTool(tool.definition)];
 * ```
 */
export function toOpenAiTool(definition: PromptRetrievalToolDefinition): OpenAiFunctionTool {
  return {
    type: 'function',
    function: { name: definition.name, description: definition.description, parameters: definition.inputSchema },
  };
}

/**
 * The definition as an Anthropic-style tool.
 *
 * @example
 * ```ts
 * const tool = createPromptRetrievalTool({ integrations: { docs: registry } });
 * await tool.refresh();
 * const tools = tool.definition === null ? [] : [toAnthropicTool(tool.definition)];
 * ```
 */
export function toAnthropicTool(definition: PromptRetrievalToolDefinition): AnthropicTool {
  return { name: definition.name, description: definition.description, input_schema: definition.inputSchema };
}

/**
 * A Vercel AI SDK `tool()`-compatible object, with the SDK's own `jsonSchema` helper passed in (so this package
 * needs no runtime dependency on `ai`): `tools: { retrieve_mcp_prompt: toAiSdkTool(tool, jsonSchema) }`.
 * Returns undefined when the tool has no definition (no integrations).
 *
 * @example
 * ```ts
 * import { jsonSchema } from 'ai';
 * import { createPromptRetrievalTool, toAiSdkTool } from 'mcp-prompt-kit/agent';
 *
 * const tool = createPromptRetrievalTool({ integrations: { docs: registry } });
 * await tool.refresh();
 * const aiTool = toAiSdkTool(tool, jsonSchema);
 * ```
 */
export function toAiSdkTool<S>(
  tool: PromptRetrievalTool,
  jsonSchema: (schema: JsonSchema) => S,
):
  | {
      description: string;
      inputSchema: S;
      execute: (input: unknown, options?: { abortSignal?: AbortSignal }) => Promise<string>;
    }
  | undefined {
  const definition = tool.definition;
  if (definition === null) return undefined;
  return {
    description: definition.description,
    inputSchema: jsonSchema(definition.inputSchema),
    execute: (input, options) =>
      tool.execute(input, options?.abortSignal === undefined ? {} : { signal: options.abortSignal }),
  };
}
