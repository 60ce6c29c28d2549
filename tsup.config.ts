import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', mcp: 'src/mcp/index.ts', postgres: 'src/stores/postgres.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
});
