/**
 * What the published tarball may hold and weigh (`npm run check:package`): at most {@link MAX_PACKED_BYTES} packed,
 * and only the files an import, the bin or the registry page needs — no source maps, tests, fixtures or sources.
 */

/**
 * The packed (gzipped) size budget, in bytes: 480 kB as npm prints sizes (1 kB = 1000 bytes). It was 400 kB until the
 * `preview` command's page and the example cases shipped, then telemetry, the replicas' snapshot and readiness, and
 * `push` / `pull` (453 kB packed with all of them, each in both the ESM and the CommonJS build).
 */
export const MAX_PACKED_BYTES = 480_000;

/** The files a published package needs: the manifest, README and licence, the built JS and declarations, the schema. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^dist\/[\w.-]+\.(?:js|cjs|d\.ts|d\.cts)$/,
  /^schema\/[\w.-]+\.json$/,
];

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/**
 * The problems of a tarball described by `npm pack --json` (its first element: `size`, `unpackedSize`, `files` with
 * `path` and `size`): files the package does not need, and a packed size over the budget naming the largest files.
 * Returns messages; an empty list means the tarball is within budget.
 */
export function tarballProblems(info, { maxPackedBytes = MAX_PACKED_BYTES } = {}) {
  const problems = [];
  const extra = info.files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file.path)));
  if (extra.length > 0) {
    problems.push(
      `the tarball holds ${extra.length} file(s) no import, bin or registry page needs (source maps, tests, fixtures ` +
        `and sources stay out of it; see "files" in package.json and tsup.config.ts):\n` +
        extra.map((file) => `  ${file.path} (${kB(file.size)})`).join('\n'),
    );
  }
  if (info.size > maxPackedBytes) {
    const largest = [...info.files].sort((a, b) => b.size - a.size).slice(0, 8);
    problems.push(
      `the tarball is ${kB(info.size)} packed (${info.size} bytes; ${kB(info.unpackedSize)} unpacked), over the ` +
        `budget of ${kB(maxPackedBytes)} packed. Largest files (unpacked):\n` +
        largest.map((file) => `  ${file.path} ${kB(file.size)}`).join('\n'),
    );
  }
  return problems;
}
