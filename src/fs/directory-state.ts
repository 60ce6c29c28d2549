/**
 * A prompt directory's files and what a registry serves from them: the one place file versions become registry changes.
 */
import type { PromptDefinition } from '../definition/types.js';
import type { Logger } from '../logger.js';
import type { PromptRegistry } from '../registry/registry.js';
import type { PromptFileDiagnostic } from './diagnostics.js';
import type { PromptCaseSuite } from '../cases/types.js';
import { fileContext, pickUnique, readPromptFiles, scanPromptDirectory, truncatedDiagnostic } from './load.js';
import type { LoadPromptDirectoryOptions } from './load.js';
import { definitionDiagnostics } from './prompt-file.js';
import type { ParsedPromptFile } from './prompt-file.js';
import { fingerprint } from './scan.js';
import type { ScanResult } from './scan.js';

/** What one reload changed in the registry. */
export interface PromptDirectoryChange {
  /** Prompts added or replaced. */
  set: string[];
  /** Prompts removed. */
  removed: string[];
}

interface FileState {
  version: string;
  file: string;
  /** The latest version that parsed, not yet accepted by the registry (undefined once accepted or rejected). */
  parsed?: PromptDefinition;
  /** Places fields of `parsed`, for compile diagnostics. */
  locate?: ParsedPromptFile['locate'];
  /** The last version the registry accepted. */
  good?: PromptDefinition;
  diagnostics: PromptFileDiagnostic[];
}

interface Wanted {
  rel: string;
  definition: PromptDefinition;
}

/** Definitions from files are JSON data: equal text means equal prompts (a renamed file changes nothing). */
function sameDefinition(a: PromptDefinition, b: PromptDefinition): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** @internal The directory's files and what the registry serves from them; all registry changes go through here. */
export class DirectoryState {
  readonly files = new Map<string, FileState>();
  /** name -> what we put in the registry under it. */
  readonly served = new Map<string, Wanted>();
  duplicates: PromptFileDiagnostic[] = [];

  constructor(readonly registry: PromptRegistry) {}

  /** The file a served prompt comes from (`file` as diagnostics name it, `rel` to the directory). */
  source(name: string): { file: string; rel: string } | undefined {
    const wanted = this.served.get(name);
    if (wanted === undefined) return undefined;
    return { file: this.files.get(wanted.rel)?.file ?? wanted.rel, rel: wanted.rel };
  }

  /** The definition each name should have: per file its newly parsed or last good version; the first file wins. */
  #wanted(): Map<string, Wanted> {
    const ordered = [...this.files.keys()].sort().map((rel) => {
      const state = this.files.get(rel)!;
      const entry: { rel: string; file: string; definition?: PromptDefinition; locate?: ParsedPromptFile['locate'] } = {
        rel,
        file: state.file,
      };
      const definition = state.parsed ?? state.good;
      if (definition !== undefined) entry.definition = definition;
      if (state.parsed !== undefined && state.locate !== undefined) entry.locate = state.locate;
      return entry;
    });
    const { winners, diagnostics } = pickUnique(ordered);
    this.duplicates = diagnostics;
    const byDefinition = new Map(ordered.map((o) => [o.definition, o.rel]));
    const out = new Map<string, Wanted>();
    for (const [name, winner] of winners)
      out.set(name, { rel: byDefinition.get(winner.definition)!, definition: winner.definition });
    return out;
  }

  /** What differs from what is served; unchanged prompts (a renamed file) are just re-attributed. */
  #changed(want: ReadonlyMap<string, Wanted>): Wanted[] {
    const out: Wanted[] = [];
    for (const w of want.values()) {
      const served = this.served.get(w.definition.name);
      if (served !== undefined && sameDefinition(served.definition, w.definition))
        this.#accept({ rel: w.rel, definition: served.definition });
      else out.push(w);
    }
    return out;
  }

  #accept(w: Wanted): void {
    this.served.set(w.definition.name, w);
    const state = this.files.get(w.rel);
    if (state === undefined) return;
    state.good = w.definition;
    state.parsed = undefined;
    state.locate = undefined;
  }

  /** Records a re-read file. */
  update(p: ParsedPromptFile, logger: Logger | undefined): void {
    const state = this.files.get(p.rel)!;
    state.diagnostics = p.diagnostics;
    state.parsed = p.definition;
    state.locate = p.locate;
    if (p.definition === undefined && state.good !== undefined && p.diagnostics.some((d) => d.severity === 'error')) {
      try {
        logger?.warn?.(
          { event: 'prompt_file_kept', file: p.file, prompt: state.good.name },
          `keeping the last good version of '${state.good.name}'`,
        );
      } catch {
        /* a broken logger must not stop reloading */
      }
    }
  }

  /**
   * Brings the registry in step synchronously: one `set` (one per prompt if the batch fails to compile) and one
   * `remove`.
   */
  apply(): PromptDirectoryChange {
    const set: string[] = [];
    let want = this.#wanted();
    const batch = this.#changed(want);
    if (batch.length > 0) {
      try {
        this.registry.set(batch.map((w) => w.definition));
        for (const w of batch) this.#accept(w);
        set.push(...batch.map((w) => w.definition.name));
      } catch {
        for (const w of batch) {
          const state = this.files.get(w.rel)!;
          try {
            this.registry.set(w.definition, { source: state.file });
            this.#accept(w);
            set.push(w.definition.name);
          } catch (error) {
            state.diagnostics = [
              ...state.diagnostics,
              ...definitionDiagnostics(state.file, error, state.locate, 'template'),
            ];
            state.parsed = undefined;
            state.locate = undefined;
          }
        }
        // Without the rejected versions, their files' last good versions are wanted again.
        want = this.#wanted();
        for (const w of this.#changed(want)) {
          try {
            this.registry.set(w.definition);
            this.#accept(w);
            set.push(w.definition.name);
          } catch {
            /* a last good version that no longer compiles stays out */
          }
        }
      }
    }
    const removed = [...this.served.keys()].filter((name) => !want.has(name));
    if (removed.length > 0) {
      this.registry.remove(removed);
      for (const name of removed) this.served.delete(name);
    }
    return { set, removed };
  }

  diagnostics(): PromptFileDiagnostic[] {
    const all: PromptFileDiagnostic[] = [];
    for (const rel of [...this.files.keys()].sort()) all.push(...this.files.get(rel)!.diagnostics);
    return [...all, ...this.duplicates];
  }
}

/** @internal A scan's files compared with the state: what to re-read, and what is gone. */
export function compareScan(state: DirectoryState, scan: ScanResult): { changed: ScanResult['files']; gone: string[] } {
  const seen = new Set<string>();
  const changed = scan.files.filter((f) => {
    seen.add(f.rel);
    return state.files.get(f.rel)?.version !== fingerprint(f.stats);
  });
  return { changed, gone: [...state.files.keys()].filter((rel) => !seen.has(rel)) };
}

/** @internal Records re-read and removed files (synchronously) and brings the registry in step. */
export function applyFiles(
  state: DirectoryState,
  changed: ScanResult['files'],
  parsed: readonly ParsedPromptFile[],
  gone: readonly string[],
  logger: Logger | undefined,
): PromptDirectoryChange {
  for (let i = 0; i < changed.length; i++) {
    const f = changed[i]!;
    const existing = state.files.get(f.rel);
    if (existing === undefined)
      state.files.set(f.rel, { version: fingerprint(f.stats), file: parsed[i]!.file, diagnostics: [] });
    else existing.version = fingerprint(f.stats);
    state.update(parsed[i]!, logger);
  }
  for (const rel of gone) state.files.delete(rel);
  return parsed.length > 0 || gone.length > 0 ? state.apply() : { set: [], removed: [] };
}

/** @internal A prompt file that serves nothing because of an error: its file, and the prompt name it gives if any. */
export interface LeftOutFile {
  file: string;
  name?: string;
}

/** @internal What {@link loadPromptDirectoryInto} found. */
export interface LoadedIntoRegistry {
  diagnostics: PromptFileDiagnostic[];
  files: number;
  /** Each served prompt's file (name -> file as diagnostics name it). */
  sources: Map<string, string>;
  /** Files with an error that serve no prompt. */
  leftOut: LeftOutFile[];
  /** The example cases of the served prompts, in file order. */
  cases: PromptCaseSuite[];
}

/**
 * @internal Loads a directory into a registry once, compile problems included as diagnostics (for the command line).
 */
export async function loadPromptDirectoryInto(
  registry: PromptRegistry,
  dir: string,
  options: LoadPromptDirectoryOptions = {},
): Promise<LoadedIntoRegistry> {
  const context = fileContext(dir, options, 'loadPromptDirectory');
  const scan = await scanPromptDirectory(context);
  const state = new DirectoryState(registry);
  const parsed = await readPromptFiles(scan.files, context);
  applyFiles(state, scan.files, parsed, [], undefined);
  const diagnostics = state.diagnostics();
  if (scan.truncated) diagnostics.push(truncatedDiagnostic(context));
  const sources = new Map<string, string>();
  for (const name of state.served.keys()) sources.set(name, state.source(name)!.file);
  const failed = new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
  const leftOut: LeftOutFile[] = [];
  for (const p of parsed) {
    if (state.files.get(p.rel)?.good !== undefined || !failed.has(p.file)) continue;
    leftOut.push(p.rawName === undefined ? { file: p.file } : { file: p.file, name: p.rawName });
  }
  const servedRels = new Map([...state.served.values()].map((w) => [w.rel, w.definition.name]));
  const cases: PromptCaseSuite[] = [];
  for (const p of parsed) {
    const name = servedRels.get(p.rel);
    if (name !== undefined && p.cases !== undefined) cases.push({ ...p.cases, prompt: name });
  }
  return { diagnostics, files: scan.files.length, sources, leftOut, cases };
}
