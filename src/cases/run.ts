/**
 * Running example cases: each case's arguments through `getPrompt`, the result checked against its expectations.
 * No model, no network: only what the registry renders.
 *
 * @module
 */
import { JSON_RPC_ERROR_CODES, toPromptError } from '../errors.js';
import { isRecord, jsonEqual } from '../json.js';
import type { GetPromptResult, PromptMessage } from '../types.js';
import { unifiedDiff } from './diff.js';
import { diffText } from './text.js';
import type {
  PromptCase,
  PromptCaseActualError,
  PromptCaseFailure,
  PromptCaseReport,
  PromptCaseResult,
  PromptCaseSuite,
  PromptCaseText,
} from './types.js';

/** What cases run against: a {@link PromptRegistry}, or anything with its `getPrompt`. */
export interface PromptCaseTarget {
  getPrompt(name: string, args?: unknown): Promise<GetPromptResult>;
}

/** Options of {@link runPromptCases}. */
export interface RunPromptCasesOptions {
  /** Runs only the cases whose `<prompt>/<case name>` contains this text. */
  filter?: string;
}

/** The text of a content block that text expectations search (text blocks and embedded text resources). */
function blockText(content: unknown): string | undefined {
  if (!isRecord(content)) return undefined;
  if (content['type'] === 'text' && typeof content['text'] === 'string') return content['text'];
  const resource = content['resource'];
  if (content['type'] === 'resource' && isRecord(resource) && typeof resource['text'] === 'string')
    return resource['text'];
  return undefined;
}

function messageTexts(messages: readonly PromptMessage[], index: number | undefined): string[] | undefined {
  if (index !== undefined) {
    const m = messages[index];
    if (m === undefined) return undefined;
    const t = blockText(m.content);
    return t === undefined ? [] : [t];
  }
  const out: string[] = [];
  for (const m of messages) {
    const t = blockText(m.content);
    if (t !== undefined) out.push(t);
  }
  return out;
}

function where(t: PromptCaseText): string {
  return t.message === undefined ? 'the text blocks' : `message ${t.message}`;
}

function excerpt(texts: readonly string[]): string {
  const all = texts.join('\n');
  return all.length > 2_000 ? `${all.slice(0, 2_000)}… (${all.length} characters)` : all;
}

function checkTexts(
  messages: readonly PromptMessage[],
  wanted: readonly PromptCaseText[] | undefined,
  present: boolean,
  failures: PromptCaseFailure[],
): void {
  if (wanted === undefined) return;
  const check = present ? 'contains' : 'notContains';
  for (const t of wanted) {
    const texts = messageTexts(messages, t.message);
    if (texts === undefined) {
      failures.push({
        check,
        message: `message ${t.message} does not exist (the prompt rendered ${messages.length} message(s))`,
      });
      continue;
    }
    const found = texts.some((text) => text.includes(t.text));
    if (found === present) continue;
    failures.push({
      check,
      message: present
        ? `${where(t)} do not contain ${JSON.stringify(t.text)}`
        : `${where(t)} contain ${JSON.stringify(t.text)}, which must not appear`,
      expected: t.text,
      actual: excerpt(texts),
    });
  }
}

function errorText(e: { code: unknown; message?: string | undefined; missing_arguments?: unknown }): string {
  const lines = [`code: ${String(e.code)}`];
  if (e.message !== undefined) lines.push(`message: ${e.message}`);
  if (e.missing_arguments !== undefined) lines.push(`missing_arguments: ${JSON.stringify(e.missing_arguments)}`);
  return lines.join('\n');
}

function actualError(error: unknown): PromptCaseActualError {
  const e = toPromptError(error);
  const out: PromptCaseActualError = { code: e.code, rpcCode: e.rpcCode, message: e.clientMessage };
  if (e.exposed && e.data !== undefined) out.data = e.data;
  return out;
}

function missingOf(error: PromptCaseActualError): string[] | undefined {
  const missing = isRecord(error.data) ? error.data['missing_arguments'] : undefined;
  return Array.isArray(missing) ? (missing.filter((m) => typeof m === 'string') as string[]) : undefined;
}

function sortedJson(list: readonly string[] | undefined): string {
  return JSON.stringify(list === undefined ? null : [...list].sort());
}

function judge(c: PromptCase, outcome: { messages: PromptMessage[] } | { error: PromptCaseActualError }) {
  const failures: PromptCaseFailure[] = [];
  const expect = c.expect;
  if ('error' in outcome) {
    const actual = outcome.error;
    const wanted = expect.error;
    if (wanted === undefined) {
      failures.push({
        check: 'render',
        message: `rendering failed: ${actual.rpcCode} ${actual.code}: ${actual.message}`,
        actual: errorText({ code: actual.code, message: actual.message, missing_arguments: missingOf(actual) }),
      });
      // A client mistake is a failed case; a prompt not served or an internal failure cannot be judged.
      const judged = actual.code !== 'PROMPT_NOT_FOUND' && actual.rpcCode !== JSON_RPC_ERROR_CODES.INTERNAL_ERROR;
      return { status: judged ? ('fail' as const) : ('error' as const), failures };
    }
    const codeOk = typeof wanted.code === 'number' ? wanted.code === actual.rpcCode : wanted.code === actual.code;
    const messageOk = wanted.message === undefined || wanted.message === actual.message;
    const missing = missingOf(actual);
    const missingOk =
      wanted.missing_arguments === undefined || sortedJson(wanted.missing_arguments) === sortedJson(missing);
    if (!codeOk || !messageOk || !missingOk) {
      const expectedText = errorText(wanted);
      const actualText = errorText({
        code: typeof wanted.code === 'number' ? actual.rpcCode : actual.code,
        ...(wanted.message === undefined ? {} : { message: actual.message }),
        ...(wanted.missing_arguments === undefined ? {} : { missing_arguments: missing ?? null }),
      });
      failures.push({
        check: 'error',
        message: `expected error ${String(wanted.code)}, got ${actual.rpcCode} ${actual.code}: ${actual.message}`,
        expected: expectedText,
        actual: actualText,
        diff: unifiedDiff(expectedText, actualText),
      });
    }
    return { status: failures.length === 0 ? ('pass' as const) : ('fail' as const), failures };
  }
  const messages = outcome.messages;
  if (expect.error !== undefined) {
    const expectedText = errorText(expect.error);
    failures.push({
      check: 'error',
      message: `expected error ${String(expect.error.code)}, but the prompt rendered ${messages.length} message(s)`,
      expected: expectedText,
      actual: diffText(messages),
    });
  }
  if (expect.messages !== undefined && !jsonEqual(expect.messages, messages)) {
    const expectedText = diffText(expect.messages);
    const actualText = diffText(messages);
    failures.push({
      check: 'messages',
      message: 'the rendered messages differ from the snapshot',
      expected: expectedText,
      actual: actualText,
      diff: unifiedDiff(expectedText, actualText),
    });
  }
  checkTexts(messages, expect.contains, true, failures);
  checkTexts(messages, expect.notContains, false, failures);
  return { status: failures.length === 0 ? ('pass' as const) : ('fail' as const), failures };
}

/**
 * Runs example cases against a registry: each case's arguments rendered with `getPrompt`, the result compared with
 * the case's expectations. Results come in suite order then case order (deterministic); a failure carries the
 * expected and actual text and a unified diff. Never throws for a failing case.
 *
 * @example
 * ```ts
 * const registry = new PromptRegistry();
 * registry.add({ name: 'greet', arguments: [{ name: 'who', required: true }], messages: [{ role: 'user', content: 'Hello {{who}}' }] });
 * const { cases } = parsePromptCases([{ name: 'greets Ada', arguments: { who: 'Ada' }, contains: 'Hello Ada' }]);
 * const report = await runPromptCases(registry, [{ prompt: 'greet', cases }]);
 * // report.passed === 1
 * ```
 */
export async function runPromptCases(
  target: PromptCaseTarget,
  suites: readonly PromptCaseSuite[],
  options: RunPromptCasesOptions = {},
): Promise<PromptCaseReport> {
  const results: PromptCaseResult[] = [];
  for (const suite of suites) {
    for (const c of suite.cases) {
      if (options.filter !== undefined && !`${suite.prompt}/${c.name}`.includes(options.filter)) continue;
      let outcome: { messages: PromptMessage[] } | { error: PromptCaseActualError };
      try {
        const result = await target.getPrompt(suite.prompt, { ...c.arguments });
        outcome = { messages: result.messages };
      } catch (error) {
        outcome = { error: actualError(error) };
      }
      const { status, failures } = judge(c, outcome);
      const result: PromptCaseResult = { prompt: suite.prompt, case: c.name, status, failures, actual: outcome };
      const file = c.file ?? suite.file;
      if (file !== undefined) result.file = file;
      if (c.line !== undefined) result.line = c.line;
      if (c.column !== undefined) result.column = c.column;
      if (c.pointer !== undefined) result.pointer = c.pointer;
      results.push(result);
    }
  }
  let passed = 0;
  let failed = 0;
  for (const r of results) {
    if (r.status === 'pass') passed++;
    else if (r.status === 'fail') failed++;
  }
  return { results, total: results.length, passed, failed, errored: results.length - passed - failed };
}
