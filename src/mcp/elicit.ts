/**
 * Asking for missing prompt arguments (protocol revision 2026-07-28): a prompts/get without its required arguments,
 * from a client whose request declares form elicitation, is answered with an input-required result holding a form;
 * the client asks its user and retries with the answers, which are then validated like any arguments.
 *
 * @module
 */
import { elicitationForm } from '../definition/elicitation-form.js';
import { PromptError, echoed } from '../errors.js';
import { isPlainObject, isRecord } from '../json.js';
import type { PromptRegistry } from '../registry/registry.js';
import { RequestStateSigner } from './request-state.js';
import { speaksModernEra } from './server-shape.js';
import type { DetectedServer } from './server-shape.js';

/** The `elicitation` option of {@link attachPrompts}. */
export interface ElicitationOptions {
  /**
   * The HMAC key of the `requestState` (at least 32 bytes). Default: a random key per registry and process, so
   * every server attached to the registry here (one per request or session) accepts the others' retries. Give the
   * same secret to servers in several processes behind one endpoint. It is read once: pass a new array to change it.
   */
  secret?: Uint8Array;
}

/** The key of the one input request (the form) in an input-required result. */
export const FORM_KEY = 'arguments';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const MAX_MESSAGE = 1_000;

function record(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

function invalid(message: string): PromptError {
  return new PromptError('INVALID_PARAMS', message);
}

/** Whether the server serves this connection on the 2026-07-28 era or later (SDK v2 only). */
export function servesModernEra(target: DetectedServer): boolean {
  return target.sdk === 'v2' && speaksModernEra(target.server);
}

/** Whether the request's envelope declares form elicitation (`elicitation: {}` means form, as the spec says). */
export function declaresFormElicitation(raw: unknown): boolean {
  const envelope = record(record(record(raw)?.['mcpReq'])?.['envelope']);
  const elicitation = record(record(envelope?.[CLIENT_CAPABILITIES])?.['elicitation']);
  if (elicitation === undefined) return false;
  return Object.keys(elicitation).length === 0 || isRecord(elicitation['form']);
}

/** The retry material SDK v2 lifted off the request's params: its `requestState` and `inputResponses`. */
export function retryOf(raw: unknown): { state: unknown; responses: unknown } | undefined {
  const mcpReq = record(record(raw)?.['mcpReq']);
  const read = mcpReq?.['requestState'];
  const state = typeof read === 'function' ? (read as () => unknown).call(mcpReq) : undefined;
  return state === undefined ? undefined : { state, responses: mcpReq?.['inputResponses'] };
}

function isAnswer(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** One random key per registry: servers made per request for one registry accept each other's requestState. */
const signers = new WeakMap<PromptRegistry, RequestStateSigner>();

function registrySigner(registry: PromptRegistry): RequestStateSigner {
  let signer = signers.get(registry);
  if (signer === undefined) signers.set(registry, (signer = new RequestStateSigner()));
  return signer;
}

/** One key per secret array: a factory making a server per request with the same secret imports it once. */
const secretSigners = new WeakMap<Uint8Array, RequestStateSigner>();

function secretSigner(secret: Uint8Array): RequestStateSigner {
  let signer = secret instanceof Uint8Array ? secretSigners.get(secret) : undefined;
  if (signer === undefined) {
    signer = new RequestStateSigner(secret);
    secretSigners.set(secret, signer);
  }
  return signer;
}

/** Asks for the missing arguments of a prompt and reads the answers of the retry. */
export class PromptElicitation {
  readonly #signer: RequestStateSigner;

  constructor(
    readonly registry: PromptRegistry,
    options: ElicitationOptions,
  ) {
    this.#signer = options.secret === undefined ? registrySigner(registry) : secretSigner(options.secret);
  }

  /**
   * The input-required result for a request that misses required arguments, or undefined when no form can ask for
   * all of them (the -32602 then answers).
   */
  async ask(name: string, args: unknown, missing: readonly string[]): Promise<Record<string, unknown> | undefined> {
    const definition = this.registry.definition(name);
    const listing = this.registry.get(name);
    if (definition === undefined || listing === undefined) return undefined;
    const given = record(args);
    const form = elicitationForm(
      definition,
      listing.arguments ?? [],
      (n) => given !== undefined && Object.hasOwn(given, n) && given[n] != null,
      missing,
    );
    if (form === undefined) return undefined;
    let message = `The prompt '${echoed(listing.title ?? name)}' needs: ${missing.join(', ')}`;
    if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE - 1)}…`;
    return {
      resultType: 'input_required',
      inputRequests: {
        [FORM_KEY]: {
          method: 'elicitation/create',
          params: { mode: 'form', message, requestedSchema: form.schema },
        },
      },
      requestState: await this.#signer.sign(name, form.asked),
    };
  }

  /**
   * The params of a retry with the form's accepted answers added to its arguments (an argument the retry itself gives
   * wins). A declined or cancelled form, or none answered, leaves the arguments as they are. -32602 for a
   * requestState this server did not issue for this prompt, or answers the form did not ask for.
   */
  async answered(params: unknown, state: unknown, responses: unknown): Promise<unknown> {
    const p = record(params);
    const name = p?.['name'];
    // Not a request the handler would serve: it answers as it does today.
    if (p === undefined || typeof name !== 'string' || !this.registry.has(name)) return params;
    const asked = await this.#signer.verify(name, state);
    const entry =
      record(responses) !== undefined && Object.hasOwn(responses as object, FORM_KEY)
        ? (responses as Record<string, unknown>)[FORM_KEY]
        : undefined;
    if (entry === undefined) return params;
    const answer = record(entry);
    const action = answer?.['action'];
    if (action === 'decline' || action === 'cancel') return params;
    if (action !== 'accept') {
      throw invalid(`inputResponses.${FORM_KEY}.action must be 'accept', 'decline' or 'cancel'`);
    }
    const content = answer?.['content'];
    if (content === undefined) return params;
    if (!isRecord(content) || !isPlainObject(content))
      throw invalid(`inputResponses.${FORM_KEY}.content must be an object`);
    const keys = Object.keys(content);
    if (keys.length > asked.length) {
      throw invalid(`inputResponses.${FORM_KEY}.content has ${keys.length} answers; the form asked ${asked.length}`);
    }
    const given = record(p['arguments']);
    const args = Object.create(null) as Record<string, unknown>;
    if (given !== undefined) for (const key of Object.keys(given)) args[key] = given[key];
    for (const key of keys) {
      if (!asked.includes(key)) throw invalid(`inputResponses.${FORM_KEY}.content.${echoed(key)} was not asked for`);
      const value = content[key];
      if (!isAnswer(value)) {
        throw invalid(
          `inputResponses.${FORM_KEY}.content.${echoed(key)} must be a string, a number, a boolean or a list of strings`,
        );
      }
      // JSON.parse has already rounded a whole number past 2^53 (the text is gone): refused, never changed silently.
      if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
        throw invalid(
          `inputResponses.${FORM_KEY}.content.${echoed(key)} is a whole number beyond ±${Number.MAX_SAFE_INTEGER}, which JSON numbers cannot carry exactly`,
        );
      }
      if (args[key] == null) args[key] = value;
    }
    return { ...p, arguments: args };
  }
}
