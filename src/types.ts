/**
 * MCP wire types for prompts (spec 2025-11-25, forward-compatible with 2026-07-28) and the JSON-RPC 2.0 shapes.
 *
 * These are plain structural types with no dependency on the MCP SDK; results built from them are assignable to
 * the SDK's own result types (a type-level test pins this).
 *
 * @module
 */

/** Arbitrary metadata attached to a protocol object (`_meta`). */
export type Meta = { [key: string]: unknown };

/** A JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema object (draft 2020-12 / draft-07 keywords; validated by ajv). */
export type JsonSchema = { [keyword: string]: unknown };

/** The sender or recipient of a message. The spec allows only these two; there is no "system" role. */
export type Role = 'user' | 'assistant';

/** An icon for display in a client's user interface. */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Optional hints to the client about how to use or display an object. */
export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

/** An argument a prompt accepts, as listed by `prompts/list`. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt as listed by `prompts/list`. */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
}

/** Text provided to or from an LLM. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** An image (base64 `data`). */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** Audio (base64 `data`). */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** A link to a resource the server can read; the client fetches it if it wants it. */
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
}

/** The text contents of a resource. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}

/** The binary contents of a resource (base64 `blob`). */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Meta;
}

/** A resource embedded into a message. */
export interface EmbeddedResource {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
}

/** One content block of a prompt message. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** One message of a prompt: a role and exactly ONE content block (not an array, not a bare string). */
export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

/** The result of `prompts/get`. */
export type GetPromptResult = {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
};

/** The result of `prompts/list`. */
export type ListPromptsResult = {
  prompts: Prompt[];
  nextCursor?: string;
  _meta?: Meta;
};

/** Parameters of `prompts/list`. */
export interface ListPromptsParams {
  cursor?: string;
  _meta?: Meta;
}

/** Parameters of `prompts/get`. The wire sends argument values as strings; HTTP callers may send typed JSON. */
export interface GetPromptParams {
  name: string;
  arguments?: { [name: string]: unknown };
  _meta?: Meta;
}

/** Parameters of `completion/complete` for a prompt argument. */
export interface CompleteParams {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: { [name: string]: string } };
  _meta?: Meta;
}

/** The result of `completion/complete`. */
export type CompleteResult = {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  _meta?: Meta;
};

/** A JSON-RPC request id. */
export type JsonRpcId = string | number;

/** A JSON-RPC 2.0 request (or, without `id`, a notification). */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id?: JsonRpcId;
  method: string;
  params?: { [key: string]: unknown };
}

/** The error object of a JSON-RPC 2.0 error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC 2.0 success response. */
export interface JsonRpcSuccessResponse<R = unknown> {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: R;
}

/** A JSON-RPC 2.0 error response (`id` is null when the request's id could not be read). */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

/** A JSON-RPC 2.0 response. */
export type JsonRpcResponse<R = unknown> = JsonRpcSuccessResponse<R> | JsonRpcErrorResponse;
