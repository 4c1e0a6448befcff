#!/usr/bin/env node
const args = process.argv.slice(2);

// A coding agent's hook runs this before and after every tool call: it loads only the hook's own
// modules, not the whole CLI. Any failure there, a failed import included, exits 2 (refused).
const run: Promise<number> =
  args[0] === 'hook' && args[1] === 'claude-code'
    ? import('./hookFast.js').then(({ runFastHook }) => runFastHook(args.slice(2)))
    : import('./main.js').then(({ main }) => main(args));

run.then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
