import { resolve } from 'node:path';
import { defineConfig } from 'tsup';

/** The library entries of package.json "exports" (each built as ESM and as CommonJS, with declarations). */
const entry = {
  index: 'src/index.ts',
  mcp: 'src/mcp/index.ts',
  fs: 'src/fs/index.ts',
  postgres: 'src/stores/postgres/index.ts',
  agent: 'src/agent/index.ts',
  http: 'src/http/index.ts',
};

/**
 * The entries' declarations, bundled from what tsc emitted (scripts/declarations.mjs, the first step of `npm run
 * build`, stages them): bundling emitted declarations is quick, making them would take a TypeScript program of its own.
 */
const declarations = Object.fromEntries(
  Object.entries(entry).map(([name, file]) => [
    name,
    resolve('.tmp/declarations/current', file.replace(/^src\//, '').replace(/\.ts$/, '.d.ts')),
  ]),
);

// No source maps (with their embedded sources they were 3.4 of the 5.4 MB the package used to unpack to), and only
// whitespace minified: names are kept, so stack traces still name our functions. scripts/check-package.mjs holds the
// tarball to its size budget.
export default defineConfig([
  // ESM: the library entries and the `mcp-prompt-kit` command (package.json "bin", keeps its #! line) in one build,
  // so the command shares the library's chunks instead of bundling a second copy of it.
  {
    entry: { ...entry, cli: 'src/cli/main.ts' },
    format: ['esm'],
    dts: { entry: declarations },
    sourcemap: false,
    clean: true,
    target: 'node20',
    splitting: true,
    treeshake: true,
    minifyWhitespace: true,
  },
  // CommonJS: declarations are the ESM ones with `.cjs` imports (scripts/declarations-cts.mjs), one slow pass not two.
  {
    entry,
    format: ['cjs'],
    dts: false,
    sourcemap: false,
    clean: false,
    target: 'node20',
    splitting: true,
    treeshake: true,
    minifyWhitespace: true,
  },
]);
