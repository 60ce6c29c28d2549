/** `retrieve_mcp_prompt`: a tool an LLM agent calls to fetch a prompt from one of its MCP integrations. */
import { runWithDeadline } from '../deadline.js';
import { detachedCopy } from '../encoding.js';
import { PromptError, echoed } from '../errors.js';
import { toSafeLogger } from '../logger.js';
import { TIMEOUT_MS, integerOption } from '../options.js';
import type { Logger } from '../logger.js';
import type { JsonSchema } from '../types.js';
import { toolDescription } from './description.js';
import { RetrievalError, errorCodeOf, messageOf } from './failure.js';
import { readListing } from './listing.js';
import type { Listing } from './listing.js';
import { checkCall, parseParams, readParams } from './params.js';
import { formatRetrievedPrompt } from './result.js';
import { toPromptSource } from './sources.js';
import type { Integration, PromptSource } from './sources.js';
import { NO_SPAN, startRetrievalSpan } from './tracing.js';
import type { TracerLike } from './tracing.js';

/** Options of {@link createPromptRetrievalTool}. */
export interface PromptRetrievalToolOptions {
  /** Integration id -> source: an MCP SDK Client (v1 or v2), a PromptRegistry, or `{getPrompt, listPrompts?}`. */
  integrations: Readonly<Record<string, Integration>>;
  /** pino-style logger: one `info` entry per retrieval (never argument values). */
  logger?: Logger;
  /** OpenTelemetry `Tracer` (from `@opentelemetry/api`): a client span per retrieval. */
  tracer?: TracerLike;
  /** How long one retrieval may take, in milliseconds (default 10,000). */
  timeoutMs?: number;
  /** Longest tool description, in characters (default 4,000): further prompts become "… and N more". */
  maxDescriptionLength?: number;
  /**
   * Longest tool result, in characters of its JSON text (default 100,000, at least 1,000): a message's content is cut
   * where it would not fit (it then carries `droppedCharacters`) and later messages are left out (counted in
   * `truncated`).
   */
  maxResultLength?: number;
  /** Most messages of a prompt read and returned (default 100); the rest are counted in `truncated`. */
  maxMessages?: number;
}

/** The tool as offered to a model: name, description, JSON Schema of its parameters. */
export interface PromptRetrievalToolDefinition {
  name: 'retrieve_mcp_prompt';
  description: string;
  inputSchema: JsonSchema;
}

/** What {@link createPromptRetrievalTool} returns. */
export interface PromptRetrievalTool {
  /** The definition, or `null` when there are no integrations (offer the tool only when it can work). */
  readonly definition: PromptRetrievalToolDefinition | null;
  /**
   * Runs one call with the model's parameters (an object, or the JSON string OpenAI-style APIs give); never throws or
   * rejects. Success is JSON text: `{"prompt", "description"?, "messages": [{"role", "content", "droppedCharacters"?}],
   * "truncated"?}`; failures are `Prompt retrieval failed: <message>` on one line.
   */
  execute(params: unknown, options?: { signal?: AbortSignal }): Promise<string>;
  /**
   * Lists every integration's prompts again (also done on each `list_changed`, at most one listing running and one
   * waiting per integration). Rejects with a PromptError (`INTERNAL_ERROR`) naming each integration whose listing
   * failed; those keep their last good listing.
   */
  refresh(): Promise<void>;
  /** Stops following list changes. */
  close(): void;
}

const TOOL_NAME = 'retrieve_mcp_prompt';

interface IntegrationState {
  id: string;
  source: PromptSource;
  /** The last good listing; undefined until one succeeds. */
  listing: Listing | undefined;
  /** Whether the last listing failed. */
  failed: boolean;
  /** The listing running now, and the one that will run after it (every request meanwhile joins that one). */
  running: Promise<void> | undefined;
  queued: Promise<void> | undefined;
  unsubscribe?: () => void;
}

/** @internal The tool's bounds when its options leave them out. */
export const DEFAULT_RETRIEVAL_LIMITS = Object.freeze({
  timeoutMs: 10_000,
  maxDescriptionLength: 4_000,
  maxResultLength: 100_000,
  maxMessages: 100,
});

/**
 * Creates the `retrieve_mcp_prompt` tool over an agent's MCP integrations. Its description lists each integration's
 * prompts and arguments (kept current on `list_changed`); `execute` validates the call, asks the integration, and
 * returns the prompt's messages as JSON, bounded in size. Everything an integration sends is treated as untrusted
 * data: names and descriptions are escaped and cut, messages cannot forge roles or boundaries.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
 * import { createPromptRetrievalTool } from 'mcp-prompt-kit/agent';
 *
 * const client = new Client({ name: 'agent', version: '1.0.0' });
 * await client.connect(new StdioClientTransport({ command: 'node', args: ['docs-server.js'] }));
 * const tool = createPromptRetrievalTool({ integrations: { docs: client } });
 * await tool.refresh();
 * const text = await tool.execute({ integrationId: 'docs', promptName: 'review_code', arguments: { code: 'x' } });
 * const { messages } = JSON.parse(text) as { messages: { role: 'user' | 'assistant'; content: string }[] };
 * ```
 */
export function createPromptRetrievalTool(options: PromptRetrievalToolOptions): PromptRetrievalTool {
  const owner = 'createPromptRetrievalTool';
  const log = toSafeLogger(options.logger);
  const timeoutMs = integerOption(owner, 'timeoutMs', options.timeoutMs, {
    ...TIMEOUT_MS,
    default: DEFAULT_RETRIEVAL_LIMITS.timeoutMs,
  });
  const maxDescription = integerOption(owner, 'maxDescriptionLength', options.maxDescriptionLength, {
    min: 1,
    default: DEFAULT_RETRIEVAL_LIMITS.maxDescriptionLength,
  });
  const limits = {
    maxResultLength: integerOption(owner, 'maxResultLength', options.maxResultLength, {
      min: 1000,
      default: DEFAULT_RETRIEVAL_LIMITS.maxResultLength,
    }),
    maxMessages: integerOption(owner, 'maxMessages', options.maxMessages, {
      min: 1,
      default: DEFAULT_RETRIEVAL_LIMITS.maxMessages,
    }),
  };
  const states = new Map<string, IntegrationState>();
  for (const [id, integration] of Object.entries(options.integrations)) {
    states.set(id, {
      id,
      source: toPromptSource(id, integration),
      listing: undefined,
      failed: false,
      running: undefined,
      queued: undefined,
    });
  }
  const ids = [...states.keys()];
  const closing = new AbortController();

  const tool = {
    definition: null as PromptRetrievalToolDefinition | null,
    execute: (params: unknown, callOptions: { signal?: AbortSignal } = {}) => execute(params, callOptions.signal),
    refresh: async () => {
      const list = [...states.values()];
      const outcomes = await Promise.allSettled(list.map(requestListing));
      const failures = outcomes.flatMap((o, i) =>
        o.status === 'rejected' ? [{ integrationId: list[i]!.id, error: o.reason as unknown }] : [],
      );
      if (failures.length === 0) return;
      const named = failures.map((f) => `'${f.integrationId}' (${messageOf(f.error)})`).join(', ');
      throw new PromptError(
        'INTERNAL_ERROR',
        `Could not list the prompts of integration${failures.length > 1 ? 's' : ''} ${named}`,
        {
          data: {
            failures: failures.map((f) => ({
              integrationId: f.integrationId,
              error: errorCodeOf(f.error),
              message: messageOf(f.error),
            })),
          },
          cause: failures[0]!.error,
        },
      );
    },
    close: () => {
      closing.abort();
      for (const state of states.values()) state.unsubscribe?.();
    },
  };

  const rebuildDefinition = (): void => {
    tool.definition =
      ids.length === 0
        ? null
        : {
            name: TOOL_NAME,
            description: toolDescription(
              [...states.values()].map((s) => ({
                id: s.id,
                lists: s.source.listPrompts !== undefined,
                listing: s.listing,
                failed: s.failed,
              })),
              maxDescription,
            ),
            inputSchema: inputSchema(ids),
          };
  };

  /** One listing, bounded by `timeoutMs` even for a source that ignores its signal; logged and rethrown on failure. */
  const listOnce = async (state: IntegrationState): Promise<void> => {
    const source = state.source;
    if (source.listPrompts === undefined || closing.signal.aborted) return;
    try {
      state.listing = await runWithDeadline(
        (signal) => readListing((cursor) => source.listPrompts!(cursor, { signal })),
        {
          signal: closing.signal,
          timeoutMs,
          timedOut: () => new RetrievalError(`listing timed out after ${timeoutMs} ms`, 'TIMEOUT'),
          cancelled: () => new RetrievalError('the tool was closed', 'ABORTED'),
        },
      );
      state.failed = false;
    } catch (error) {
      if (closing.signal.aborted) throw error; // closed meanwhile: nothing to report
      state.failed = true;
      log.warn(
        {
          event: 'prompt_listing_failed',
          integrationId: state.id,
          error: errorCodeOf(error),
          message: messageOf(error),
        },
        'integration could not list its prompts',
      );
      throw error;
    } finally {
      rebuildDefinition();
    }
  };

  /** At most one listing per integration runs; requests meanwhile share the one queued after it. */
  const requestListing = (state: IntegrationState): Promise<void> => {
    if (state.queued !== undefined) return state.queued;
    if (state.running === undefined) return start(state);
    const queued = state.running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        state.queued = undefined;
        return start(state);
      });
    state.queued = queued;
    return queued;
  };

  const start = (state: IntegrationState): Promise<void> => {
    const running = listOnce(state).finally(() => {
      if (state.running === running) state.running = undefined;
    });
    state.running = running;
    return running;
  };

  for (const state of states.values()) {
    try {
      state.unsubscribe = state.source.onListChanged?.(() => {
        // Failures are logged by the listing itself; a notification never leaves a rejection behind.
        if (!closing.signal.aborted) requestListing(state).catch(() => {});
      });
    } catch (error) {
      log.warn(
        {
          event: 'prompt_listing_failed',
          integrationId: state.id,
          error: errorCodeOf(error),
          message: messageOf(error),
        },
        'integration could not follow list changes',
      );
    }
  }
  rebuildDefinition();

  const execute = async (raw: unknown, signal: AbortSignal | undefined): Promise<string> => {
    const started = Date.now();
    let integrationId: string | undefined;
    let promptName: string | undefined;
    let span = NO_SPAN;
    const done = (fields: Record<string, unknown>, text: string): string => {
      log.info(
        {
          event: 'prompt_retrieval',
          integrationId: integrationId === undefined ? null : echoed(integrationId),
          promptName: promptName === undefined ? null : echoed(promptName),
          durationMs: Date.now() - started,
          ...fields,
        },
        'prompt retrieval',
      );
      return text;
    };
    try {
      const params = parseParams(raw);
      const fields = readParams(params);
      if (typeof fields?.integrationId === 'string') integrationId = fields.integrationId;
      if (typeof fields?.promptName === 'string') promptName = fields.promptName;
      const call = checkCall(fields, (id) => states.get(id), ids);
      const state = states.get(call.integrationId)!;
      span = startRetrievalSpan(options.tracer, call.promptName, state.id); // only around the MCP call
      const result = await runWithDeadline(
        (deadline) =>
          state.source.getPrompt(
            call.promptName,
            call.args,
            span.meta === undefined ? { signal: deadline } : { signal: deadline, meta: span.meta },
          ),
        {
          signal,
          timeoutMs,
          timedOut: () => new RetrievalError(`timed out after ${timeoutMs} ms`, 'TIMEOUT'),
          cancelled: () => new RetrievalError('aborted', 'ABORTED'),
        },
      );
      const { text, messageCount } = formatRetrievedPrompt(result, call.promptName, limits);
      span.end(undefined);
      span = NO_SPAN;
      return done({ status: 'success', messageCount, resultLength: text.length }, text);
    } catch (error) {
      const code = errorCodeOf(error);
      span.end(code);
      return done({ status: 'error', errorCode: code }, detachedCopy(`Prompt retrieval failed: ${messageOf(error)}`));
    }
  };

  return tool;
}

function inputSchema(ids: readonly string[]): JsonSchema {
  return {
    type: 'object',
    properties: {
      integrationId: {
        type: 'string',
        enum: [...ids],
        description: 'Which integration (MCP server) holds the prompt.',
      },
      promptName: { type: 'string', description: 'The name of the prompt, as listed in this tool description.' },
      arguments: {
        type: 'object',
        description: 'The prompt arguments by name; values are strings.',
        additionalProperties: { type: 'string' },
      },
    },
    required: ['integrationId', 'promptName'],
    additionalProperties: false,
  };
}
