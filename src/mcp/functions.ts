/**
 * `attachFunctions`: serves a {@link FunctionRegistry} as MCP tools from an official SDK server (v1 or v2), answering
 * in the same JSON format as the HTTP handlers; optionally also a registry's prompts as two tools.
 *
 * @module
 */
import { JsonRpcError, isPromptError, tableCodeOf } from '../errors.js';
import { operationsOf } from '../telemetry/telemetry.js';
import type { Failure, OperationInfo, Telemetry } from '../telemetry/telemetry.js';
import type { FunctionListing, SuccessBody } from '../functions/types.js';
import { functionNotFound } from '../functions/registry.js';
import type { FunctionRegistry } from '../functions/registry.js';
import { createPromptHandlers } from '../protocol.js';
import type { HandlerExtra, PromptHandlers, PromptMethod } from '../protocol.js';
import type { PromptRegistry } from '../registry/registry.js';
import { buildErrorResponse, errorResponseFor } from '../response.js';
import type { CallToolResult, ErrorResponseBody } from '../response.js';
import type { JsonSchema } from '../types.js';
import { isRecord } from '../json.js';
import { registerRequestHandler } from './register.js';
import { tracedHandler } from './telemetry.js';
import type { SdkRequest } from './register.js';
import { detectServer } from './server-shape.js';
import type { AttachableServer } from './server-shape.js';

/** Options of {@link attachFunctions}. */
export interface AttachFunctionsOptions {
  /**
   * Also serve these prompts as two tools, for clients that support tools but not prompts: `list_prompts`
   * (arguments `{cursor?}`, result `{"result": ListPromptsResult}`) and `get_prompt` (arguments `{name, arguments?}`,
   * result `{"result": GetPromptResult}`). Errors are tool results `{"error": …}` like the functions'.
   */
  prompts?: PromptRegistry;
  /** OpenTelemetry (from `createTelemetry`): a SERVER span and a duration per `tools/call` (docs/telemetry.md). */
  telemetry?: Telemetry;
}

/** Removes what {@link attachFunctions} added: the `tools/list` and `tools/call` handlers. */
export type DetachFunctions = () => void;

/** The MCP `Tool` entry of `tools/list`, defined here so the core stays free of the SDK. */
export type ToolListing = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
};

type ToolMethod = 'tools/list' | 'tools/call';

const LIST_PROMPTS = 'list_prompts';
const GET_PROMPT = 'get_prompt';

const PROMPT_TOOLS: readonly ToolListing[] = [
  {
    name: LIST_PROMPTS,
    title: 'List prompts',
    description:
      'Lists the prompts this server offers (name, description, arguments). Pass nextCursor back as cursor for the next page.',
    inputSchema: { type: 'object', properties: { cursor: { type: 'string' } } },
  },
  {
    name: GET_PROMPT,
    title: 'Get prompt',
    description: 'Renders one prompt with its arguments and returns its messages.',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, arguments: { type: 'object' } },
      required: ['name'],
    },
  },
];

function toolOf(listing: FunctionListing): ToolListing {
  const tool: ToolListing = { name: listing.name, inputSchema: listing.inputSchema };
  if (listing.title !== undefined) tool.title = listing.title;
  if (listing.description !== undefined) tool.description = listing.description;
  // Published only when declared: SDK v1 clients check even an error result's structuredContent against it.
  if (listing.declaredOutput) tool.outputSchema = listing.outputSchema;
  return tool;
}

function textResult(body: SuccessBody | ErrorResponseBody, isError: boolean, structured: boolean): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(body) }] };
  if (structured) result.structuredContent = body as { [key: string]: unknown };
  if (isError) result.isError = true;
  return result;
}

/** The table code behind each failed tool result this adapter made (for telemetry). */
const failedWith = new WeakMap<CallToolResult, string>();

function errorResult(error: unknown, structured: boolean): CallToolResult {
  const result = textResult(errorBody(error), true, structured);
  const code = tableCodeOf(error);
  if (code !== undefined) failedWith.set(result, code);
  return result;
}

/** How a tools/call that answered still failed: a result with `isError` is `error.type` `tool_error`. */
function toolOutcome(result: unknown): Failure | undefined {
  const r = result as CallToolResult | undefined;
  if (r?.isError !== true) return undefined;
  return { errorType: 'tool_error', code: failedWith.get(r) };
}

/** The error body of a failed call: a JsonRpcError from the prompt handlers is already client-safe. */
function errorBody(error: unknown): ErrorResponseBody {
  if (error instanceof JsonRpcError && !isPromptError(error)) return buildErrorResponse(error.message, error.data);
  return errorResponseFor(error).body;
}

class FunctionTools {
  readonly promptHandlers: PromptHandlers | undefined;

  constructor(
    readonly functions: FunctionRegistry,
    prompts: PromptRegistry | undefined,
  ) {
    this.promptHandlers = prompts === undefined ? undefined : createPromptHandlers(prompts);
  }

  list(): { tools: ToolListing[] } {
    const tools = this.functions.list().map(toolOf);
    if (this.promptHandlers !== undefined) tools.push(...PROMPT_TOOLS);
    return { tools };
  }

  async call(params: unknown, signal: AbortSignal | undefined): Promise<CallToolResult> {
    if (!isRecord(params) || typeof params['name'] !== 'string') {
      throw new JsonRpcError(-32602, 'params.name must be a string');
    }
    const name = params['name'];
    const args = params['arguments'];
    if (args !== undefined && args !== null && !isRecord(args)) {
      throw new JsonRpcError(-32602, 'params.arguments must be an object');
    }
    const listing = this.functions.get(name);
    if (listing === undefined && this.promptHandlers !== undefined && (name === LIST_PROMPTS || name === GET_PROMPT)) {
      return this.callPromptTool(name, args ?? {}, signal);
    }
    // Unknown tool: a protocol error (the spec's "Unknown tool"), mapped through the error table.
    if (listing === undefined) throw JsonRpcError.from(functionNotFound(name));
    try {
      const body = await this.functions.call(name, args, signal === undefined ? {} : { signal });
      return textResult(body, false, true);
    } catch (error) {
      return errorResult(error, !listing.declaredOutput);
    }
  }

  private async callPromptTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<CallToolResult> {
    const handlers = this.promptHandlers as PromptHandlers;
    const extra: HandlerExtra = signal === undefined ? {} : { signal };
    try {
      const result =
        name === LIST_PROMPTS
          ? await handlers['prompts/list'](args, extra)
          : await handlers['prompts/get'](args, extra);
      const body = { result };
      // The same JSON round trip as a function's body: exactly what an HTTP client would get.
      return textResult(JSON.parse(JSON.stringify(body)) as SuccessBody, false, true);
    } catch (error) {
      return errorResult(error, true);
    }
  }
}

/**
 * Serves functions as MCP tools: `tools/list` lists each function with its input JSON Schema (and its output schema
 * when the definition declares one); `tools/call` answers with one text block holding the JSON body
 * (`{"result":10}`, `{"result0":…}`, `{}`) and `structuredContent` holding the same object. Invalid arguments and
 * errors thrown by `run` are tool results with `isError: true` and `{"error": "…"}` (plus `data` for argument
 * errors), so a model can correct itself; an unknown tool is a JSON-RPC error (-32602 `Function not found: <name>`).
 * Works with SDK v1 and v2, `Server` or `McpServer` (one that registers no tools of its own); call it before
 * `connect()`. With `{prompts}` it also serves `list_prompts` and `get_prompt` tools.
 *
 * @returns `detach()`: removes the two handlers (the declared `tools` capability stays).
 *
 * @example
 * ```ts
 * import { Server } from '@modelcontextprotocol/sdk/server/index.js';
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { FunctionRegistry, defineFunction } from 'mcp-prompt-kit';
 * import { attachFunctions } from 'mcp-prompt-kit/mcp';
 *
 * const functions = new FunctionRegistry().add(defineFunction({
 *   name: 'Add',
 *   arguments: [{ name: 'x', type: 'number', required: true }, { name: 'y', type: 'number', required: true }],
 *   run: ({ x, y }) => x + y,
 * }));
 * const server = new Server({ name: 'calc', version: '1.0.0' });
 * attachFunctions(server, functions);
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function attachFunctions(
  server: AttachableServer,
  functions: FunctionRegistry,
  options: AttachFunctionsOptions = {},
): DetachFunctions {
  const target = detectServer(server);
  if (
    typeof (functions as Partial<FunctionRegistry> | null)?.call !== 'function' ||
    typeof functions.list !== 'function'
  ) {
    throw new TypeError('attachFunctions(server, functions): functions must be a FunctionRegistry');
  }
  const prompts = options.prompts;
  if (prompts !== undefined && typeof (prompts as Partial<PromptRegistry> | null)?.getPrompt !== 'function') {
    throw new TypeError('attachFunctions: options.prompts must be a PromptRegistry');
  }
  if (prompts !== undefined) {
    for (const name of [LIST_PROMPTS, GET_PROMPT]) {
      if (functions.has(name)) {
        throw new Error(`attachFunctions: a function is named '${name}', which the prompts option serves as a tool`);
      }
    }
  }
  if (target.server.transport !== undefined) {
    throw new Error(
      'attachFunctions: the server is already connected. Call attachFunctions() before server.connect(): the MCP SDK ' +
        'fixes the server capabilities (tools) when it connects.',
    );
  }
  const methods: ToolMethod[] = ['tools/list', 'tools/call'];
  for (const method of methods) {
    try {
      target.server.assertCanSetRequestHandler(method);
    } catch (cause) {
      throw new Error(
        `attachFunctions: the server already has a handler for ${method} (an McpServer that registered tools, or an ` +
          'earlier attachFunctions() whose detach() was not called); serve tools either through McpServer or here.',
        { cause },
      );
    }
  }
  const ops = operationsOf('attachFunctions', options.telemetry);
  target.server.registerCapabilities({ tools: {} });
  const tools = new FunctionTools(functions, prompts);
  /** The tool a tools/call names: a known one is the span's and the metric's target. */
  const describeCall = (params: unknown): Partial<OperationInfo> => {
    const name = (params as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string') return {};
    const known = functions.has(name) || (prompts !== undefined && (name === LIST_PROMPTS || name === GET_PROMPT));
    return known ? { toolName: name, target: name } : { toolName: name };
  };
  const handle = async (method: ToolMethod, read: () => SdkRequest): Promise<unknown> => {
    try {
      const { params, info } = read();
      if (method === 'tools/list') return tools.list();
      return await tools.call(params, info.signal);
    } catch (error) {
      throw JsonRpcError.from(error);
    }
  };
  const traceCall = (params: unknown, raw: unknown, serve: () => Promise<unknown>): Promise<unknown> =>
    tracedHandler(ops, target.sdk, target.server, 'tools/call', describeCall, serve, toolOutcome)(params, raw);
  const registered: ToolMethod[] = [];
  try {
    for (const method of methods) {
      // register.ts speaks the prompt methods' type; the registration itself is the same for any method name.
      registerRequestHandler(target.sdk, target.server, method as unknown as PromptMethod, (m, read) => {
        if (ops === undefined || method !== 'tools/call' || !ops.live())
          return handle(m as unknown as ToolMethod, read);
        let request: SdkRequest;
        try {
          request = read();
        } catch {
          return handle('tools/call', read);
        }
        return traceCall(request.params, request.info.raw, () => handle('tools/call', () => request));
      });
      registered.push(method);
    }
  } catch (error) {
    for (const method of registered) target.server.removeRequestHandler(method);
    throw error;
  }
  let detached = false;
  return () => {
    if (detached) return;
    detached = true;
    for (const method of registered) target.server.removeRequestHandler(method);
  };
}
