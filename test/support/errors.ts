/** Test helpers that capture the PromptError a call throws (and fail the test when it throws nothing else). */
import { isPromptError } from '../../src/errors.js';
import type { PromptError } from '../../src/errors.js';

/** The PromptError `run` throws; fails when it throws anything else or nothing. */
export function thrownBy(run: () => unknown): PromptError {
  try {
    run();
  } catch (error) {
    if (isPromptError(error)) return error;
    throw error;
  }
  throw new Error('expected a PromptError to be thrown');
}

/** The PromptError `promise` rejects with; fails when it rejects with anything else or resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<PromptError> {
  try {
    await promise;
  } catch (error) {
    if (isPromptError(error)) return error;
    throw error;
  }
  throw new Error('expected a PromptError rejection');
}
