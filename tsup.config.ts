import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts', mcp: 'src/mcp/index.ts', fs: 'src/fs/index.ts', postgres: 'src/stores/postgres.ts', agent: 'src/agent/index.ts', http: 'src/http/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: true,
    treeshake: true,
  },
  // The `mcp-prompt-kit` command (package.json "bin"): one ESM file, no declarations; keeps its #! line.
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: true,
    clean: false,
    target: 'node20',
    splitting: false,
    treeshake: true,
  },
]);
