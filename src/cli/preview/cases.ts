/** The cases panel: a prompt's example cases read fresh from disk and run against the registry the page shows. */
import { runPromptCases } from '../../cases/run.js';
import type { PromptCaseReport } from '../../cases/types.js';
import { PromptError } from '../../errors.js';
import { isRecord } from '../../json.js';
import { formatDiagnostic } from '../../fs/diagnostics.js';
import { isCasesFileName } from '../../fs/cases.js';
import { loadPromptCases } from '../../fs/load.js';
import type { PromptRegistry } from '../../registry/registry.js';

/** What the page gets: the report, and the problems of the cases as written (file:line:col). */
export interface CasesAnswer {
  report: PromptCaseReport;
  problems: string[];
}

/**
 * `POST /api/cases` `{name}`: runs the cases of prompt `name` (read again from disk: a cases file may have changed)
 * against `registry`; `fileOf` names the file a prompt comes from, whose case problems are reported with it.
 */
export function casesRoute(
  dir: string,
  registry: PromptRegistry,
  fileOf: (name: string) => string | undefined,
): (body: unknown) => Promise<CasesAnswer> {
  return async (body) => {
    if (!isRecord(body) || typeof body['name'] !== 'string') {
      throw new PromptError('INVALID_PARAMS', 'the request body must be {"name": "<prompt>"}');
    }
    const name = body['name'];
    const { suites, diagnostics } = await loadPromptCases(dir);
    const file = fileOf(name);
    const base = file?.replace(/\.[^./]*$/, '');
    const problems = diagnostics
      .filter(
        (d) =>
          (d.file === file && d.pointer?.startsWith('/cases') === true) ||
          (isCasesFileName(d.file) && base !== undefined && d.file.startsWith(`${base}.cases.`)),
      )
      .map(formatDiagnostic);
    return {
      report: await runPromptCases(
        registry,
        suites.filter((s) => s.prompt === name),
      ),
      problems,
    };
  };
}
