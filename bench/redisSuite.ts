import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startTestRedis } from '../test/redis/redisServer.js';
import { makeFigure, median, ratioText, type Figure } from './measure.js';

/*
 * Part 6: sessions shared through Redis (assistant-safety/redis). Worker
 * processes (1, then 4 sharing 4 sessions) each run a closed loop of
 * withSession calls against a redis-server of the suite's own; the same
 * workers then run bare GET+SET round trips of a session-sized value, run by
 * run, as the baseline: what any store on Redis pays at the least.
 */

export interface RedisSizes {
  /** withSession calls (and GET+SET pairs) per worker per run. */
  decisions: number;
  /** Measured runs of each configuration. */
  runs: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SESSIONS = ['s0', 's1', 's2', 's3'];

interface JobResult {
  ops: number;
  ms: number;
  latencies: number[];
  cpuUs: number;
  attempts: number;
  conflicts: number;
}

export interface Worker {
  child: ChildProcess;
  run(job: object): Promise<JobResult>;
}

export function startWorker(url: string, name: string): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/redisWorker.ts', url, name], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: Array<(r: JobResult) => void> = [];
  const failed: Array<(e: Error) => void> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    failed.shift();
    waiting.shift()?.(JSON.parse(line) as JobResult);
  });
  child.once('exit', (code) => {
    for (const f of failed) f(new Error(`bench worker ${name} exited with ${code}`));
  });
  return {
    child,
    run: (job) =>
      new Promise((resolve, reject) => {
        waiting.push(resolve);
        failed.push(reject);
        child.stdin!.write(JSON.stringify(job) + '\n');
      }),
  };
}

/** CPU time (user + system) the process has used, µs, from /proc (0 where there is none). */
function processCpuUs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6; // utime, stime in 1/100 s
  } catch {
    return 0;
  }
}

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

interface Measured {
  perSecond: number;
  p50: number;
  p99: number;
  clientCpuUs: number;
  serverCpuUs: number;
  attemptsPerOp: number;
  conflictRate: number;
}

/** Part 6: throughput, latency, conflicts and CPU of the Redis session store against bare GET+SET. */
export async function redisFigures({ decisions = 2000, runs = 3 }: Partial<RedisSizes> = {}): Promise<Figure[]> {
  const redis = await startTestRedis();
  const workers = Array.from({ length: 4 }, (_, i) => startWorker(redis.url, `bench-${i + 1}`));
  let prefixes = 0;
  const measure = async (count: number, mode: 'store' | 'bare', ops: number): Promise<Measured> => {
    const prefix = `bench${prefixes++}:`;
    const cpu0 = processCpuUs(redis.pid);
    const t0 = performance.now();
    const results = await Promise.all(
      workers.slice(0, count).map((w, i) => w.run({ mode, ops, sessions: SESSIONS, prefix, offset: i })),
    );
    const ms = performance.now() - t0;
    const serverCpu = processCpuUs(redis.pid) - cpu0;
    const total = results.reduce((n, r) => n + r.ops, 0);
    const latencies = results.flatMap((r) => r.latencies);
    const attempts = results.reduce((n, r) => n + r.attempts, 0);
    return {
      perSecond: (total / ms) * 1000,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      clientCpuUs: results.reduce((n, r) => n + r.cpuUs, 0) / total,
      // At 10 ms /proc resolution a tiny run can read 0: floor it at one tick over the run.
      serverCpuUs: Math.max(serverCpu, 10_000) / total,
      attemptsPerOp: attempts / total,
      conflictRate: results.reduce((n, r) => n + r.conflicts, 0) / attempts,
    };
  };

  const runsOf = {
    1: { store: [] as Measured[], bare: [] as Measured[] },
    4: { store: [] as Measured[], bare: [] as Measured[] },
  };
  try {
    // Warm-up: connections, script cache, JIT.
    for (const count of [1, 4] as const) {
      await measure(count, 'store', Math.min(100, decisions));
      await measure(count, 'bare', Math.min(100, decisions));
    }
    for (let r = 0; r < runs; r++) {
      for (const count of [1, 4] as const) {
        runsOf[count].store.push(await measure(count, 'store', decisions));
        runsOf[count].bare.push(await measure(count, 'bare', decisions));
      }
    }
  } finally {
    for (const w of workers) w.child.stdin!.end();
    await Promise.all(
      workers.map((w) => new Promise((r) => (w.child.exitCode !== null ? r(0) : w.child.once('exit', r)))),
    );
    await redis.stop();
  }

  const suite = 'redis';
  const pick = (xs: Measured[], k: keyof Measured) => xs.map((x) => x[k]);
  const figures: Figure[] = [];
  for (const count of [1, 4] as const) {
    const { store, bare } = runsOf[count];
    const who = count === 1 ? '1 worker' : '4 workers sharing 4 sessions';
    figures.push(
      makeFigure({
        suite,
        name: `withSession decisions/s, ${who}`,
        unit: 'decisions/s',
        better: 'higher',
        runs: pick(store, 'perSecond'),
        baseline: {
          name: `bare GET+SET round trips/s, ${who}`,
          runs: pick(bare, 'perSecond'),
          describe: (ratio) => ratioText(ratio, 'slower'),
        },
        note: 'one decision: a withSession that begins and ends a read and saves with its stream entries (one Lua script), after a load unless it holds the session as last saved',
      }),
    );
    for (const p of ['p50', 'p99'] as const) {
      figures.push(
        makeFigure({
          suite,
          name: `withSession ${p}, ${who}`,
          unit: 'ms',
          better: 'lower',
          runs: pick(store, p),
          baseline: { name: `bare GET+SET ${p}, ${who}`, runs: pick(bare, p) },
        }),
      );
    }
    const conflictRates = pick(store, 'conflictRate');
    figures.push(
      makeFigure({
        suite,
        name: `attempts per decision, ${who}`,
        unit: 'attempts',
        better: 'lower',
        runs: pick(store, 'attemptsPerOp'),
        note: `1 = no conflict; conflict rate (conflicts / attempts) median ${(median(conflictRates) * 100).toFixed(1)}%`,
      }),
    );
  }
  const { store, bare } = runsOf[1];
  figures.push(
    makeFigure({
      suite,
      name: 'worker CPU per decision (client, restore, decide, persist)',
      unit: 'µs',
      better: 'lower',
      runs: pick(store, 'clientCpuUs'),
      baseline: { name: 'worker CPU per bare GET+SET', runs: pick(bare, 'clientCpuUs') },
      target: { text: 'within 2× of a bare GET+SET', test: (_s, ratio) => ratio !== undefined && ratio <= 2 },
      note: '1 worker, process.cpuUsage of the worker over the run; every session was last saved by this worker, so a decision saves the copy it holds without a load (one round trip, no restore)',
    }),
    makeFigure({
      suite,
      name: 'worker CPU per decision, 4 workers sharing 4 sessions',
      unit: 'µs',
      better: 'lower',
      runs: pick(runsOf[4].store, 'clientCpuUs'),
      baseline: { name: 'worker CPU per bare GET+SET, 4 workers', runs: pick(runsOf[4].bare, 'clientCpuUs') },
      note: 'all 4 workers, process.cpuUsage over the run; sessions change hands between decisions, so most decisions load and restore, and conflicts retry',
    }),
    makeFigure({
      suite,
      name: 'redis-server CPU per decision (load + save script)',
      unit: 'µs',
      better: 'lower',
      runs: pick(store, 'serverCpuUs'),
      baseline: { name: 'redis-server CPU per bare GET+SET', runs: pick(bare, 'serverCpuUs') },
      note: '1 worker; /proc CPU time of redis-server, 10 ms resolution',
    }),
  );
  return figures;
}
