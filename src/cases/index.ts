/**
 * Example cases beside a prompt: read them ({@link parsePromptCases}), run them ({@link runPromptCases}), diff
 * expected and actual text ({@link unifiedDiff}).
 *
 * @module
 */
export { CASE_KEYS, DEFAULT_MAX_CASES, parsePromptCases } from './parse.js';
export type { ParsePromptCasesOptions, ParsedPromptCases } from './parse.js';
export { runPromptCases } from './run.js';
export type { PromptCaseTarget, RunPromptCasesOptions } from './run.js';
export { unifiedDiff } from './diff.js';
export type { DiffOptions } from './diff.js';
export type {
  PromptCase,
  PromptCaseActualError,
  PromptCaseCheck,
  PromptCaseErrorExpectation,
  PromptCaseExpectations,
  PromptCaseFailure,
  PromptCaseReport,
  PromptCaseResult,
  PromptCaseStatus,
  PromptCaseSuite,
  PromptCaseText,
} from './types.js';
