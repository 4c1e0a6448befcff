#!/usr/bin/env node
import { runClaudeCodeHook } from './hookClaudeCode.js';

/*
 * The hook command on its own (`hook claude-code` without the rest of the CLI), as one entry a
 * bundler can turn into a single file: what `bench/hookLatency.ts` and the hook tests run.
 */
runClaudeCodeHook(process.argv.slice(2), { out: (t) => console.log(t), err: (t) => console.error(t) }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`assistant-safety hook: ${String(error)}; the call is refused`);
    process.exitCode = 2;
  },
);
