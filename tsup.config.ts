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

// No source maps (with their embedded sources they were 3.4 of the 5.4 MB the package used to unpack to), and only
// whitespace minified: names are kept, so stack traces still name our functions. scripts/check-package.mjs holds the
// tarball to its size budget.
export default defineConfig([
  // ESM: the library entries and the `mcp-prompt-kit` command (package.json "bin", keeps its #! line) in one build,
  // so the command shares the library's chunks instead of bundling a second copy of it.
  {
    entry: { ...entry, cli: 'src/cli/main.ts' },
    format: ['esm'],
    dts: { entry },
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
