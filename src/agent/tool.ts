/** `retrieve_mcp_prompt`: a tool an LLM agent calls to fetch a prompt from one of its MCP integrations. */
import { runWithDeadline } from '../deadline.js';
import { inexactLiterals } from '../arguments/numbers.js';
import { echoed } from '../errors.js';
import { isRecord } from '../json.js';
import { toSafeLogger } from '../logger.js';
import type { Logger } from '../logger.js';
import { formatPromptResult } from '../response.js';
import type { JsonSchema, Prompt } from '../types.js';
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
   * rejects: failures are `Prompt retrieval failed: <message>`.
   */
  execute(params: unknown, options?: { signal?: AbortSignal }): Promise<string>;
  /** Lists every integration's prompts again (done at start and on each `list_changed`). */
  refresh(): Promise<void>;
  /** Stops following list changes. */
  close(): void;
}

const TOOL_NAME = 'retrieve_mcp_prompt';
const MAX_LIST_PAGES = 100;

interface IntegrationState {
  id: string;
  source: PromptSource;
  /** Known prompts by name once listed; undefined while unknown; null when listing failed. */
  prompts: Map<string, Prompt> | undefined | null;
  /** Bumped per listing started: a listing that finishes after a newer one is dropped. */
  generation: number;
  unsubscribe?: () => void;
}

class RetrievalError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Creates the `retrieve_mcp_prompt` tool over an agent's MCP integrations. Its description lists each integration's
 * prompts and arguments (kept current on `list_changed`); `execute` validates the call, asks the integration, and
 * returns the prompt as readable text.
 *
 * @example
 * ```ts
 * const tool = createPromptRetrievalTool({ integrations: { docs: client } });
 * await tool.refresh();
 * const text = await tool.execute({ integrationId: 'docs', promptName: 'review_code', arguments: { code: 'x' } });
 * ```
 */
export function createPromptRetrievalTool(options: PromptRetrievalToolOptions): PromptRetrievalTool {
  const log = toSafeLogger(options.logger);
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 2 ** 31 - 1) {
    throw new RangeError(`createPromptRetrievalTool: timeoutMs must be an integer from 1 to ${2 ** 31 - 1}`);
  }
  const maxDescription = options.maxDescriptionLength ?? 4000;
  const states = new Map<string, IntegrationState>();
  for (const [id, integration] of Object.entries(options.integrations)) {
    states.set(id, { id, source: toPromptSource(id, integration), prompts: undefined, generation: 0 });
  }
  const ids = [...states.keys()];
  let closed = false;

  const tool = {
    definition: null as PromptRetrievalToolDefinition | null,
    execute: (params: unknown, callOptions: { signal?: AbortSignal } = {}) => execute(params, callOptions.signal),
    refresh: async () => {
      await Promise.all([...states.values()].map(listIntegration));
      rebuildDefinition();
    },
    close: () => {
      closed = true;
      for (const state of states.values()) state.unsubscribe?.();
    },
  };

  const rebuildDefinition = (): void => {
    tool.definition = ids.length === 0 ? null : { name: TOOL_NAME, description: describe([...states.values()], maxDescription), inputSchema: inputSchema(ids) };
  };

  const listIntegration = async (state: IntegrationState): Promise<void> => {
    if (state.source.listPrompts === undefined) return;
    const generation = ++state.generation;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const found = new Map<string, Prompt>();
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const result = await state.source.listPrompts(cursor, { signal: controller.signal });
        for (const prompt of Array.isArray(result?.prompts) ? result.prompts : []) {
          if (isRecord(prompt) && typeof prompt.name === 'string') found.set(prompt.name, prompt);
        }
        cursor = typeof result?.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
        if (cursor === undefined) break;
      }
      if (generation === state.generation) state.prompts = found;
    } catch (error) {
      if (generation !== state.generation) return;
      state.prompts = null;
      log.warn({ event: 'prompt_listing_failed', integrationId: state.id, error: errorCodeOf(error) }, 'integration could not list its prompts');
    } finally {
      clearTimeout(timer);
    }
  };

  for (const state of states.values()) {
    state.unsubscribe = state.source.onListChanged?.(() => {
      if (closed) return;
      void listIntegration(state).then(rebuildDefinition);
    });
  }
  rebuildDefinition();

  const execute = async (raw: unknown, signal: AbortSignal | undefined): Promise<string> => {
    const started = Date.now();
    const params = parseParams(raw);
    const integrationId = isRecord(params) && typeof params['integrationId'] === 'string' ? params['integrationId'] : undefined;
    const promptName = isRecord(params) && typeof params['promptName'] === 'string' ? params['promptName'] : undefined;
    let span = NO_SPAN;
    const done = (fields: Record<string, unknown>, text: string): string => {
      log.info(
        { event: 'prompt_retrieval', integrationId: integrationId === undefined ? null : echoed(integrationId), promptName: promptName === undefined ? null : echoed(promptName), durationMs: Date.now() - started, ...fields },
        'prompt retrieval',
      );
      return text;
    };
    try {
      const call = checkCall(params, states, ids, typeof raw === 'string' ? inexactArguments(raw) : undefined);
      const args = call.args;
      span = startRetrievalSpan(options.tracer, call.promptName, call.state.id); // only around the MCP call
      const result = await runWithDeadline(
        (deadline) => call.state.source.getPrompt(call.promptName, args, span.meta === undefined ? { signal: deadline } : { signal: deadline, meta: span.meta }),
        {
          signal,
          timeoutMs,
          timedOut: () => new RetrievalError(`timed out after ${timeoutMs} ms`, 'TIMEOUT'),
          cancelled: () => new RetrievalError('aborted', 'ABORTED'),
        },
      );
      if (!isRecord(result) || !Array.isArray(result.messages)) throw new RetrievalError('the integration answered with something that is not a prompt', 'INVALID_RESULT');
      span.end(undefined);
      return done({ status: 'success', messageCount: result.messages.length }, formatPromptResult(result, call.promptName));
    } catch (error) {
      const code = errorCodeOf(error);
      span.end(code);
      return done({ status: 'error', errorCode: code }, `Prompt retrieval failed: ${messageOf(error)}`);
    }
  };

  return tool;
}

/** OpenAI-style APIs hand tool arguments over as a JSON string: parse it (an unparsable string is refused later). */
function parseParams(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** The arguments whose numbers JSON.parse changed in the parameters' JSON text, with why. */
function inexactArguments(text: string): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const { path, message } of inexactLiterals(text, ['arguments'])) {
    if (typeof path[0] === 'string') out.set(path[0], message);
  }
  return out;
}

/** Checks a call's parameters against what is configured and, where listed, what the integration offers. */
function checkCall(
  params: unknown,
  states: ReadonlyMap<string, IntegrationState>,
  ids: readonly string[],
  inexact: ReadonlyMap<string, string> | undefined,
): { state: IntegrationState; promptName: string; args: Record<string, string> } {
  if (!isRecord(params)) {
    const what = typeof params === 'string' ? 'a JSON object' : 'an object';
    throw new RetrievalError(`parameters must be ${what} with integrationId and promptName`, 'INVALID_PARAMS');
  }
  const id = params['integrationId'];
  if (typeof id !== 'string' || id === '') throw new RetrievalError('integrationId is required', 'INVALID_PARAMS');
  const state = states.get(id);
  if (state === undefined) {
    throw new RetrievalError(`unknown integration '${echoed(id)}' (known: ${ids.join(', ')})`, 'UNKNOWN_INTEGRATION');
  }
  const promptName = params['promptName'];
  if (typeof promptName !== 'string' || promptName === '') throw new RetrievalError('promptName is required', 'INVALID_PARAMS');
  const args = stringArguments(params['arguments'], inexact);
  const listed = state.prompts?.get(promptName);
  if (state.prompts instanceof Map && listed === undefined) {
    const known = [...state.prompts.keys()].sort();
    throw new RetrievalError(
      `unknown prompt '${echoed(promptName)}' in integration '${id}' (available: ${known.length === 0 ? 'none' : quotedNames(known)})`,
      'PROMPT_NOT_FOUND',
    );
  }
  const missing = (listed?.arguments ?? []).filter((a) => a.required === true && !Object.hasOwn(args, a.name)).map((a) => a.name);
  if (missing.length > 0) {
    throw new RetrievalError(`missing required arguments: ${quotedNames(missing)}`, 'INVALID_PARAMS');
  }
  return { state, promptName, args };
}

/** MCP prompt arguments are strings: numbers and booleans are coerced; objects, arrays and others refused. */
function stringArguments(value: unknown, inexact: ReadonlyMap<string, string> | undefined): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  if (value === undefined || value === null) return out;
  if (!isRecord(value)) throw new RetrievalError('arguments must be an object of strings', 'INVALID_PARAMS');
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    const changed = typeof v === 'number' ? inexact?.get(name) : undefined;
    if (changed !== undefined) throw new RetrievalError(`argument '${echoed(name)}': ${changed} (send it as a string)`, 'INVALID_PARAMS');
    if (typeof v === 'string') out[name] = v;
    else if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') out[name] = String(v);
    else throw new RetrievalError(`argument '${echoed(name)}' must be a string (MCP prompt arguments are strings)`, 'INVALID_PARAMS');
  }
  return out;
}

/**
 * A readable message: names the missing arguments from the error's data (a remote -32602 or a local registry's error),
 * adds which argument failed which check (`data.details`), strips the SDKs' `MCP error N:` prefix.
 */
function messageOf(error: unknown): string {
  if (error instanceof RetrievalError) return error.message;
  const e = isRecord(error) ? error : {};
  const data = isRecord(e['data']) ? e['data'] : undefined;
  const missing = data?.['missing_arguments'];
  if (Array.isArray(missing) && missing.length > 0 && missing.every((m) => typeof m === 'string')) {
    return `missing required arguments: ${quotedNames(missing)}`;
  }
  const raw = error instanceof Error ? error.message : typeof e['message'] === 'string' ? e['message'] : String(error);
  const message = echoed(raw.replace(/^MCP error -?\d+: /, '')) || 'unknown error';
  const details = Array.isArray(data?.['details']) ? data['details'].filter(isRecord).slice(0, MAX_DETAILS) : [];
  const checks = details
    .filter((d) => typeof d['argument'] === 'string' && typeof d['message'] === 'string')
    .map((d) => `${echoed(d['argument'] as string)} ${echoed(d['message'] as string)}`);
  return checks.length === 0 ? message : `${message}: ${checks.join('; ')}`;
}

/** How many failed checks an error message names. */
const MAX_DETAILS = 10;

/** How many names (available prompts, missing arguments) an error message lists. */
const MAX_NAMES = 20;

/** The first {@link MAX_NAMES} names, quoted and joined, with `…` when there are more. */
function quotedNames(names: readonly string[]): string {
  return names.slice(0, MAX_NAMES).map(echoed).join(', ') + (names.length > MAX_NAMES ? ', …' : '');
}

/** The JSON-RPC code of a remote error, or the tool's own code, as a string (`error.type` in traces). */
function errorCodeOf(error: unknown): string {
  if (error instanceof RetrievalError) return error.code;
  const code = isRecord(error) ? error['code'] : undefined;
  if (typeof code === 'number' && Number.isInteger(code)) return String(code);
  if (typeof code === 'string' && code !== '') return code;
  return error instanceof Error ? error.name : 'ERROR';
}

function inputSchema(ids: readonly string[]): JsonSchema {
  return {
    type: 'object',
    properties: {
      integrationId: { type: 'string', enum: [...ids], description: 'Which integration (MCP server) holds the prompt.' },
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

/** The tool description: what prompts are, then each integration's prompts with their arguments, capped. */
function describe(states: readonly IntegrationState[], max: number): string {
  let text =
    'Retrieve a prompt from one of your MCP integrations. Prompts are reusable, server-defined instructions ' +
    '(templates filled in with arguments) for a task; the result is the prompt text to follow. ' +
    'Call with integrationId, promptName and the prompt arguments (strings).\n';
  for (const state of states) {
    const header = `\nIntegration '${state.id}':`;
    if (state.prompts === null) {
      text += `${header} unavailable (its prompts could not be listed)\n`;
      continue;
    }
    if (state.prompts === undefined) {
      const unlisted = state.source.listPrompts === undefined ? 'does not list its prompts (ask by name)' : 'prompts not listed yet';
      text += `${header} ${unlisted}\n`;
      continue;
    }
    const prompts = [...state.prompts.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (prompts.length === 0) {
      text += `${header} no prompts\n`;
      continue;
    }
    text += `${header}\n`;
    for (let i = 0; i < prompts.length; i++) {
      const line = promptLine(prompts[i]!);
      if (text.length + line.length > max) {
        text += `  … and ${prompts.length - i} more\n`;
        break;
      }
      text += line;
    }
  }
  return text;
}

function promptLine(prompt: Prompt): string {
  const args = (prompt.arguments ?? []).map((a) => (a.required === true ? `${a.name} (required)` : a.name));
  const description = typeof prompt.description === 'string' && prompt.description !== '' ? ` — ${echoed(prompt.description)}` : '';
  return `- ${prompt.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${description}\n`;
}
