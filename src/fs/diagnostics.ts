/** Diagnostics of prompt files: one problem in one file, with its line, column and JSON pointer when known. */
import { escapeControlCharacters } from '../encoding.js';

/** How bad a diagnostic is: an `error` skips the file (or keeps its last good version); a `warning` does not. */
export type DiagnosticSeverity = 'error' | 'warning';

/** One problem found in a prompt file (or in the directory itself). */
export interface PromptFileDiagnostic {
  /** The file (the directory joined with its relative path, as given), or the directory itself. */
  file: string;
  /** 1-based line, when the problem has a place in the file. */
  line?: number;
  /** 1-based column (UTF-16 units), with `line`. */
  column?: number;
  /** JSON pointer of the offending definition field (`/messages/0/role`), when it is one. */
  pointer?: string;
  message: string;
  severity: DiagnosticSeverity;
}

/**
 * Formats a diagnostic the way compilers do: `file:line:col: message` (`file: message` without a place), on one
 * line: control characters in file names and messages (terminal escape sequences, line breaks) are escaped.
 *
 * @example
 * ```ts
 * formatDiagnostic({ file: 'prompts/a.yaml', line: 3, column: 5, message: "invalid role 'system'", severity: 'error' });
 * // "prompts/a.yaml:3:5: invalid role 'system'"
 * ```
 */
export function formatDiagnostic(diagnostic: PromptFileDiagnostic): string {
  const place = diagnostic.line === undefined ? '' : `:${diagnostic.line}:${diagnostic.column ?? 1}`;
  const pointer = diagnostic.pointer === undefined || diagnostic.pointer === '' ? '' : `${diagnostic.pointer}: `;
  const level = diagnostic.severity === 'warning' ? 'warning: ' : '';
  return escapeControlCharacters(`${diagnostic.file}${place}: ${level}${pointer}${diagnostic.message}`);
}

/** @internal A place in a source text. */
export interface SourcePosition {
  line: number;
  column: number;
}

/**
 * @internal Maps offsets of a text to 1-based lines and columns. Line starts are found as far as the offsets asked
 * for reach: placing one error near the top of a large text does not index the whole text.
 */
export class LineIndex {
  readonly #text: string;
  readonly #starts: number[] = [0];
  /** Every line start before this offset is in #starts. */
  #scanned = 0;

  constructor(text: string) {
    this.#text = text;
  }

  position(offset: number): SourcePosition {
    const starts = this.#starts;
    while (this.#scanned < this.#text.length && (starts[starts.length - 1] as number) <= offset) {
      const lf = this.#text.indexOf('\n', this.#scanned);
      if (lf === -1) {
        this.#scanned = this.#text.length;
        break;
      }
      starts.push(lf + 1);
      this.#scanned = lf + 1;
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] as number) + 1 };
  }
}
