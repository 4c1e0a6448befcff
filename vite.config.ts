import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The app (viz/) is the Vite root; `npm run build` puts it in dist/viz, which `serve` serves.
  root: here('./viz'),
  base: './',
  plugins: [react()],
  resolve: {
    // Tests import the package by name and get the source tree, not a stale build.
    alias: [
      { find: /^assistant-safety$/, replacement: here('./src/index.ts') },
      // Each subpath export is one folder of src/ (docs/packages.md).
      { find: /^assistant-safety\/([a-z-]+)$/, replacement: here('./src') + '/$1/index.ts' },
    ],
  },
  build: {
    outDir: here('./dist/viz'),
    emptyOutDir: true,
    // The app is served from the local machine: one chunk is fine.
    chunkSizeWarningLimit: 4000,
  },
  test: {
    // Tests live outside the app root.
    root: here('.'),
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
  },
});
