/** A prompt's messages as plain chat messages for OpenAI- and Anthropic-style APIs (images kept as image parts). */
import { describeContentWithin } from '../response.js';
import type { ContentBlock, GetPromptResult } from '../types.js';

/** OpenAI Chat Completions content parts. */
export type OpenAiContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** An OpenAI-style chat message. */
export interface OpenAiChatMessage {
  role: 'user' | 'assistant';
  content: string | OpenAiContentPart[];
}

/** Anthropic Messages content blocks. */
export type AnthropicContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

/** An Anthropic-style message. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

/** A block that is not an image, as the text `formatPromptResult` gives it. */
function describe(block: ContentBlock): string {
  return block.type === 'text' ? block.text : describeContentWithin(block, Infinity).text;
}

function roleOf(role: unknown): 'user' | 'assistant' {
  return role === 'assistant' ? 'assistant' : 'user';
}

/**
 * The prompt's messages for an OpenAI-style chat API: text stays text, a user's images become `image_url` parts (data
 * URLs), everything else (audio, embedded resources, resource links, an assistant's images, which the API refuses)
 * text describing it.
 *
 * @example
 * ```ts
 * const messages = toOpenAiMessages(await registry.getPrompt('review_code', { code: 'x' }));
 * ```
 */
export function toOpenAiMessages(result: GetPromptResult): OpenAiChatMessage[] {
  return result.messages.map((message) => {
    const block = message.content;
    if (block.type === 'image' && roleOf(message.role) === 'user') {
      return {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: `data:${block.mimeType};base64,${block.data}` } }],
      };
    }
    return { role: roleOf(message.role), content: describe(block) };
  });
}

/**
 * The prompt's messages for an Anthropic-style Messages API: text blocks, a user's images as base64 image blocks, and
 * a text block describing anything else (an assistant's images included: images are user content there).
 *
 * @example
 * ```ts
 * const messages = toAnthropicMessages(await registry.getPrompt('review_code', { code: 'x' }));
 * ```
 */
export function toAnthropicMessages(result: GetPromptResult): AnthropicMessage[] {
  return result.messages.map((message) => {
    const block = message.content;
    if (block.type === 'image' && roleOf(message.role) === 'user') {
      return {
        role: 'user',
        content: [{ type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } }],
      };
    }
    return { role: roleOf(message.role), content: [{ type: 'text', text: describe(block) }] };
  });
}
