/**
 * The responses of the HTTP core: JSON bodies, and any error as JSON through the one error table.
 *
 * @module
 */
import { errorClassName, toPromptError } from '../errors.js';
import type { SafeLogger } from '../logger.js';
import { buildErrorResponse } from '../response.js';

/** @internal A response as the core gives it: a JSON body (empty for HEAD). */
export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** @internal A JSON response. */
export function json(status: number, value: unknown): CoreResponse {
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(value) };
}

/** @internal Any error as JSON through the one table; 5xx are logged (route and class only). */
export function errorJson(error: unknown, log?: SafeLogger, routeKind?: string): CoreResponse {
  const e = toPromptError(error);
  if (e.httpStatus >= 500 && log !== undefined) {
    log.error(
      { event: 'http_request_failed', route: routeKind, code: e.code, error: errorClassName(error) },
      'HTTP request failed',
    );
  }
  const body = buildErrorResponse(e.clientMessage, e.exposed ? e.data : undefined);
  try {
    return json(e.httpStatus, body);
  } catch {
    return json(e.httpStatus, buildErrorResponse(e.clientMessage));
  }
}

/** @internal The error response for a failure outside the core (the transport itself). */
export function transportError(error: unknown): CoreResponse {
  return errorJson(error);
}
