import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileSessionStore } from 'assistant-safety/node';
import { root } from '../server/helpers.js';
import { edit, events, FILE, read } from './fixtures.js';
import { bundleHook, decisionOf, runHook } from './hookProcess.js';

/*
 * Claude Code runs independent tool calls in parallel, each hook in its own process: 8 of them on
 * one session at once (5 reads, 3 edits of the same file) must leave a consistent session:
 * exactly one write admitted, every read admitted, and every admitted call in the saved session
 * (no lost update). 50 repetitions through 8 long-lived processes (each event still from its own
 * process, all released at the same instant), and a few with a fresh process per event.
 */

const REPETITIONS = 50;
const out = mkdtempSync(join(tmpdir(), 'hook-parallel-'));
let bundle: string;
let workers: { child: ChildProcessWithoutNullStreams; next: () => Promise<string> }[] = [];

beforeAll(() => {
  bundle = bundleHook();
  const worker = join(out, 'worker.mjs');
  const result = spawnSync(
    join(root, 'node_modules', '.bin', 'esbuild'),
    [
      join(root, 'test/hooks/hookWorker.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      `--outfile=${worker}`,
      '--log-level=error',
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`bundling the worker failed: ${result.stderr}`);
  workers = Array.from({ length: 8 }, () => {
    const child = spawn(process.execPath, [worker], { stdio: ['pipe', 'pipe', 'pipe'] });
    const pending: string[] = [];
    const waiting: ((line: string) => void)[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      const w = waiting.shift();
      if (w) w(line);
      else pending.push(line);
    });
    const next = () =>
      new Promise<string>((resolve) => {
        const line = pending.shift();
        if (line !== undefined) resolve(line);
        else waiting.push(resolve);
      });
    return { child, next };
  });
}, 60_000);

afterAll(() => {
  for (const w of workers) w.child.kill();
});

/** The 8 events of one repetition and the session's starting point (the file read, nothing in flight). */
async function setUp(rep: number) {
  const dir = join(out, `rep-${rep}`);
  const session = `parallel-${rep}`;
  const store = createFileSessionStore({ dir, session: { targets: 'bind', profile: 'detection' } });
  await store.withSession(session, (s) => {
    s.beginToolCall({ id: 'r0', kind: 'read', tool: 'Read', targets: [`file:${FILE}`] });
    s.endToolCall({ id: 'r0', ok: true });
  });
  const e = events(session);
  const calls = [
    ...[1, 2, 3, 4, 5].map((n) => e.pre('Read', read(`${FILE.replace('config', `part${n}`)}`), `r${n}`)),
    ...[1, 2, 3].map((n) => e.pre('Edit', edit(), `w${n}`)),
  ];
  return { dir, session, store, calls };
}

function check(results: { id: string; decision: string; reasonCode?: string }[], inFlight: string[]) {
  const writes = results.filter((r) => r.id.startsWith('w'));
  const reads = results.filter((r) => r.id.startsWith('r'));
  expect(
    reads.every((r) => r.decision === 'allow'),
    JSON.stringify(results),
  ).toBe(true);
  expect(writes.filter((w) => w.decision === 'allow')).toHaveLength(1);
  expect(writes.filter((w) => w.decision === 'deny').map((w) => w.reasonCode)).toEqual([
    'WRITE_IN_FLIGHT',
    'WRITE_IN_FLIGHT',
  ]);
  const admitted = results.filter((r) => r.decision === 'allow').map((r) => r.id);
  expect(inFlight.sort()).toEqual(admitted.sort());
}

describe('8 hook processes at once on one session', () => {
  it(`admit exactly one write and lose no update (${REPETITIONS} repetitions)`, async () => {
    for (let rep = 0; rep < REPETITIONS; rep++) {
      const { dir, session, store, calls } = await setUp(rep);
      const at = Date.now() + 40;
      calls.forEach((event, i) =>
        workers[i]!.child.stdin.write(`${JSON.stringify({ at, args: ['--state-dir', dir], event })}\n`),
      );
      const lines = await Promise.all(workers.map((w) => w.next()));
      const results = lines.map((line, i) => {
        const r = JSON.parse(line) as { code: number; out: string; err: string };
        const json = r.out ? (JSON.parse(r.out) as Record<string, unknown>) : undefined;
        return {
          id: calls[i]!.tool_use_id,
          ...decisionOf({ code: r.code, stdout: r.out, stderr: r.err, ...(json && { json }) }),
        };
      });
      const saved = await store.get(session);
      check(results, Object.keys(saved!.session.context.calls));
    }
  }, 120_000);

  it('hold with a fresh process per event too', async () => {
    for (let rep = 100; rep < 102; rep++) {
      const { dir, session, store, calls } = await setUp(rep);
      const runs = await Promise.all(calls.map((event) => runHook(bundle, dir, event)));
      const results = runs.map((run, i) => ({ id: calls[i]!.tool_use_id, ...decisionOf(run) }));
      const saved = await store.get(session);
      check(results, Object.keys(saved!.session.context.calls));
    }
  }, 120_000);
});
