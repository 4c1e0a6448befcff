import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSessionStore, type RedisSessionStore } from 'assistant-safety/redis';
import { startTestCluster, type TestCluster } from './redisCluster.js';
import { startTestRedis, type TestRedis } from './redisServer.js';
import { ROOT } from './workers.js';

/*
 * A primary of a real 6-node Redis Cluster (3 primaries, 3 replicas) is SIGKILLed while 4 worker
 * processes make decisions on 50 sessions. With durability 'replicated', every decision a worker
 * saw acknowledged must be in its session after the failover (its begin or end in the session's
 * stream, saved by the same script as the session), no session ever has two writes in flight
 * (an external counter on a separate redis-server), the workers fail closed while the shard has
 * no primary and carry on after. Ten runs in a row on one cluster, each killing another primary
 * (the killed node comes back as a replica of the promoted one before the next run). With
 * 'primary', what was lost is printed as a figure: not an assertion, since losing it is allowed.
 */

const RUNS = 10;
const WORKERS = 4;
const SESSIONS = Array.from({ length: 50 }, (_, i) => `s${i}`);
const RUN_MS = 5000;
const KILL_AFTER_MS = 1200;

type Acked = [session: string, callId: string, phase: 'begin' | 'end', at: number];
interface RunResult {
  worker: string;
  acked: Acked[];
  allowed: number;
  failed: number;
  maxInFlight: number;
}
interface Worker {
  child: ChildProcess;
  run(job: object): Promise<RunResult>;
}

let cluster: TestCluster;
let counter: TestRedis;
let workers: Worker[] = [];
let reader: RedisSessionStore;

function startWorker(name: string): Worker {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/redis/fixtures/failoverWorker.ts', counter.url, name, ...cluster.urls],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const waiting: Array<{ resolve: (r: RunResult) => void; reject: (e: Error) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.resolve(JSON.parse(line)));
  child.once('exit', (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`worker ${name} exited with ${code}`));
  });
  return {
    child,
    run: (job) =>
      new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin!.write(JSON.stringify(job) + '\n');
      }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the workers for RUN_MS, killing a primary (the `round`-th, rotating) after KILL_AFTER_MS. */
async function runWithFailover(prefix: string, durability: 'primary' | 'replicated', round: number) {
  const before = await cluster.primaries();
  const victim = before.sort((a, b) => a - b)[round % before.length]!;
  const results = Promise.all(workers.map((w) => w.run({ prefix, durability, sessions: SESSIONS, ms: RUN_MS })));
  await sleep(KILL_AFTER_MS);
  const killedAt = Date.now();
  await cluster.kill(victim);
  // The killed node comes back only once its replica was promoted (empty, it rejoins as a replica).
  let promotedAt = 0;
  for (let i = 0; i < 200 && promotedAt === 0; i++) {
    const now = await cluster.primaries().catch((): number[] => []);
    if (now.length === before.length && !now.includes(victim)) promotedAt = Date.now();
    else await sleep(50);
  }
  if (promotedAt === 0) throw new Error(`no replica of ${victim} was promoted`);
  await cluster.restart(victim);
  const out = await results;
  await cluster.waitHealthy(30_000);
  return { out, killedAt, promotedAt, victim };
}

/** Acknowledged decisions whose entry is not in their session's stream. */
async function missing(prefix: string, acked: Acked[]) {
  const store = createRedisSessionStore({ cluster: cluster.urls, keyPrefix: prefix, streams: true, timeoutMs: 10_000 });
  try {
    const seen = new Map<string, Set<string>>();
    for (const id of SESSIONS) {
      const ids = new Set<string>();
      for (const r of await store.readRecording(id)) {
        const c = r.entry.call;
        if (c.type === 'beginToolCall') ids.add(`${c.id}/begin`);
        if (c.type === 'endToolCall') ids.add(`${c.id}/end`);
      }
      seen.set(id, ids);
    }
    return acked.filter(([id, callId, phase]) => !seen.get(id)!.has(`${callId}/${phase}`));
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  [cluster, counter] = await Promise.all([startTestCluster({ nodeTimeoutMs: 500 }), startTestRedis()]);
  workers = Array.from({ length: WORKERS }, (_, i) => startWorker(`w${i + 1}`));
  reader = createRedisSessionStore({ cluster: cluster.urls, keyPrefix: 'unused:', timeoutMs: 10_000 });
}, 60_000);

afterAll(async () => {
  for (const w of workers) w.child.kill('SIGKILL');
  await reader?.close();
  await Promise.all([cluster?.stop(), counter?.stop()]);
}, 30_000);

describe('a primary SIGKILLed under 4 workers on 50 sessions', () => {
  it(`should lose no acknowledged decision with durability 'replicated', ${RUNS} runs in a row`, async () => {
    for (let run = 0; run < RUNS; run++) {
      const prefix = `replicated${run}:`;
      const { out, promotedAt } = await runWithFailover(prefix, 'replicated', run);
      const acked = out.flatMap((r) => r.acked);
      const label = `run ${run + 1}`;
      // Every decision a caller saw acknowledged is in the session after the failover.
      expect(await missing(prefix, acked), label).toEqual([]);
      // Never two writes in flight on one session.
      for (const r of out) expect(r.maxInFlight, `${label} ${r.worker}`).toBeLessThanOrEqual(1);
      expect(
        out.reduce((n, r) => n + r.allowed, 0),
        label,
      ).toBeGreaterThan(0);
      // Fail closed during the failover: some calls were refused (the shard had no primary).
      expect(
        out.reduce((n, r) => n + r.failed, 0),
        label,
      ).toBeGreaterThan(0);
      // And carry on after: every worker had decisions acknowledged once the replica was promoted.
      for (const r of out)
        expect(
          r.acked.some((a) => a[3] > promotedAt),
          `${label} ${r.worker}`,
        ).toBe(true);
      console.log(
        `replicated ${label}: ${acked.length} acknowledged, 0 lost, ${out.reduce((n, r) => n + r.failed, 0)} refused during the failover`,
      );
    }
  }, 240_000);

  it("should report what durability 'primary' loses (a figure, not an assertion)", async () => {
    const prefix = 'primary0:';
    const { out } = await runWithFailover(prefix, 'primary', 0);
    const acked = out.flatMap((r) => r.acked);
    const lost = await missing(prefix, acked);
    const most = Math.max(...out.map((r) => r.maxInFlight));
    console.log(
      `primary: ${acked.length} acknowledged decisions, ${lost.length} lost in the failover, most writes in flight on one session ${most} (${((lost.length / Math.max(1, acked.length)) * 100).toFixed(2)}%)`,
    );
    expect(acked.length).toBeGreaterThan(0);
  }, 60_000);
});
