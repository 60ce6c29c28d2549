/** The file asset loader: image/audio `path` content read from the prompt directory, confined to it. */
import { PromptError } from '../errors.js';
import type { AssetLoader } from '../resources.js';
import { integerOption } from '../options.js';
import { openConfined, readStable } from './open-file.js';

/** @internal The largest asset when the options leave `maxBytes` out. */
export const DEFAULT_MAX_ASSET_BYTES = 1_048_576;

/** Options of {@link createFileAssetLoader}. */
export interface FileAssetLoaderOptions {
  /** Largest asset, in bytes (default 1 MiB); a larger one is LIMIT_EXCEEDED. */
  maxBytes?: number;
}

/**
 * Creates the registry's `assets` loader for a prompt directory: `{type: 'image', path}` content is read from
 * `root` (paths are relative to it; {@link loadPromptDirectory} makes each file's paths so). A path leading outside
 * the directory (`..`, absolute, a symlink out) is RESOURCE_DENIED, a missing file RESOURCE_NOT_FOUND, a file over
 * `maxBytes` LIMIT_EXCEEDED.
 *
 * @example
 * ```ts
 * const registry = new PromptRegistry({ assets: createFileAssetLoader('prompts') });
 * ```
 */
export function createFileAssetLoader(root: string, options: FileAssetLoaderOptions = {}): AssetLoader {
  const maxBytes = integerOption('createFileAssetLoader', 'maxBytes', options.maxBytes, {
    min: 0,
    default: DEFAULT_MAX_ASSET_BYTES,
  });
  return {
    async read(path) {
      const found = await openConfined(root, path);
      if (!found.ok) {
        if (found.reason === 'denied') {
          throw new PromptError('RESOURCE_DENIED', `Resource access denied: ${path}`, {
            data: { reason: found.detail },
          });
        }
        throw new PromptError('RESOURCE_NOT_FOUND', `Resource not found: ${path}`);
      }
      let read;
      try {
        read = await readStable(found.handle, maxBytes, found.stats);
      } finally {
        await found.handle.close().catch(() => undefined);
      }
      if (!read.ok) {
        if (read.reason === 'unsettled')
          throw new PromptError('INTERNAL_ERROR', `Asset ${path} kept changing while it was read`);
        throw new PromptError(
          'LIMIT_EXCEEDED',
          `Asset ${path} is ${read.size} bytes, over the ${maxBytes}-byte limit`,
          {
            data: { limit: 'maxAssetBytes', max: maxBytes },
          },
        );
      }
      return new Uint8Array(read.bytes.buffer, read.bytes.byteOffset, read.bytes.length);
    },
  };
}
