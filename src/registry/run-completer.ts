/**
 * Running an argument's own `complete()` for {@link PromptRegistry.complete}: under the request's signal and the
 * completion timeout, its answer checked to be an array of strings.
 *
 * @module
 * @internal
 */
import type { PromptArgumentDefinition } from '../definition/types.js';
import { runWithDeadline } from '../deadline.js';
import { PromptError, errorClassName, isPromptError } from '../errors.js';
import type { SafeLogger } from '../logger.js';
import type { RequestContext } from './options.js';
import { cancelled, isAborted, reportRenderError } from './request-errors.js';

/**
 * @internal Runs an argument's `complete()` under the request's signal and the completion timeout; checks what it
 * returns. A failure, a timeout or a wrong answer is INTERNAL_ERROR (logged); a cancelled request is not logged.
 */
export async function runCompleter(
  name: string,
  argumentName: string,
  complete: NonNullable<PromptArgumentDefinition['complete']>,
  value: string,
  context: RequestContext,
  timeoutMs: number,
  log: SafeLogger,
): Promise<string[]> {
  const outer = context.signal;
  let result: unknown;
  try {
    const given = Object.assign(Object.create(null) as Record<string, string>, context.arguments);
    result = await runWithDeadline((signal) => complete(value, { promptName: name, arguments: given, signal }), {
      signal: outer,
      timeoutMs,
      timedOut: () =>
        new PromptError(
          'INTERNAL_ERROR',
          `prompt '${name}' argument '${argumentName}' complete() took longer than ${timeoutMs} ms`,
        ),
      cancelled: () => cancelled(name, outer!),
    });
  } catch (error) {
    if (isAborted(outer)) throw cancelled(name, outer!);
    throw reportRenderError(
      log,
      name,
      isPromptError(error)
        ? error
        : new PromptError(
            'INTERNAL_ERROR',
            `prompt '${name}' argument '${argumentName}' complete() threw ${errorClassName(error)}`,
            { cause: error },
          ),
    );
  }
  if (!Array.isArray(result)) return badCompletion(log, name, argumentName);
  const values: string[] = new Array(result.length);
  for (let i = 0; i < result.length; i++) {
    const v: unknown = result[i]; // a hole reads as undefined: never null on the wire
    if (typeof v !== 'string') return badCompletion(log, name, argumentName);
    values[i] = v;
  }
  return values;
}

function badCompletion(log: SafeLogger, name: string, argumentName: string): never {
  throw reportRenderError(
    log,
    name,
    new PromptError(
      'INTERNAL_ERROR',
      `prompt '${name}' argument '${argumentName}' complete() must return an array of strings`,
    ),
  );
}
