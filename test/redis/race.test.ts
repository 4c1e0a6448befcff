import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createSafetySession, replayRecording, restoreSafetySession } from 'assistant-safety';
import { createRedisSessionStore, type RedisSessionStore, type RedisSessionStoreStats } from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from './redisServer.js';
import { replaySequentially, startWorker } from './workers.js';

/*
 * The race: four worker processes share three sessions, each looping
 * read → write through withSession. An external counter (INCR/DECR around
 * every allowed write, outside the session) shows whether two writes were
 * ever in flight on one session; the recorded streams, replayed one entry
 * after the other, must end exactly where the stored sessions are.
 */

const WORKERS = 4;
const ITERATIONS = 20;
const SESSIONS = ['s1', 's2', 's3'];
const PREFIX = 'race:';

interface Totals {
  worker: string;
  allowed: number;
  ended: number;
  blocked: Record<string, number>;
  maxInFlight: number;
  stats: RedisSessionStoreStats;
}

let redis: TestRedis;
let raw: Redis;
let store: RedisSessionStore;
let totals: Totals[];

beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
  store = createRedisSessionStore({ url: redis.url, keyPrefix: PREFIX, streams: true });
  const workers = Array.from({ length: WORKERS }, (_, i) =>
    startWorker('test/redis/fixtures/raceWorker.ts', [redis.url, PREFIX, `w${i + 1}`, String(ITERATIONS), ...SESSIONS]),
  );
  totals = (await Promise.all(workers.map((w) => w.output))).map((out) => JSON.parse(out.trim()) as Totals);
}, 120_000);

afterAll(async () => {
  await store?.close();
  raw?.disconnect();
  await redis?.stop();
});

describe('four worker processes sharing sessions through Redis', () => {
  it('should never have two writes in flight on one session', async () => {
    expect(totals).toHaveLength(WORKERS);
    for (const t of totals) expect(t.maxInFlight, t.worker).toBe(1);
    for (const id of SESSIONS) expect(await raw.get(`race-counter:${id}`)).toBe(String(0));
    // The workers really contended: writes were blocked for one another, or saves overtaken.
    const blocked = totals.reduce((n, t) => n + Object.values(t.blocked).reduce((a, b) => a + b, 0), 0);
    const conflicts = totals.reduce((n, t) => n + t.stats.conflicts, 0);
    expect(blocked + conflicts).toBeGreaterThan(0);
  });

  it('should end every allowed write', async () => {
    const allowed = totals.reduce((n, t) => n + t.allowed, 0);
    expect(allowed).toBeGreaterThan(0);
    expect(totals.reduce((n, t) => n + t.ended, 0)).toBe(allowed);
    let epochs = 0;
    for (const id of SESSIONS) {
      const stored = await store.get(id);
      if (!stored) continue;
      expect(stored.snapshot.state, id).not.toBe('WRITING');
      expect(stored.snapshot.context.calls, id).toEqual({});
      epochs += stored.snapshot.context.writeEpoch;
    }
    // Every allowed write landed exactly once in the sessions.
    expect(epochs).toBe(allowed);
  });

  it('should end each stored session exactly where a sequential replay of its stream ends', async () => {
    for (const id of SESSIONS) {
      const stored = await store.get(id);
      if (!stored) continue;
      const records = await store.readRecording(id);
      const entries = records.map((r) => r.entry);
      expect(
        entries.map((e) => e.seq),
        id,
      ).toEqual(entries.map((_, i) => i));
      expect(entries.length).toBe(stored.entries);
      // Versions only grow along the stream: the saves are in order.
      for (let i = 1; i < records.length; i++)
        expect(records[i]!.version).toBeGreaterThanOrEqual(records[i - 1]!.version);
      expect(new Set(records.map((r) => r.worker)).size, `${id} was handled by several workers`).toBeGreaterThan(1);
      expect(replayRecording(entries).divergences, id).toEqual([]);
      expect(replaySequentially(entries), id).toEqual(stored.snapshot);
    }
  });

  it('should be needed: a plain GET and SET lets two workers both begin a write, and forgets one', async () => {
    // Two workers share a session the naive way: each loads it, decides, and saves it with SET.
    const key = 'naive:{n}';
    const start = createSafetySession({ id: 'n' });
    start.targetEstablished();
    await raw.set(key, JSON.stringify(start.persist()));
    const [a, b] = await Promise.all([raw.get(key), raw.get(key)]).then((xs) =>
      xs.map((x) => restoreSafetySession(x!)),
    );
    expect(a!.beginToolCall({ id: 'wa', kind: 'write', tool: 'restart' })).toBeNull();
    expect(b!.beginToolCall({ id: 'wb', kind: 'write', tool: 'restart' })).toBeNull(); // both allowed
    await raw.set(key, JSON.stringify(a!.persist()));
    await raw.set(key, JSON.stringify(b!.persist())); // a's decision is lost
    const saved = JSON.parse((await raw.get(key))!) as { context: { calls: object } };
    expect(Object.keys(saved.context.calls)).toEqual(['wb']); // wa is running, and nobody knows
  });
});
