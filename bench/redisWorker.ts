import { createInterface } from 'node:readline';
import { Cluster, Redis } from 'ioredis';
import { createSafetySession } from 'assistant-safety';
import { createRedisSessionStore } from 'assistant-safety/redis';

/*
 * One worker process of the Redis benchmark. Reads jobs from stdin, one JSON
 * line each, and answers each with one JSON line:
 *
 *   { mode: 'store' | 'bare', ops, sessions: string[], prefix, offset? }
 *   → { ops, ms, latencies: number[] (ms), cpuUs, attempts, conflicts }
 *
 * `store`: each op is one withSession that begins and ends a read (streams
 * on). `bare`: each op is a GET and a SET of a value the size of a stored
 * session: the round trips the store cannot do with fewer.
 *
 * argv: TARGET WORKER, TARGET a redis:// URL or JSON { cluster: [urls], durability? }
 */

const [target, worker] = process.argv.slice(2);
/** A URL (one server), or JSON `{ cluster: [urls], durability? }` (a Redis Cluster). */
const where: { url?: string; cluster?: string[]; durability?: 'primary' | 'replicated' } = target!.startsWith('{')
  ? (JSON.parse(target!) as { cluster: string[]; durability?: 'primary' | 'replicated' })
  : { url: target! };
const raw = where.cluster
  ? new Cluster(where.cluster.map((u) => ({ host: new URL(u).hostname, port: Number(new URL(u).port) })))
  : new Redis(where.url!);
const stores = new Map<string, ReturnType<typeof createRedisSessionStore>>();
const storeFor = (prefix: string) => {
  let store = stores.get(prefix);
  if (!store) {
    store = createRedisSessionStore({
      ...(where.cluster ? { cluster: where.cluster } : { url: where.url! }),
      ...(where.durability && { durability: where.durability }),
      keyPrefix: prefix,
      worker: worker!,
      streams: { maxLen: 1000 },
      maxAttempts: 1000,
      timeoutMs: 30_000,
    });
    stores.set(prefix, store);
  }
  return store;
};
// A value as big as a stored session mid-run.
const session = createSafetySession({ id: 'size-of-a-session' });
session.beginToolCall({ id: 'c1', kind: 'resolve', tool: 'find_vm' });
session.endToolCall({ id: 'c1', ok: true });
session.beginToolCall({ id: 'c2', kind: 'read', tool: 'get_status' });
const VALUE = JSON.stringify(session.persist());

interface Job {
  mode: 'store' | 'bare';
  ops: number;
  sessions: string[];
  prefix: string;
  /** Where in `sessions` this worker starts (workers start apart, as independent traffic would). */
  offset?: number;
}

let n = 0;
async function run(job: Job) {
  const latencies: number[] = [];
  const store = job.mode === 'store' ? storeFor(job.prefix) : undefined;
  const before = store?.stats();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < job.ops; i++) {
    const id = job.sessions[(i + (job.offset ?? 0)) % job.sessions.length]!;
    const t = performance.now();
    if (store) {
      const callId = `${worker}-${n++}`;
      await store.withSession(id, (s) => {
        s.beginToolCall({ id: callId, kind: 'read', tool: 'get_status' });
        s.endToolCall({ id: callId, ok: true });
      });
    } else {
      // A hash tag as the store's keys have: on a cluster the pair goes to the session's primary.
      await raw.get(`${job.prefix}{${id}}`);
      await raw.set(`${job.prefix}{${id}}`, VALUE);
    }
    latencies.push(performance.now() - t);
  }
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  const after = store?.stats();
  return {
    ops: job.ops,
    ms,
    latencies,
    cpuUs: used.user + used.system,
    attempts: after && before ? after.attempts - before.attempts : job.ops,
    conflicts: after && before ? after.conflicts - before.conflicts : 0,
  };
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === '') continue;
  const result = await run(JSON.parse(line) as Job);
  process.stdout.write(JSON.stringify(result) + '\n');
}
await Promise.all([...stores.values()].map((s) => s.close()));
raw.disconnect();
