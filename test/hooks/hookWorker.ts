import { createInterface } from 'node:readline';
import { runClaudeCodeHook } from '../../src/cli/hookClaudeCode.js';

/*
 * A hook process that stays up: each stdin line is one hook event ({ at, args, event }), run at
 * the wall-clock time `at` (so several workers hit one session at the same moment) through the
 * very function the hook command runs; one result line per event. It spares the parallel test
 * the start-up cost of a process per event, while every event still comes from its own process.
 */
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const { at, args, event } = JSON.parse(line) as { at: number; args: string[]; event: unknown };
  while (Date.now() < at) await new Promise((r) => setTimeout(r, 1));
  let out = '';
  let err = '';
  const code = await runClaudeCodeHook(args, { out: (t) => (out += t), err: (t) => (err += t) }, async () =>
    JSON.stringify(event),
  );
  process.stdout.write(`${JSON.stringify({ code, out, err })}\n`);
}
