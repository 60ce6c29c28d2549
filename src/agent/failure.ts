/** The tool's failures: its own errors, and any error as one line for the model and a code for logs and traces. */
import { echoed } from '../errors.js';
import { isRecord, oneLine } from '../json.js';
import { namesList } from './names.js';

/** The tool's own failures: a message for the model and a code for logs and traces. */
export class RetrievalError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * A readable message on one line: names the missing arguments from the error's data (a remote -32602 or a local
 * registry's error), adds which argument failed which check (`data.details`), strips the SDKs' `MCP error N:` prefix;
 * whatever came from the integration is cut and its control characters escaped. Never throws.
 */
export function messageOf(error: unknown): string {
  try {
    if (error instanceof RetrievalError) return oneLine(error.message);
    const e = isRecord(error) ? error : {};
    const data = isRecord(e['data']) ? e['data'] : undefined;
    const missing = data?.['missing_arguments'];
    if (
      Array.isArray(missing) &&
      missing.length > 0 &&
      missing.length <= 1000 &&
      missing.every((m) => typeof m === 'string')
    ) {
      return `missing required arguments: ${namesList(missing)}`;
    }
    const raw =
      error instanceof Error
        ? error.message
        : typeof e['message'] === 'string'
          ? e['message']
          : typeof error === 'string'
            ? error
            : '';
    const message = oneLine(echoed(String(raw).replace(/^MCP error -?\d+: /, ''))) || 'unknown error';
    const details = Array.isArray(data?.['details']) ? data['details'].slice(0, MAX_DETAILS).filter(isRecord) : [];
    const checks = details
      .filter((d) => typeof d['argument'] === 'string' && typeof d['message'] === 'string')
      .map((d) => oneLine(`${echoed(d['argument'] as string)} ${echoed(d['message'] as string)}`));
    return checks.length === 0 ? message : `${message}: ${checks.join('; ')}`;
  } catch {
    return 'unknown error';
  }
}

/** How many failed checks an error message names. */
const MAX_DETAILS = 10;

/** The JSON-RPC code of a remote error, or the tool's own code, as a string (`error.type` in traces). Never throws. */
export function errorCodeOf(error: unknown): string {
  try {
    if (error instanceof RetrievalError) return error.code;
    const code = isRecord(error) ? error['code'] : undefined;
    if (typeof code === 'number' && Number.isInteger(code)) return String(code);
    if (typeof code === 'string' && code !== '') return echoed(oneLine(code.slice(0, 128)));
    return error instanceof Error ? echoed(oneLine(error.name.slice(0, 128))) : 'ERROR';
  } catch {
    return 'ERROR';
  }
}
