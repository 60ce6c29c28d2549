/**
 * The file resource resolver: `scheme://path` from root directories, confined, size-limited, cached, with an indexed
 * listing.
 */
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { isPromptError, PromptError } from '../errors.js';
import { matchResourcePattern } from '../render/pattern.js';
import { echoed } from '../errors.js';
import { isWellFormedText } from '../encoding.js';
import type { ResourceResolver } from '../resources.js';
import type { BlobResourceContents, TextResourceContents } from '../types.js';
import { relativePathProblem } from './confine.js';
import { openConfined, readStable } from './open-file.js';
import { isTextMimeType, mimeTypeOf } from './mime.js';
import { fingerprint, scanTree } from './scan.js';
import { resolverLimits } from './resolver-limits.js';
import { upperBound } from '../registry/sorted-names.js';
import { toSafeLogger } from '../logger.js';
import type { Logger } from '../logger.js';

/** Options of {@link createFileResourceResolver}. */
export interface FileResourceResolverOptions {
  /**
   * URI scheme -> directory: `{ architecture: './docs' }` serves `architecture://patterns/x.md` from
   * docs/patterns/x.md.
   */
  roots: Readonly<Record<string, string>>;
  /** Largest document, in bytes (default 1 MiB); a larger one is LIMIT_EXCEEDED. */
  maxDocumentBytes?: number;
  /** Most bytes one glob may embed, all matches together (default 1 MiB); more is LIMIT_EXCEEDED. */
  maxTotalBytes?: number;
  /** Most documents one glob may match (default 50); more is LIMIT_EXCEEDED. */
  maxMatches?: number;
  /** Most documents listed per root (default 10,000). */
  maxListed?: number;
  /**
   * Most directory entries walked per root to build the listing index (default 100,000): beyond it (or beyond
   * `maxListed` documents) the listing is partial (logged at `warn`) and a glob is LIMIT_EXCEEDED.
   */
  maxWalked?: number;
  /**
   * How long the listing index (for `resources/list` and globs) is used before the tree is walked again, in ms
   * (default 2,000). A watcher given this resolver (`watchPromptDirectory({ resources })`) refreshes it on change
   * instead.
   */
  indexTtlMs?: number;
  /** pino-style logger: a partial listing (`maxListed`, `maxWalked`) is logged at `warn` with the root. */
  logger?: Logger;
  /** Bytes of document contents kept in the cache (default 32 MiB). */
  maxCacheBytes?: number;
  /** Extra or overriding MIME types by extension: `{ '.adr': 'text/markdown' }`. */
  mimeTypes?: Readonly<Record<string, string>>;
  /**
   * Tried in order when a URI names no file and its last segment has no extension (default `['.md']`):
   * `architecture://adr/001` finds adr/001.md. `[]` turns this off.
   */
  extensions?: readonly string[];
}

/** One document as MCP `resources/list` describes it. */
export interface FileResource {
  uri: string;
  /** The path under its root (`patterns/cqrs.md`). */
  name: string;
  mimeType: string;
  /** Size in bytes. */
  size: number;
}

/** One document's contents: text for text types, base64 blob otherwise. */
export type FileResourceContents = TextResourceContents | BlobResourceContents;

/** A {@link ResourceResolver} over files, with what an MCP server's resources/list and resources/read need. */
export interface FileResourceResolver extends ResourceResolver {
  /** The document at `uri`, or undefined. Throws RESOURCE_DENIED (outside the root) or LIMIT_EXCEEDED (too large). */
  read(uri: string): Promise<FileResourceContents | undefined>;
  /** Every document matching a glob (`*` within a segment, `**` across), sorted by URI. */
  list(pattern: string): Promise<FileResourceContents[]>;
  /** Every document under every root, sorted by URI (for MCP `resources/list`). */
  listResources(): Promise<FileResource[]>;
  /** One page of {@link listResources}: up to `limit` documents after the URI `after`, and whether more follow. */
  listResourcesPage(after: string | undefined, limit: number): Promise<{ resources: FileResource[]; more: boolean }>;
  /** MCP `resources/read`: `{contents: [...]}`; RESOURCE_NOT_FOUND for an unknown URI. */
  readResource(uri: string): Promise<{ contents: FileResourceContents[] }>;
  /** The configured roots, by scheme. */
  readonly roots: Readonly<Record<string, string>>;
  /** Drops cached contents and the listing index (reads check file versions anyway; watchers call this on change). */
  invalidate(): void;
}

const SCHEME = /^[a-z][a-z0-9+.-]*$/;
const ENCODED_TRAVERSAL = /%(?:2e|2f|5c|00)/i;

/** One document of the listing index. */
interface IndexEntry {
  uri: string;
  scheme: string;
  rel: string;
  size: number;
  mimeType: string;
}

interface DocumentIndex {
  entries: IndexEntry[];
  /** Schemes whose listing is partial (`maxListed`, `maxWalked` or 16 levels reached). */
  partial: string[];
  builtAt: number;
  /** The resolver's generation when the build started: an invalidation since makes it stale. */
  generation: number;
}

/** Resolvers whose roots a watcher keeps an eye on: their index is refreshed on change, not by age. */
const watchedResolvers = new WeakSet<FileResourceResolver>();

/** @internal A watcher now refreshes (or no longer refreshes) this resolver's index. */
export function setIndexWatched(resolver: FileResourceResolver, watched: boolean): void {
  if (watched) watchedResolvers.add(resolver);
  else watchedResolvers.delete(resolver);
}

interface Cached {
  version: string;
  contents: { mimeType: string; text: string } | { mimeType: string; blob: string };
  bytes: number;
}

function denied(uri: string, why: string): PromptError {
  return new PromptError('RESOURCE_DENIED', `Resource access denied: ${echoed(uri)}`, {
    data: { uri: echoed(uri), reason: why },
  });
}

/** Splits `scheme://path` (path still percent-encoded); undefined when it is not one. */
function splitUri(uri: string): { scheme: string; path: string } | undefined {
  const at = uri.indexOf('://');
  if (at <= 0) return undefined;
  return { scheme: uri.slice(0, at), path: uri.slice(at + 3) };
}

/** The decoded relative path of a URI's path part, or the reason it is refused. */
function decodePath(raw: string): { path: string } | { refused: string } {
  if (ENCODED_TRAVERSAL.test(raw)) return { refused: "percent-encoded '.', '/', '\\' or NUL" };
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return { refused: 'malformed percent-encoding' };
  }
  if (!isWellFormedText(path)) return { refused: 'a lone surrogate (no file name holds one)' };
  const problem = relativePathProblem(path);
  return problem === undefined ? { path } : { refused: problem };
}

/** @internal The URI of a document: its scheme and its relative path, each segment percent-encoded. */
export function documentUri(scheme: string, rel: string): string {
  return `${scheme}://${rel.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Creates a resolver serving `scheme://path` from directories. Confinement is checked on real paths: `..`, absolute
 * paths, percent-encoded traversal (`%2e%2e`, `%2f`), NUL bytes, hidden files and symlinks leading outside the root
 * are RESOURCE_DENIED. A document over `maxDocumentBytes`, or a glob over `maxMatches` documents or `maxTotalBytes`,
 * is LIMIT_EXCEEDED. Only configured schemes resolve; anything else is not found. The MIME type comes from the file
 * extension; text types are served as `text`, others as base64 `blob`. Listings and globs use an index of the tree
 * (walked at most `maxWalked` entries per root), refreshed after `indexTtlMs` or, when watched, on change.
 *
 * @example
 * ```ts
 * const resources = createFileResourceResolver({ roots: { architecture: './docs' } });
 * const registry = new PromptRegistry({ resources });
 * await resources.read('architecture://patterns/cqrs.md'); // { uri, mimeType: 'text/markdown', text: '...' }
 * ```
 */
export function createFileResourceResolver(options: FileResourceResolverOptions): FileResourceResolver {
  const roots: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [scheme, dir] of Object.entries(options.roots)) {
    if (!SCHEME.test(scheme))
      throw new TypeError(
        `createFileResourceResolver: invalid URI scheme '${scheme}' (lowercase letters, digits, '+', '-', '.')`,
      );
    if (typeof dir !== 'string' || dir === '')
      throw new TypeError(`createFileResourceResolver: the directory of '${scheme}' must be a non-empty string`);
    roots[scheme] = dir;
  }
  const { maxDocumentBytes, maxTotalBytes, maxMatches, maxListed, maxCacheBytes, maxWalked, indexTtlMs } =
    resolverLimits(options);
  const log = toSafeLogger(options.logger);
  const mimeTypes = options.mimeTypes;
  const extensions = [...(options.extensions ?? ['.md'])];
  for (const ext of extensions) {
    if (!/^\.[A-Za-z0-9_-]+$/.test(ext))
      throw new TypeError(`createFileResourceResolver: invalid extension '${ext}' (like '.md')`);
  }
  const cache = new Map<string, Cached>();
  let cachedBytes = 0;

  const remember = (real: string, entry: Cached): void => {
    const old = cache.get(real);
    if (old !== undefined) cachedBytes -= old.bytes;
    cache.delete(real);
    if (entry.bytes > maxCacheBytes) return;
    cache.set(real, entry);
    cachedBytes += entry.bytes;
    for (const [key, value] of cache) {
      if (cachedBytes <= maxCacheBytes) break;
      cache.delete(key); // the least recently used first (Map keeps insertion order; hits re-insert)
      cachedBytes -= value.bytes;
    }
  };

  const tooLarge = (uri: string, size?: number): PromptError =>
    new PromptError(
      'LIMIT_EXCEEDED',
      `Resource ${uri} is ${size === undefined ? 'over' : `${size} bytes, over`} the ${maxDocumentBytes}-byte limit`,
      {
        data: { limit: 'maxDocumentBytes', max: maxDocumentBytes },
      },
    );

  /** Reads one document by scheme and decoded path; undefined when it does not exist. */
  const readPath = async (uri: string, root: string, rel: string): Promise<FileResourceContents | undefined> => {
    // What is read is what was opened, checked by its descriptor (a path swapped for a symlink meanwhile is refused).
    const found = await openConfined(root, rel);
    if (!found.ok) {
      if (found.reason === 'denied') throw denied(uri, found.detail);
      return undefined;
    }
    let result: Awaited<ReturnType<typeof readStable>>;
    try {
      if (found.stats.size > maxDocumentBytes) throw tooLarge(uri, found.stats.size);
      const version = fingerprint(found.stats);
      const hit = cache.get(found.path);
      if (hit !== undefined && hit.version === version) {
        cache.delete(found.path);
        cache.set(found.path, hit);
        return { uri, ...hit.contents };
      }
      result = await readStable(found.handle, maxDocumentBytes, found.stats);
    } finally {
      await found.handle.close().catch(() => undefined);
    }
    if (!result.ok) {
      if (result.reason === 'too-large') throw tooLarge(uri);
      // Still being written after three reads: not served half-written.
      throw new PromptError('INTERNAL_ERROR', `Resource ${uri} kept changing while it was read`);
    }
    const bytes = result.bytes;
    const mimeType = mimeTypeOf(rel, mimeTypes);
    const contents: Cached['contents'] = isTextMimeType(mimeType)
      ? { mimeType, text: bytes.toString('utf8') }
      : { mimeType, blob: bytes.toString('base64') };
    remember(found.path, { version: fingerprint(result.stats), contents, bytes: bytes.length });
    return { uri, ...contents };
  };

  const read = async (uri: string): Promise<FileResourceContents | undefined> => {
    const parts = splitUri(uri);
    if (parts === undefined) return undefined;
    const root = roots[parts.scheme];
    if (root === undefined) return undefined;
    if (parts.path === '') return undefined;
    const decoded = decodePath(parts.path);
    if ('refused' in decoded) throw denied(uri, decoded.refused);
    const found = await readPath(uri, root, decoded.path);
    if (found !== undefined || decoded.path.slice(decoded.path.lastIndexOf('/') + 1).includes('.')) return found;
    for (const ext of extensions) {
      const withExtension = await readPath(uri, root, decoded.path + ext);
      if (withExtension !== undefined) return withExtension;
    }
    return undefined;
  };

  /** The listing index: every document of every root, sorted by URI; rebuilt when stale (one build at a time). */
  let index: DocumentIndex | undefined;
  let building: Promise<DocumentIndex> | undefined;
  let generation = 0;

  const buildIndex = async (): Promise<DocumentIndex> => {
    const entries: IndexEntry[] = [];
    const partial: string[] = [];
    for (const scheme of Object.keys(roots).sort()) {
      const root = roots[scheme]!;
      let scan;
      try {
        scan = await scanTree(root, {
          acceptFile: () => true,
          maxFiles: maxListed,
          maxWalked,
          confineTo: await realpath(root),
        });
      } catch {
        continue; // a missing root lists nothing
      }
      if (scan.truncated) {
        partial.push(scheme);
        log.warn(
          { event: 'resource_walk_cut', scheme, root, maxWalked, maxListed },
          `the documents of ${scheme}:// are more than ${maxListed}, or ${maxWalked} entries, or 16 levels deep: the listing is partial`,
        );
      }
      for (const f of scan.files) {
        entries.push({
          uri: documentUri(scheme, f.rel),
          scheme,
          rel: f.rel,
          size: f.stats.size,
          mimeType: mimeTypeOf(f.rel, mimeTypes),
        });
      }
    }
    entries.sort((x, y) => (x.uri < y.uri ? -1 : x.uri > y.uri ? 1 : 0));
    return { entries, partial, builtAt: Date.now(), generation: 0 };
  };

  /** The documents under one directory of a root (for a glob when the root's index is partial). */
  const walkUnder = async (scheme: string, root: string, under: string, pattern: string): Promise<IndexEntry[]> => {
    const rel = under;
    let scan;
    try {
      scan = await scanTree(rel === '' ? root : join(root, rel), {
        acceptFile: () => true,
        maxFiles: maxListed,
        maxWalked,
        confineTo: await realpath(root),
      });
    } catch {
      return [];
    }
    if (scan.truncated) {
      throw new PromptError(
        'LIMIT_EXCEEDED',
        `Resource pattern ${pattern} covers more than ${maxListed} documents or ${maxWalked} entries`,
        {
          data: { limit: 'maxWalked', max: maxWalked },
        },
      );
    }
    return scan.files.map((f) => {
      const full = rel === '' ? f.rel : `${rel}/${f.rel}`;
      return {
        uri: documentUri(scheme, full),
        scheme,
        rel: full,
        size: f.stats.size,
        mimeType: mimeTypeOf(full, mimeTypes),
      };
    });
  };

  const currentIndex = (): Promise<DocumentIndex> => {
    if (
      index !== undefined &&
      index.generation === generation &&
      (watchedResolvers.has(resolver) || Date.now() - index.builtAt < indexTtlMs)
    ) {
      return Promise.resolve(index);
    }
    if (building === undefined) {
      const started = generation;
      building = buildIndex().then(
        (built) => {
          built.generation = started;
          index = built;
          building = undefined;
          return built;
        },
        (error: unknown) => {
          building = undefined;
          throw error;
        },
      );
    }
    return building;
  };

  const list = async (pattern: string): Promise<FileResourceContents[]> => {
    const parts = splitUri(pattern);
    if (parts === undefined) return [];
    const root = roots[parts.scheme];
    if (root === undefined) return [];
    // Only the index entries under the directory the pattern's literal prefix names.
    const star = parts.path.indexOf('*');
    const literal = star === -1 ? parts.path : parts.path.slice(0, star);
    const dirPart = literal.slice(0, Math.max(0, literal.lastIndexOf('/')));
    let prefix = `${parts.scheme}://`;
    let under = '';
    if (dirPart !== '') {
      const decoded = decodePath(dirPart);
      if ('refused' in decoded) throw denied(pattern, decoded.refused);
      under = decoded.path;
      prefix = `${documentUri(parts.scheme, under)}/`;
    }
    const built = await currentIndex();
    let entries = built.entries;
    if (built.partial.includes(parts.scheme)) {
      // The root's listing is partial: walk the pattern's directory alone (bounded the same way), or refuse.
      entries = await walkUnder(parts.scheme, root, under, pattern);
    }
    const matches: IndexEntry[] = [];
    for (let i = lowerBound(entries, prefix); i < entries.length && entries[i]!.uri.startsWith(prefix); i++) {
      const entry = entries[i]!;
      if (!matchResourcePattern(pattern, entry.uri)) continue;
      if (matches.length === maxMatches) {
        throw new PromptError(
          'LIMIT_EXCEEDED',
          `Resource pattern ${pattern} matches more than ${maxMatches} documents`,
          {
            data: { limit: 'maxMatches', max: maxMatches },
          },
        );
      }
      matches.push(entry);
    }
    const total = matches.reduce((sum, m) => sum + m.size, 0);
    if (total > maxTotalBytes) {
      throw new PromptError(
        'LIMIT_EXCEEDED',
        `Resource pattern ${pattern} matches ${total} bytes, over the ${maxTotalBytes}-byte limit`,
        {
          data: { limit: 'maxTotalBytes', max: maxTotalBytes },
        },
      );
    }
    const docs = await Promise.all(
      matches.map(async (m) => {
        try {
          return await readPath(m.uri, root, m.rel);
        } catch (error) {
          // A listed file that is hidden, or a symlink leading outside the root, is simply not part of the listing.
          if (isPromptError(error) && error.code === 'RESOURCE_DENIED') return undefined;
          throw error;
        }
      }),
    );
    return docs.filter((c): c is FileResourceContents => c !== undefined);
  };

  const listed = (e: IndexEntry): FileResource => ({ uri: e.uri, name: e.rel, mimeType: e.mimeType, size: e.size });

  const resolver: FileResourceResolver = {
    roots: Object.freeze({ ...roots }),
    read,
    list,
    async listResources() {
      return (await currentIndex()).entries.map(listed);
    },
    async listResourcesPage(after, limit) {
      const { entries } = await currentIndex();
      const start = after === undefined ? 0 : upperBound(entries, after, (e) => e.uri);
      const end = Math.min(entries.length, start + Math.max(0, limit));
      return { resources: entries.slice(start, end).map(listed), more: end < entries.length };
    },
    async readResource(uri) {
      const contents = await read(uri);
      if (contents === undefined) throw new PromptError('RESOURCE_NOT_FOUND', `Resource not found: ${echoed(uri)}`);
      return { contents: [contents] };
    },
    invalidate() {
      cache.clear();
      cachedBytes = 0;
      generation++;
    },
  };
  return resolver;
}

/** The first index of `sorted` whose URI is not below `uri`. */
function lowerBound(sorted: readonly IndexEntry[], uri: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.uri < uri) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
