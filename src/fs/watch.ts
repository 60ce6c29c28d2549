/** Hot reload: a prompt directory kept in step with a registry, one registry batch per debounce window. */
import type { Logger } from '../logger.js';
import type { PromptRegistry } from '../registry/registry.js';
import { DELAY_MS, integerOption } from '../options.js';
import { WindowedJob } from './debounce.js';
import { formatDiagnostic } from './diagnostics.js';
import type { PromptFileDiagnostic } from './diagnostics.js';
import { DirectoryState, applyFiles, compareScan } from './directory-state.js';
import { SettleCheck } from './settle.js';
import { fingerprint } from './scan.js';
import type { PromptDirectoryChange } from './directory-state.js';
import { fileContext, readPromptFiles, scanPromptDirectory, truncatedDiagnostic } from './load.js';
import type { LoadPromptDirectoryOptions } from './load.js';
import type { PromptFileContext } from './prompt-file.js';
import type { FileResourceResolver } from './resolver.js';
import type { ScanResult } from './scan.js';
import { TreeWatcher } from './tree-watcher.js';
import { CasesFiles } from './watch-cases.js';
import { DocumentWatcher } from './watch-documents.js';
import { declareChangeDelay } from '../registry/change-delay.js';

/** Windows a reload waits for files still being written before it applies the others. */
const MAX_DEFERRED = 5;

/** Options of {@link watchPromptDirectory}. */
export interface WatchPromptDirectoryOptions extends LoadPromptDirectoryOptions {
  /** Changes within this many milliseconds of the first one are applied together (default 100). */
  debounceMs?: number;
  /** Also watch this resolver's roots: a changed document drops its cache and calls `onResourcesChanged`. */
  resources?: FileResourceResolver;
  /** Called once for each new diagnostic (a file that stops parsing, a duplicate name, the directory disappearing). */
  onDiagnostic?: (diagnostic: PromptFileDiagnostic) => void;
  /** Called with every current diagnostic whenever that set changes (a file breaks, or is fixed). */
  onDiagnosticsChange?: (diagnostics: readonly PromptFileDiagnostic[]) => void;
  /** Called after each reload that changed the registry (not for the initial load). */
  onChange?: (change: PromptDirectoryChange) => void;
  /**
   * Called after a reload that found the example cases files of served prompts (`<base>.cases.yaml` beside the
   * prompt file) added, changed or removed, with those prompts' names (a prompt file's own `cases` changes with it).
   */
  onCasesChange?: (names: string[]) => void;
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
  /**
   * The file a served prompt comes from: `file` as diagnostics name it, `rel` relative to the directory (POSIX).
   * `undefined` for a name the watcher does not serve.
   */
  source(name: string): { file: string; rel: string } | undefined;
}

function log(
  logger: Logger | undefined,
  level: 'info' | 'warn',
  fields: Record<string, unknown>,
  message: string,
): void {
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
  const debounceMs = integerOption('watchPromptDirectory', 'debounceMs', options.debounceMs, {
    ...DELAY_MS,
    default: 100,
  });
  const pollMs = integerOption('watchPromptDirectory', 'pollIntervalMs', options.pollIntervalMs, {
    ...DELAY_MS,
    default: 0,
  });
  const context: PromptFileContext = fileContext(dir, options, 'watchPromptDirectory');
  const state = new DirectoryState(registry);
  const settled = new SettleCheck(debounceMs);
  const cases = new CasesFiles(dir);
  let deferred = 0;
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
    const differs = keys.size !== reported.size || [...keys].some((k) => !reported.has(k));
    reported = keys;
    if (differs && loaded) safely(() => options.onDiagnosticsChange?.(next.slice()));
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
    const compared = compareScan(state, scan);
    const gone = compared.gone;
    let changed = compared.changed;
    // A file written in place applies once it has stood still for a window, never half-written; the window's other
    // changes wait with it (one registry step per window), except behind a writer that never stops.
    settled.keepOnly(new Set(changed.map((f) => f.rel)));
    const still = loaded ? changed.map((f) => settled.isSettled(f.rel, f.stats)) : [];
    if (still.includes(false)) {
      if (++deferred < MAX_DEFERRED) {
        job.trigger();
        return;
      }
      changed = changed.filter((_, i) => still[i]);
      job.trigger();
    }
    let parsed = await readPromptFiles(changed, context);
    if (closed) return;
    // Changed between the scan and the read: still being written; look again next window.
    const moving = changed.map(
      (f, i) => parsed[i]!.version !== undefined && parsed[i]!.version !== fingerprint(f.stats),
    );
    if (loaded && moving.includes(true)) {
      changed.forEach((f, i) => {
        if (moving[i]) settled.unsettle(f.rel);
      });
      if (++deferred < MAX_DEFERRED) {
        job.trigger();
        return;
      }
      parsed = parsed.filter((_, i) => !moving[i]);
      changed = changed.filter((_, i) => !moving[i]);
      job.trigger();
    }
    deferred = 0;
    // Synchronous from here on: the registry sees the whole window's changes in one tick.
    const change = applyFiles(state, changed, parsed, gone, logger);
    const diagnostics = state.diagnostics();
    if (scan.truncated) diagnostics.push(truncatedDiagnostic(context));
    publish(diagnostics);
    if (options.onCasesChange !== undefined) {
      const changedCases = await cases.check(state, context);
      if (loaded && changedCases.length > 0) safely(() => options.onCasesChange?.(changedCases));
    }
    if (loaded && (change.set.length > 0 || change.removed.length > 0)) {
      log(
        logger,
        'info',
        { event: 'prompts_reloaded', set: change.set, removed: change.removed },
        'prompt directory reloaded',
      );
      safely(() => options.onChange?.(change));
    }
  };

  const onError = (error: unknown): void =>
    log(logger, 'warn', { event: 'prompt_reload_failed' }, error instanceof Error ? error.message : String(error));
  let initial: Promise<void> | undefined;
  // Reloads wait for the initial load: one reload at a time, always.
  const job = new WindowedJob(debounceMs, () =>
    (initial ?? Promise.resolve()).then(reload, () => undefined).catch(onError),
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

  // A change is applied within the window that sees it, or up to MAX_DEFERRED windows later while the file is still
  // being written; without change events, the next poll sees it first.
  const undeclare = declareChangeDelay(registry, (MAX_DEFERRED + 1) * debounceMs + pollMs);
  const close = async (): Promise<void> => {
    undeclare();
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
    source: (name) => state.source(name),
  };
}
