/**
 * Example cases of a prompt: arguments and what rendering them must give, kept beside the prompt (never served).
 *
 * @module
 */
import type { PromptErrorCode } from '../errors.js';
import type { PromptMessage } from '../types.js';

/** Text that must (or must not) appear: in any text block, or in the text blocks of one message (0-based). */
export interface PromptCaseText {
  text: string;
  /** The message whose text blocks are searched; all messages when absent. */
  message?: number;
}

/** The exact error a case expects. */
export interface PromptCaseErrorExpectation {
  /** A JSON-RPC code (`-32602`) or a PromptError string code (`PROMPT_ARGUMENT_MISSING`). */
  code: number | PromptErrorCode;
  /** The exact message a client sees, when given. */
  message?: string;
  /** The exact set of `data.missing_arguments`, when given. */
  missing_arguments?: readonly string[];
}

/** What a case expects; a case without any expectation must render without an error. */
export interface PromptCaseExpectations {
  /** The exact rendered messages (a snapshot; `content` given as a string means one text block). */
  messages?: readonly PromptMessage[];
  contains?: readonly PromptCaseText[];
  notContains?: readonly PromptCaseText[];
  error?: PromptCaseErrorExpectation;
}

/** One example case of a prompt. */
export interface PromptCase {
  name: string;
  /** The prompt arguments (JSON data, frozen). */
  arguments: Readonly<Record<string, unknown>>;
  expect: PromptCaseExpectations;
  /** The file the case is written in (a prompt file, or its `<name>.cases.yaml` beside it), when read from one. */
  file?: string;
  /** JSON pointer of the case in its file (`/cases/2`, or `/2` in a cases file of a bare list). */
  pointer?: string;
  /** 1-based place of the case in its file, when known. */
  line?: number;
  column?: number;
}

/** The cases of one prompt. */
export interface PromptCaseSuite {
  prompt: string;
  /** The prompt's file, when read from one. */
  file?: string;
  cases: readonly PromptCase[];
}

/** The outcome of one case. `error`: the case could not be judged (prompt not served, internal failure). */
export type PromptCaseStatus = 'pass' | 'fail' | 'error';

/** Which expectation a failure is about (`render`: the prompt could not be rendered at all). */
export type PromptCaseCheck = 'messages' | 'contains' | 'notContains' | 'error' | 'render';

/** One unmet expectation of a case. */
export interface PromptCaseFailure {
  check: PromptCaseCheck;
  /** One line saying what is wrong. */
  message: string;
  /** The expected value as text (the form the diff compares). */
  expected?: string;
  /** The actual value as text. */
  actual?: string;
  /** A unified diff of `expected` and `actual` (`-` expected, `+` actual), bounded in size. */
  diff?: string;
}

/** The error a render ended with, as a client sees it. */
export interface PromptCaseActualError {
  code: PromptErrorCode;
  rpcCode: number;
  message: string;
  data?: unknown;
}

/** The result of one case. */
export interface PromptCaseResult {
  prompt: string;
  case: string;
  file?: string;
  line?: number;
  column?: number;
  pointer?: string;
  status: PromptCaseStatus;
  /** Empty when the case passed. */
  failures: PromptCaseFailure[];
  /** What rendering gave: the messages, or the error. */
  actual: { messages: PromptMessage[] } | { error: PromptCaseActualError };
}

/** The results of a run, in suite order then case order. */
export interface PromptCaseReport {
  results: PromptCaseResult[];
  total: number;
  passed: number;
  failed: number;
  errored: number;
}
