/** The model's tool-call parameters: parsed, checked and bounded before anything is sent to an integration. */
import { inexactMark, parseJsonBody } from '../json-body.js';
import { isRecord } from '../json.js';
import { RetrievalError } from './failure.js';
import { MAX_PROMPT_NAME } from './listing.js';
import type { Listing } from './listing.js';
import { namesList, quoted } from './names.js';

/** Longest parameters given as JSON text, in characters: longer text is refused before it is parsed. */
export const MAX_PARAMS_TEXT = 1_048_576;
/** Most prompt arguments in one call. */
export const MAX_ARGUMENTS = 100;
/** Most characters of argument names and values in one call. */
export const MAX_ARGUMENTS_TEXT = 1_048_576;

/** A checked call. */
export interface CheckedCall {
  readonly integrationId: string;
  readonly promptName: string;
  readonly args: Record<string, string>;
}

/**
 * The parameters as an object: OpenAI-style APIs hand them over as JSON text (refused past {@link MAX_PARAMS_TEXT}).
 */
export function parseParams(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  if (raw.length > MAX_PARAMS_TEXT)
    throw new RetrievalError(`parameters exceed ${MAX_PARAMS_TEXT} characters of JSON`, 'INVALID_PARAMS');
  let params: unknown;
  try {
    // An argument holding a number JSON.parse changed is marked (see stringArguments).
    params = parseJsonBody(raw, ['arguments']);
  } catch {
    params = undefined;
  }
  if (!isRecord(params))
    throw new RetrievalError('parameters must be a JSON object with integrationId and promptName', 'INVALID_PARAMS');
  return params;
}

/** The fields a call reads, each read once (a getter is never asked twice); undefined when params is not an object. */
export interface CallFields {
  readonly integrationId: unknown;
  readonly promptName: unknown;
  readonly arguments: unknown;
}

/** Reads the call's fields once. */
export function readParams(params: unknown): CallFields | undefined {
  if (!isRecord(params)) return undefined;
  return { integrationId: params['integrationId'], promptName: params['promptName'], arguments: params['arguments'] };
}

/**
 * Checks a call against the configured integrations and, where its listing is known, the prompts it offers: a name
 * not listed (in a complete listing) and missing required arguments are refused without asking the integration.
 */
export function checkCall(
  params: CallFields | undefined,
  listingOf: (integrationId: string) => { listing: Listing | undefined } | undefined,
  ids: readonly string[],
): CheckedCall {
  if (params === undefined)
    throw new RetrievalError('parameters must be an object with integrationId and promptName', 'INVALID_PARAMS');
  const id = params.integrationId;
  if (typeof id !== 'string' || id === '') throw new RetrievalError('integrationId is required', 'INVALID_PARAMS');
  const integration = listingOf(id);
  if (integration === undefined)
    throw new RetrievalError(`unknown integration ${quoted(id)} (known: ${ids.join(', ')})`, 'UNKNOWN_INTEGRATION');
  const listing = integration.listing;
  const promptName = params.promptName;
  if (typeof promptName !== 'string' || promptName === '')
    throw new RetrievalError('promptName is required', 'INVALID_PARAMS');
  if (promptName.length > MAX_PROMPT_NAME)
    throw new RetrievalError(`promptName exceeds ${MAX_PROMPT_NAME} characters`, 'INVALID_PARAMS');
  const args = stringArguments(params.arguments);
  const listed = listing?.prompts.get(promptName);
  if (listing !== undefined && listed === undefined && listing.complete) {
    const known = [...listing.prompts.keys()].sort();
    throw new RetrievalError(
      `unknown prompt ${quoted(promptName)} in integration '${id}' (available: ${known.length === 0 ? 'none' : namesList(known)})`,
      'PROMPT_NOT_FOUND',
    );
  }
  const missing = (listed?.arguments ?? [])
    .filter((a) => a.required && !Object.hasOwn(args, a.name))
    .map((a) => a.name);
  if (missing.length > 0)
    throw new RetrievalError(`missing required arguments: ${namesList(missing)}`, 'INVALID_PARAMS');
  return { integrationId: id, promptName, args };
}

/** MCP prompt arguments are strings: numbers and booleans are coerced; objects, arrays and others refused, unread. */
function stringArguments(value: unknown): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  if (value === undefined || value === null) return out;
  if (!isRecord(value)) throw new RetrievalError('arguments must be an object of strings', 'INVALID_PARAMS');
  let count = 0;
  let size = 0;
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    if (++count > MAX_ARGUMENTS) throw new RetrievalError(`more than ${MAX_ARGUMENTS} arguments`, 'INVALID_PARAMS');
    const v = value[name];
    if (v === undefined || v === null) continue;
    // A number JSON.parse changed: the number itself is refused with why; one inside an object or array is no string.
    const changed = inexactMark(v);
    if (changed !== undefined && changed.path.length === 0) {
      throw new RetrievalError(`argument ${quoted(name)}: ${changed.message} (send it as a string)`, 'INVALID_PARAMS');
    }
    let text: string;
    if (typeof v === 'string') text = v;
    else if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') text = String(v);
    else
      throw new RetrievalError(
        `argument ${quoted(name)} must be a string (MCP prompt arguments are strings)`,
        'INVALID_PARAMS',
      );
    size += name.length + text.length;
    if (size > MAX_ARGUMENTS_TEXT)
      throw new RetrievalError(`arguments exceed ${MAX_ARGUMENTS_TEXT} characters in all`, 'INVALID_PARAMS');
    out[name] = text;
  }
  return out;
}
