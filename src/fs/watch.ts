/**
 * Hot reload: a prompt directory kept in step with a registry. Each debounce window rescans the tree, re-reads the
 * files whose version (inode, size, times) changed, and applies every addition, change and removal to the registry
 * in one synchronous step: one `set` of everything added or changed, then one `remove` (so an attached MCP server
 * sends one `list_changed`). A file that stops parsing keeps its last good version served.
 *
 * @module
 */
import type { Logger, PromptDefinition, PromptRegistry } from '../index.js';
import { WindowedJob, checkMs } from './debounce.js';
import { formatDiagnostic } from './diagnostics.js';
import type { PromptFileDiagnostic } from './diagnostics.js';
import { fileContext, pickUnique, readPromptFiles, scanPromptDirectory, truncatedDiagnostic } from './load.js';
import type { LoadPromptDirectoryOptions } from './load.js';
import { definitionDiagnostics } from './prompt-file.js';
import type { ParsedPromptFile, PromptFileContext } from './prompt-file.js';
import type { FileResourceResolver } from './resolver.js';
import { fingerprint } from './scan.js';
import type { ScanResult } from './scan.js';
import { TreeWatcher } from './tree-watcher.js';
import { DocumentWatcher } from './watch-documents.js';

/** What one reload changed in the registry. */
export interface PromptDirectoryChange {
  /** Prompts added or replaced. */
  set: string[];
  /** Prompts removed. */
  removed: string[];
}

/** Options of {@link watchPromptDirectory}. */
export interface WatchPromptDirectoryOptions extends LoadPromptDirectoryOptions {
  /** Changes within this many milliseconds of the first one are applied together (default 100). */
  debounceMs?: number;
  /** Also watch this resolver's roots: a changed document drops its cache and calls `onResourcesChanged`. */
  resources?: FileResourceResolver;
  /** Called once for each new diagnostic (a file that stops parsing, a duplicate name, the directory disappearing). */
  onDiagnostic?: (diagnostic: PromptFileDiagnostic) => void;
  /** Called after each reload that changed the registry (not for the initial load). */
  onChange?: (change: PromptDirectoryChange) => void;
  /** Called with the URIs of documents added, changed or removed under the resolver's roots. */
  onResourcesChanged?: (uris: string[]) => void;
  /** Also rescan every this many milliseconds (for file systems without change events); off by default. */
  pollIntervalMs?: number;
  /** pino-style logger: diagnostics at `warn`, reloads at `info`. */
  logger?: Logger;
}

/** A running watcher. */
export interface PromptDirectoryWatcher {
  /** Resolves once the directory is loaded into the registry; rejects (and stops) when it cannot be read. */
  ready: Promise<void>;
  /** Stops watching (waits for a reload in progress). The registry keeps what it has. */
  close(): Promise<void>;
  /** The current diagnostics (every file's problems, duplicates, a missing directory). */
  readonly diagnostics: readonly PromptFileDiagnostic[];
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

function log(logger: Logger | undefined, level: 'info' | 'warn', fields: Record<string, unknown>, message: string): void {
  try {
    logger?.[level]?.(fields, message);
  } catch {
    /* a broken logger must not stop reloading */
  }
}

function safely(callback: (() => void) | undefined): void {
  try {
    callback?.();
  } catch {
    /* a throwing callback must not stop reloading */
  }
}

/** Definitions from files are JSON data: equal text means equal prompts (a renamed file changes nothing). */
function sameDefinition(a: PromptDefinition, b: PromptDefinition): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** The directory's files and what the registry serves from them; all registry changes go through here. */
class DirectoryState {
  readonly files = new Map<string, FileState>();
  /** name -> what we put in the registry under it. */
  readonly served = new Map<string, Wanted>();
  duplicates: PromptFileDiagnostic[] = [];

  constructor(readonly registry: PromptRegistry) {}

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
    for (const [name, winner] of winners) out.set(name, { rel: byDefinition.get(winner.definition)!, definition: winner.definition });
    return out;
  }

  /** What differs from what is served; unchanged prompts (a renamed file) are just re-attributed. */
  #changed(want: ReadonlyMap<string, Wanted>): Wanted[] {
    const out: Wanted[] = [];
    for (const w of want.values()) {
      const served = this.served.get(w.definition.name);
      if (served !== undefined && sameDefinition(served.definition, w.definition)) this.#accept({ rel: w.rel, definition: served.definition });
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
      log(logger, 'warn', { event: 'prompt_file_kept', file: p.file, prompt: state.good.name }, `keeping the last good version of '${state.good.name}'`);
    }
  }

  /**
   * Brings the registry in step, synchronously: one `set` (falling back to one per prompt when something does not
   * compile, keeping the last good version of those) and one `remove`.
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
            state.diagnostics = [...state.diagnostics, ...definitionDiagnostics(state.file, error, state.locate, 'template')];
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

/**
 * Loads `dir` into `registry` and keeps it in step: additions, changes, deletions and renames within one debounce
 * window reach the registry together (one `set`, then one `remove`, in the same tick: an attached MCP server sends
 * one `list_changed`). Survives atomic saves (temp file + rename), editor swap and backup files, the directory being
 * deleted and re-created (its prompts stay served while it is gone), and Kubernetes ConfigMap updates (the `..data`
 * symlink swap). A file that stops parsing, or whose templates no longer compile, keeps its last good version served
 * and reports a diagnostic; fixing it applies it; deleting it removes its prompt. Requests in flight keep the version
 * they started with. Only prompts it loaded are ever removed.
 *
 * @example
 * ```ts
 * const registry = new PromptRegistry({ assets: createFileAssetLoader('prompts') });
 * const watcher = watchPromptDirectory('prompts', registry, { onDiagnostic: (d) => console.error(formatDiagnostic(d)) });
 * await watcher.ready;
 * // ... later
 * await watcher.close();
 * ```
 */
export function watchPromptDirectory(
  dir: string,
  registry: PromptRegistry,
  options: WatchPromptDirectoryOptions = {},
): PromptDirectoryWatcher {
  const debounceMs = checkMs('watchPromptDirectory', 'debounceMs', options.debounceMs, 100);
  const pollMs = checkMs('watchPromptDirectory', 'pollIntervalMs', options.pollIntervalMs, 0);
  const context: PromptFileContext = fileContext(dir, options);
  const state = new DirectoryState(registry);
  const logger = options.logger;
  let current: PromptFileDiagnostic[] = [];
  let reported = new Set<string>();
  let loaded = false;
  let closed = false;

  /** Makes `next` the current diagnostics; reports each one not reported before. */
  const publish = (next: PromptFileDiagnostic[]): void => {
    current = next;
    const keys = new Set<string>();
    for (const d of next) {
      const key = formatDiagnostic(d);
      keys.add(key);
      if (reported.has(key)) continue;
      log(logger, 'warn', { event: 'prompt_file_diagnostic', file: d.file, line: d.line }, key);
      safely(() => options.onDiagnostic?.(d));
    }
    reported = keys;
  };

  const reload = async (): Promise<void> => {
    let scan: ScanResult;
    try {
      scan = await scanPromptDirectory(context);
    } catch (error) {
      if (!loaded) throw error;
      tree.sync([]);
      const gone: PromptFileDiagnostic = {
        file: dir,
        message: `prompt directory is gone; its ${state.served.size} prompt(s) stay served until it is back`,
        severity: 'error',
      };
      publish([...state.diagnostics(), gone]);
      return;
    }
    tree.sync(scan.dirs);
    const seen = new Set<string>();
    const changed = scan.files.filter((f) => {
      seen.add(f.rel);
      return state.files.get(f.rel)?.version !== fingerprint(f.stats);
    });
    const gone = [...state.files.keys()].filter((rel) => !seen.has(rel));
    const parsed = await readPromptFiles(changed, context);
    if (closed) return;
    // Everything from here on is synchronous: the registry sees the whole window's changes in one tick.
    for (let i = 0; i < changed.length; i++) {
      const f = changed[i]!;
      const existing = state.files.get(f.rel);
      if (existing === undefined) state.files.set(f.rel, { version: fingerprint(f.stats), file: parsed[i]!.file, diagnostics: [] });
      else existing.version = fingerprint(f.stats);
      state.update(parsed[i]!, logger);
    }
    for (const rel of gone) state.files.delete(rel);
    const change = parsed.length > 0 || gone.length > 0 ? state.apply() : { set: [], removed: [] };
    const diagnostics = state.diagnostics();
    if (scan.truncated) diagnostics.push(truncatedDiagnostic(context));
    publish(diagnostics);
    if (loaded && (change.set.length > 0 || change.removed.length > 0)) {
      log(logger, 'info', { event: 'prompts_reloaded', set: change.set, removed: change.removed }, 'prompt directory reloaded');
      safely(() => options.onChange?.(change));
    }
  };

  const onError = (error: unknown): void =>
    log(logger, 'warn', { event: 'prompt_reload_failed' }, error instanceof Error ? error.message : String(error));
  let initial: Promise<void> | undefined;
  // Reloads wait for the initial load: one reload at a time, always.
  const job = new WindowedJob(debounceMs, () =>
    (initial ?? Promise.resolve())
      .then(reload, () => undefined)
      .catch(onError),
  );
  const tree = new TreeWatcher(dir, () => job.trigger());
  const resolver = options.resources;
  const documents =
    resolver === undefined
      ? undefined
      : new DocumentWatcher(resolver, debounceMs, (uris) => safely(() => options.onResourcesChanged?.(uris)), onError);
  const poll =
    pollMs > 0
      ? setInterval(() => {
          job.trigger();
          documents?.trigger();
        }, pollMs)
      : undefined;

  const close = async (): Promise<void> => {
    closed = true;
    if (poll !== undefined) clearInterval(poll);
    tree.close();
    await Promise.all([job.close(), documents?.close()]);
  };

  initial = (async () => {
    try {
      await reload();
      await documents?.rescan();
      loaded = true;
    } catch (error) {
      await close();
      throw error;
    }
  })();

  return {
    ready: initial,
    close,
    get diagnostics() {
      return current.slice();
    },
  };
}
