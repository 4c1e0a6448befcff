import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

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
    testTimeout: 30_000,
    // Two workers on the project's 2-core machines, not vitest's default of cores - 1 (one): most slow files
    // wait on processes they start (npm, redis-server, Chromium, the CLI), so a second file uses the idle core.
    maxWorkers: 2,
    // Tests wait for conditions, never for time: expect.poll retries until the condition holds, and
    // its bound (15 s, not vitest's 1 s) only catches a hang, so a busy machine does not fail a test.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, 'test/e2e/**'],
        },
      },
      {
        // The public session tests again with every session on XState (the reference executor),
        // so both executors keep every behaviour the tests assert, not only the one the default runs.
        extends: true,
        test: {
          name: 'xstate',
          include: ['test/core/**/*.test.ts', 'test/targets/**/*.test.ts', 'test/escalation/**/*.test.ts'],
          // It measures the heap the default executor documents (docs/limits.md); an XState actor holds more.
          exclude: [...configDefaults.exclude, 'test/core/replayManySessionsMemory.test.ts'],
          env: { ASSISTANT_SAFETY_EXECUTOR: 'xstate' },
        },
      },
      {
        // The end-to-end files, beside the other files in the one worker pool: vitest refuses projects
        // of one run with different worker counts unless they run one group after the other.
        extends: true,
        // A test's timeout is only a hang guard: a browser on a loaded machine is slow, not wrong.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
