import { main } from '../../src/cli/main.js';

/** Runs the CLI in-process (`assistant-safety <args>`): its exit code and what it printed, each stream joined. */
export async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
