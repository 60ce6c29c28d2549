/** A prompt directory as a PromptStore: one version per prompt, atomic file writes, changes from any writer. */
import { mkdir, rm, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { escapeControlCharacters } from '../encoding.js';
import type { PromptDefinition, TemplatePromptDefinition } from '../definition/types.js';
import type { Logger } from '../logger.js';
import { toSafeLogger } from '../logger.js';
import type { PromptStore, StoreChangeEvent, StoredPrompt } from '../stores/contract.js';
import { invalidEntryError, storageCheck } from '../stores/definition.js';
import { DELAY_MS, integerOption } from '../options.js';
import { WindowedJob } from './debounce.js';
import { formatDiagnostic } from './diagnostics.js';
import { fileContext, pickUnique, readPromptFiles, scanPromptDirectory } from './load.js';
import type { LoadPromptDirectoryOptions } from './load.js';
import { promptFileFormat } from './prompt-file.js';
import { pathsRelativeTo, serializePromptFile, writePromptFile } from './prompt-file-write.js';
import type { ParsedPromptFile } from './prompt-file.js';
import { fingerprint } from './scan.js';
import { SettleCheck } from './settle.js';
import { TreeWatcher } from './tree-watcher.js';

/** Options of {@link createDirectoryPromptStore}. */
export interface DirectoryPromptStoreOptions extends LoadPromptDirectoryOptions {
  /**
   * Changes within this many milliseconds of the first one are reported together, and a changed file is read once it
   * has stood still this long (default 100).
   */
  debounceMs?: number;
  /** pino-style logger: a file that cannot be served is logged at `error` (file, prompt, reason) when read. */
  logger?: Logger;
}

/** A {@link PromptStore} over a prompt directory; see {@link createDirectoryPromptStore}. */
export interface DirectoryPromptStore extends PromptStore {
  /** The directory, as given. */
  readonly dir: string;
  /** Stops watching the directory; watchers hear nothing more. */
  close(): Promise<void>;
}

interface Snapshot {
  /** The served definition and its file, by name (the first file in sort order wins). */
  valid: Map<string, { rel: string; definition: PromptDefinition }>;
  /** Names whose files are all invalid: the first one and why. */
  invalid: Map<string, { rel: string; file: string; reason: string }>;
  /** Every file naming each prompt, valid or not. */
  owners: Map<string, string[]>;
  dirs: string[];
  /** Some changed file has not stood still for a window yet: it is read on a later look. */
  waiting: boolean;
}

/** One file as last read: its version, what it parsed to, and its last version that gave a definition. */
interface FileEntry {
  version: string;
  parsed: ParsedPromptFile;
  good?: ParsedPromptFile;
}

/** The directory being watched while someone is subscribed; `known` is what watchers last heard. */
interface Session {
  tree: TreeWatcher;
  job: WindowedJob;
  known: Map<string, string> | undefined;
  /** A change was signalled before `known` was first taken: it may or may not be in it. */
  dirty: boolean;
  closed: boolean;
}

/** The name a file gives its prompt: its `name` field, else its base name without the extension. */
function nameOf(p: ParsedPromptFile): string {
  if (p.definition !== undefined) return p.definition.name;
  if (p.rawName !== undefined) return p.rawName;
  const base = posix.basename(p.rel);
  return base.slice(0, base.lastIndexOf('.'));
}

/**
 * Creates a {@link PromptStore} over a prompt directory (JSON, YAML and Markdown files, as
 * {@link loadPromptDirectory} reads them). A directory has no history: every prompt is at version 1 under every
 * label. `put` validates the definition, writes it atomically (a temporary file renamed over the prompt's file, or
 * `<name>.json` for a new prompt) and refuses what the loader would refuse; `delete` removes every file naming the
 * prompt. A file that never loaded is left out of `list`, and `get` throws INTERNAL_ERROR for it (logged with the
 * file and the reason); a file broken in place keeps its last good version (logged with its place). A file changed in
 * place is read once it has stood still for the debounce window, never half-written: until then its last good version
 * is served. `watch` reports changes by any writer (editors, `git pull`, a ConfigMap update) once per debounce window;
 * the directory is watched only while someone is subscribed.
 *
 * @example
 * ```ts
 * const store = createDirectoryPromptStore('prompts');
 * const sync = await syncRegistry(store, registry); // the registry follows the directory
 * await store.put({ name: 'greet', messages: [{ role: 'user', content: 'Hello {{who}}' }] }); // writes prompts/greet.json
 * sync.close();
 * await store.close();
 * ```
 */
export function createDirectoryPromptStore(
  dir: string,
  options: DirectoryPromptStoreOptions = {},
): DirectoryPromptStore {
  const compilableDefinition = storageCheck();
  const debounceMs = integerOption('createDirectoryPromptStore', 'debounceMs', options.debounceMs, {
    ...DELAY_MS,
    default: 100,
  });
  const context = fileContext(dir, options, 'createDirectoryPromptStore');
  const log = toSafeLogger(options.logger);
  const files = new Map<string, FileEntry>();
  const settle = new SettleCheck(debounceMs);
  /** Whether the directory was read once: its first read serves what is there, later changes wait to settle. */
  let loaded = false;
  /** Every prompt file of the last scan, settled or not. */
  let onDisk = new Set<string>();
  const watchers = new Set<(event: StoreChangeEvent) => void>();
  let session: Session | undefined;
  let knownDirs: string[] = [];
  let closed = false;

  const read = async (): Promise<Snapshot> => {
    let scan;
    try {
      scan = await scanPromptDirectory(context);
    } catch (error) {
      // Not a problem of one prompt: readers retry rather than drop what they serve.
      throw new Error((error as Error).message, { cause: error });
    }
    const changed = scan.files.filter((f) => files.get(f.rel)?.version !== fingerprint(f.stats));
    // A file written in place is read once it has stood still for a window, never half-written; until then its last
    // version read stands (a new file is not there yet).
    settle.keepOnly(new Set(changed.map((f) => f.rel)));
    const stale = loaded ? changed.filter((f) => settle.isSettled(f.rel, f.stats)) : changed;
    let waiting = stale.length < changed.length;
    const parsed = await readPromptFiles(stale, context);
    stale.forEach((f, i) => {
      const p = parsed[i]!;
      const version = fingerprint(f.stats);
      if (p.version !== undefined && p.version !== version) {
        settle.unsettle(f.rel); // changed between the scan and the read: still being written
        waiting = true;
        return;
      }
      const broken = p.definition === undefined && p.diagnostics.some((d) => d.severity === 'error');
      const good = p.definition !== undefined ? p : broken ? files.get(f.rel)?.good : undefined;
      files.set(f.rel, good === undefined ? { version, parsed: p } : { version, parsed: p, good });
      if (broken && good?.definition !== undefined) reportKept(good.definition.name, p);
    });
    loaded = true;
    onDisk = new Set(scan.files.map((f) => f.rel));
    for (const rel of [...files.keys()]) if (!onDisk.has(rel)) files.delete(rel);
    knownDirs = scan.dirs;
    // A file broken in place keeps serving its last good version.
    const all = scan.files.flatMap((f) => {
      const entry = files.get(f.rel);
      return entry === undefined
        ? []
        : [entry.parsed.definition === undefined && entry.good !== undefined ? entry.good : entry.parsed];
    });
    const snapshot: Snapshot = { valid: new Map(), invalid: new Map(), owners: new Map(), dirs: scan.dirs, waiting };
    const relOf = new Map(all.map((p) => [p.file, p.rel]));
    for (const [name, winner] of pickUnique(all).winners)
      snapshot.valid.set(name, { rel: relOf.get(winner.file)!, definition: winner.definition });
    for (const p of all) {
      const error = p.diagnostics.find((d) => d.severity === 'error');
      if (p.definition === undefined && error === undefined) continue; // not a prompt file (Markdown without front matter)
      const name = nameOf(p);
      snapshot.owners.set(name, [...(snapshot.owners.get(name) ?? []), p.rel]);
      if (error !== undefined && !snapshot.valid.has(name) && !snapshot.invalid.has(name)) {
        snapshot.invalid.set(name, { rel: p.rel, file: p.file, reason: formatDiagnostic(error) });
      }
    }
    return snapshot;
  };

  const reportKept = (name: string, broken: ParsedPromptFile): void => {
    const error = broken.diagnostics.find((d) => d.severity === 'error');
    const reason = error === undefined ? 'the file does not load' : formatDiagnostic(error);
    log.error(
      { event: 'prompt_store_invalid_file', prompt: name, file: broken.file, reason },
      'prompt file is invalid; its last good version stays served',
    );
  };

  const reportInvalid = (name: string, bad: { file: string; reason: string }): void => {
    log.error(
      { event: 'prompt_store_invalid_file', prompt: name, file: bad.file, reason: bad.reason },
      'prompt file is invalid and is not served',
    );
  };

  const stored = (name: string, definition: PromptDefinition): StoredPrompt => ({
    name,
    version: 1,
    definition: structuredClone(definition) as TemplatePromptDefinition,
  });

  const emit = (event: StoreChangeEvent): void => {
    for (const watcher of [...watchers]) {
      try {
        watcher(event);
      } catch {
        /* one watcher's fault must not hide the change from the others */
      }
    }
  };

  const keyOf = (snapshot: Snapshot): Map<string, string> => {
    const keys = new Map<string, string>();
    for (const [name, entry] of snapshot.valid) keys.set(name, JSON.stringify(entry.definition));
    for (const [name, bad] of snapshot.invalid) keys.set(name, `invalid: ${bad.reason}`);
    return keys;
  };

  const rescan = async (current: Session): Promise<void> => {
    let next: Map<string, string>;
    try {
      const snapshot = await read();
      if (current.closed) return;
      current.tree.sync(snapshot.dirs);
      if (snapshot.waiting) current.job.trigger(); // a file still being written: look again next window
      next = keyOf(snapshot);
    } catch {
      current.tree.sync([]); // the directory is gone: its re-creation is seen through its parent
      current.known ??= new Map();
      return;
    }
    const known = current.known;
    current.known = next;
    if (known === undefined) {
      if (current.dirty) emit({ type: 'reset' }); // whether the first scan saw that change is unknown: read it all again
      return;
    }
    for (const [name, key] of next) if (known.get(name) !== key) emit({ type: 'put', name, version: 1 });
    for (const name of known.keys()) if (!next.has(name)) emit({ type: 'delete', name });
  };

  const startWatching = (): void => {
    let baseline: Promise<void> = Promise.resolve();
    const current: Session = {
      tree: new TreeWatcher(dir, (): void => {
        if (current.known === undefined) current.dirty = true;
        current.job.trigger();
      }),
      job: new WindowedJob(debounceMs, (): Promise<void> => baseline.then(() => rescan(current))),
      known: undefined,
      dirty: false,
      closed: false,
    };
    session = current;
    // Watch at once what is known of the tree, so that a change during the first scan is signalled (see `dirty`).
    current.tree.sync([...new Set([dir, ...knownDirs])]);
    baseline = rescan(current);
  };

  const stopWatching = async (): Promise<void> => {
    const current = session;
    session = undefined;
    if (current === undefined) return;
    current.closed = true;
    current.tree.close();
    await current.job.close();
  };

  /** Writes `text` to `rel` atomically once the loader accepts it; returns what the loader read. */
  const save = async (rel: string, text: string, name: string): Promise<PromptDefinition> => {
    const target = join(dir, rel);
    const { parsed: checked, stats: written } = await writePromptFile(context, rel, text, name);
    // Our own write is whole (it was renamed into place): read back at once, not after a window.
    const now = await stat(target).catch(() => undefined);
    if (
      now !== undefined &&
      now.dev === written.dev &&
      now.ino === written.ino &&
      now.size === written.size &&
      now.mtimeMs === written.mtimeMs
    ) {
      files.set(rel, { version: fingerprint(now), parsed: checked, good: checked });
      onDisk.add(rel);
    }
    return checked.definition;
  };

  /**
   * A free file name for a new prompt, free whatever the case: on a case-insensitive file system (macOS, Windows), or
   * once the directory is cloned onto one, `Greet.json` and `greet.json` are the same file.
   */
  const newFile = (name: string): string => {
    const taken = new Set([...onDisk].map((rel) => rel.toLowerCase()));
    let rel = `${name}.json`;
    for (let i = 2; taken.has(rel.toLowerCase()); i++) rel = `${name}-${i}.json`;
    return rel;
  };

  return {
    dir,
    // A write is seen within one window and applied once it has stood still for another.
    changeDelayMs: 2 * debounceMs,
    async get(name) {
      const snapshot = await read();
      const entry = snapshot.valid.get(name);
      if (entry !== undefined) return stored(name, entry.definition);
      const bad = snapshot.invalid.get(name);
      if (bad === undefined) return undefined;
      reportInvalid(name, bad);
      throw invalidEntryError(name, bad.reason);
    },
    async list(options) {
      const snapshot = await read();
      for (const [name, bad] of snapshot.invalid) {
        reportInvalid(name, bad);
        options?.onInvalid?.(name, `${escapeControlCharacters(bad.file)}: ${bad.reason}`);
      }
      return [...snapshot.valid.keys()].sort().map((name) => stored(name, snapshot.valid.get(name)!.definition));
    },
    async put(input) {
      const definition = compilableDefinition(input);
      await mkdir(dir, { recursive: true });
      const snapshot = await read();
      const rel =
        snapshot.valid.get(definition.name)?.rel ??
        snapshot.invalid.get(definition.name)?.rel ??
        newFile(definition.name);
      const format = promptFileFormat(rel) ?? 'json';
      const entry = files.get(rel);
      const cases = entry?.parsed.rawCases ?? entry?.good?.rawCases;
      const saved = await save(
        rel,
        serializePromptFile(format, pathsRelativeTo(definition, rel), cases),
        definition.name,
      );
      session?.known?.set(definition.name, JSON.stringify(saved));
      emit({ type: 'put', name: definition.name, version: 1 });
      return stored(definition.name, saved);
    },
    async delete(name) {
      const rels = (await read()).owners.get(name) ?? [];
      if (rels.length === 0) return false;
      await Promise.all(rels.map((rel) => rm(join(dir, rel), { force: true })));
      session?.known?.delete(name);
      emit({ type: 'delete', name });
      return true;
    },
    watch(callback) {
      if (closed) return () => {};
      const watcher = (event: StoreChangeEvent): void => callback(event);
      watchers.add(watcher);
      if (session === undefined) startWatching();
      return () => {
        watchers.delete(watcher);
        if (watchers.size === 0) void stopWatching();
      };
    },
    async close() {
      closed = true;
      watchers.clear();
      await stopWatching();
    },
  };
}
