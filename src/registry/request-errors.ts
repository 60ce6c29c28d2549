/**
 * The errors a registry request ends with besides the prompt's own answer: an unknown name, a cancelled request, and
 * a failure reported to the logger (a server fault is logged; clients see a generic message).
 *
 * @module
 * @internal
 */
import { PromptError, echoed, toPromptError } from '../errors.js';
import type { SafeLogger } from '../logger.js';

/** @internal Read through a call so the compiler does not assume `aborted` stays what it was before an await. */
export function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** @internal The error for a prompt name that is not registered (-32602). */
export function unknownPrompt(name: string): PromptError {
  return new PromptError('PROMPT_NOT_FOUND', `Unknown prompt: ${echoed(name)}`);
}

/** @internal The error for a request whose signal aborted. */
export function cancelled(name: string, signal: AbortSignal): PromptError {
  return new PromptError('INTERNAL_ERROR', `prompt '${name}': request cancelled`, { cause: signal.reason });
}

/** @internal The error as a PromptError; one not exposed to clients is logged as a failed request first. */
export function reportRenderError(log: SafeLogger, name: string, error: unknown): PromptError {
  const err = toPromptError(error);
  if (!err.exposed) {
    log.error({ event: 'prompt_failed', prompt: name, code: err.code, detail: err.message }, 'prompt request failed');
  }
  return err;
}
