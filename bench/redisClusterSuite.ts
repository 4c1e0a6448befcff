import { startTestCluster } from '../test/redis/redisCluster.js';
import { startTestRedis } from '../test/redis/redisServer.js';
import { makeFigure, ratioText, type Figure } from './measure.js';
import { percentile, startWorker, type Worker } from './redisSuite.js';

/*
 * Part 6b: sessions on a Redis Cluster against one Redis. The same worker processes run closed
 * loops of withSession decisions (1, 2 and 4 workers, each on sessions of its own so the figure
 * is throughput, not contention) on one redis-server and on a 3-primary cluster with a replica
 * each, every configuration against bare GET+SET round trips on the same topology; then the
 * cluster's decisions with durability 'replicated' (a save waits for a replica) against 'primary'.
 */

export interface RedisClusterSizes {
  /** Decisions (and GET+SET pairs) per worker per run. */
  decisions: number;
  /** Measured runs of each configuration. */
  runs: number;
}

/** Sessions per worker: spread over the cluster's slots, never shared between workers. */
const SESSIONS_PER_WORKER = 12;
const WORKERS = [1, 2, 4] as const;

interface Rates {
  perSecond: number;
  p50: number;
}

async function measureOn(workers: Worker[], count: number, mode: 'store' | 'bare', ops: number, prefix: string) {
  const t0 = performance.now();
  const results = await Promise.all(
    workers.slice(0, count).map((w, i) =>
      w.run({
        mode,
        ops,
        prefix,
        sessions: Array.from({ length: SESSIONS_PER_WORKER }, (_, j) => `w${i}s${j}`),
      }),
    ),
  );
  const ms = performance.now() - t0;
  const total = results.reduce((n, r) => n + r.ops, 0);
  return {
    perSecond: (total / ms) * 1000,
    p50: percentile(
      results.flatMap((r) => r.latencies),
      50,
    ),
  } as Rates;
}

async function stopAll(workers: Worker[]) {
  for (const w of workers) w.child.stdin!.end();
  await Promise.all(
    workers.map((w) => new Promise((r) => (w.child.exitCode !== null ? r(0) : w.child.once('exit', r)))),
  );
}

/** Decisions/s of 1, 2 and 4 workers (store and bare) on one topology, `runs` times each. */
async function topologyRuns(target: string, tag: string, decisions: number, runs: number) {
  const workers = Array.from({ length: 4 }, (_, i) => startWorker(target, `${tag}-${i + 1}`));
  const out = new Map<string, Rates[]>();
  let n = 0;
  try {
    for (const count of WORKERS) {
      await measureOn(workers, count, 'store', Math.min(100, decisions), `${tag}w${n++}:`); // warm-up
      await measureOn(workers, count, 'bare', Math.min(100, decisions), `${tag}w${n++}:`);
    }
    for (let r = 0; r < runs; r++)
      for (const count of WORKERS)
        for (const mode of ['store', 'bare'] as const) {
          const key = `${mode} ${count}`;
          out.set(key, [...(out.get(key) ?? []), await measureOn(workers, count, mode, decisions, `${tag}${n++}:`)]);
        }
  } finally {
    await stopAll(workers);
  }
  return out;
}

/** Part 6b: one Redis against a 3-primary cluster, and the cost of durability 'replicated'. */
export async function redisClusterFigures({ decisions = 1000, runs = 3 }: Partial<RedisClusterSizes> = {}): Promise<
  Figure[]
> {
  const suite = 'redisCluster';
  const figures: Figure[] = [];
  const single = await startTestRedis();
  let one;
  try {
    one = await topologyRuns(single.url, 'one', decisions, runs);
  } finally {
    await single.stop();
  }
  const cluster = await startTestCluster();
  let many;
  let replicated;
  try {
    await cluster.waitHealthy();
    many = await topologyRuns(JSON.stringify({ cluster: cluster.urls }), 'cl', decisions, runs);
    const target = JSON.stringify({ cluster: cluster.urls, durability: 'replicated' });
    replicated = await topologyRuns(target, 'rep', decisions, runs);
  } finally {
    await cluster.stop();
  }
  const rate = (m: Map<string, Rates[]>, key: string) => m.get(key)!.map((x) => x.perSecond);
  for (const count of WORKERS) {
    const who = count === 1 ? '1 worker' : `${count} workers`;
    for (const [where, m] of [
      ['one Redis', one],
      ['a 3-primary cluster', many],
    ] as const)
      figures.push(
        makeFigure({
          suite,
          name: `decisions/s on ${where}, ${who}`,
          unit: 'decisions/s',
          better: 'higher',
          runs: rate(m, `store ${count}`),
          baseline: {
            name: `bare GET+SET round trips/s on ${where}, ${who}`,
            runs: rate(m, `bare ${count}`),
            describe: (ratio) => ratioText(ratio, 'slower'),
          },
          note: `each worker on ${SESSIONS_PER_WORKER} sessions of its own; a decision begins and ends a read and saves it (one script on the session's primary)`,
        }),
      );
    figures.push(
      makeFigure({
        suite,
        name: `decisions/s on a 3-primary cluster with durability 'replicated', ${who}`,
        unit: 'decisions/s',
        better: 'higher',
        runs: rate(replicated, `store ${count}`),
        baseline: {
          name: `decisions/s with durability 'primary', ${who}`,
          runs: rate(many, `store ${count}`),
          describe: (ratio) => ratioText(ratio, 'slower'),
        },
        note: "'replicated': the save and WAIT 1 in one round trip; confirmed only once a replica has it",
      }),
    );
  }
  const p50 = (m: Map<string, Rates[]>) => m.get('store 1')!.map((x) => x.p50);
  figures.push(
    makeFigure({
      suite,
      name: "decision p50 with durability 'replicated', 1 worker, cluster",
      unit: 'ms',
      better: 'lower',
      runs: p50(replicated),
      baseline: { name: "decision p50 with durability 'primary', 1 worker, cluster", runs: p50(many) },
    }),
  );
  return figures;
}
