import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { replayRecording, type RecordingEntry, type SafetySession } from 'assistant-safety';
import { createRedisSessionStore, type RedisSessionStore } from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from './redisServer.js';

/*
 * A store keeps the sessions it saved in memory. While Redis holds a session
 * as this store left it, the next decision saves the copy it holds without a
 * load (the version check refuses the save otherwise, and its reply serves as
 * the load). Whatever other stores (or anyone) saved in between is never
 * overwritten or missed, and a session handed to fn never reaches the copy
 * the store keeps once the call is over.
 */

let redis: TestRedis;
let raw: Redis;
const stores: RedisSessionStore[] = [];
const store = (options: Partial<Parameters<typeof createRedisSessionStore>[0]> = {}) => {
  const s = createRedisSessionStore({ url: redis.url, timeoutMs: 20_000, streams: true, ...options });
  stores.push(s);
  return s;
};

/** How many times Redis ran a command since the last call (INFO commandstats). */
async function callsOf(command: string): Promise<number> {
  const info = await raw.info('commandstats');
  await raw.config('RESETSTAT');
  return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
}

beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  raw.disconnect();
  await redis.stop();
});

describe('a session the store holds', () => {
  it('should be saved without a load while nobody else saves it, and never overwrite another save', async () => {
    const a = store({ keyPrefix: 'held:' });
    const b = store({ keyPrefix: 'held:' });
    await a.withSession('h', (s) => s.targetEstablished());
    await a.withSession('h', (s) => s.canExecuteTool('read', 'status'));
    await callsOf('hmget');
    await a.withSession('h', (s) => s.canExecuteTool('read', 'status'));
    expect(await callsOf('hmget')).toBe(0);

    // Another worker begins a write: the held copy is out of date, and a's next decision sees the write.
    expect(await b.withSession('h', (s) => s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart' }))).toBeNull();
    let runs = 0;
    const blocked = await a.withSession('h', (s) => {
      runs++;
      return s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop' });
    });
    expect(blocked?.reasonCode).toBe('WRITE_IN_FLIGHT');
    expect(runs).toBe(2); // once on the held copy (refused), once on the session as stored
    expect(Object.keys((await a.get('h'))!.snapshot.context.calls)).toEqual(['w1']);
    // A refused save on the held copy is the load of the attempt, not a conflict.
    expect(a.stats()).toMatchObject({ conflicts: 0, saved: 4, attempts: 4 });

    // Anyone else's save counts, even one that changes only the version.
    await a.withSession('h', (s) => s.endToolCall({ id: 'w1', ok: false }));
    await raw.hset('held:{h}:s', 'rev', 'someone-else');
    expect(await a.withSession('h', (s) => s.beginToolCall({ id: 'w3', kind: 'write', tool: 'stop' }))).toBeNull();
    expect((await a.get('h'))!.snapshot.state).toBe('WRITING');
  });

  it('should keep the recording continuous and replayable across held and loaded decisions', async () => {
    const recorded: RecordingEntry[] = [];
    const a = store({ keyPrefix: 'heldrec:', recorder: { record: (e) => recorded.push(e) } });
    const b = store({ keyPrefix: 'heldrec:', recorder: { record: (e) => recorded.push(e) } });
    const order = [a, a, a, b, a, a, b, b, a];
    for (const [i, s] of order.entries()) {
      await s.withSession('r', (x) => {
        x.beginToolCall({ id: `c${i}`, kind: 'read', tool: 'status' });
        x.endToolCall({ id: `c${i}`, ok: true });
      });
    }
    expect(recorded.map((e) => e.seq)).toEqual(recorded.map((_, i) => i));
    const entries = (await a.readRecording('r')).map((r) => r.entry);
    expect(entries).toEqual(recorded);
    expect(entries.some((e) => e.call.type === 'restore')).toBe(false);
    expect(replayRecording(entries).divergences).toEqual([]);
  });

  it('should keep a session handed to fn apart from the one it holds once the call is over', async () => {
    const a = store({ keyPrefix: 'leak:' });
    const kept = await a.withSession('k', (s) => {
      s.targetEstablished();
      return s;
    });
    let heard: SafetySession | undefined;
    await a.withSession('k', (s) => {
      s.subscribe((seen) => (heard = seen));
      s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart' });
    });
    await a.withSession('k', (s) => s.endToolCall({ id: 'w1', ok: true }));
    // Each reads the session as its call saved it, not as later calls changed it.
    expect(kept.state).toBe('READING');
    expect(heard?.state).toBe('WRITING');
    // And changing them changes nothing the store decides on.
    kept.reset();
    heard!.endToolCall({ id: 'w1', ok: false });
    expect(await a.withSession('k', (s) => s.state)).toBe('VERIFYING');
    expect((await a.get('k'))!.snapshot.state).toBe('VERIFYING');

    // A method kept for later is no way in either.
    let begin: SafetySession['beginToolCall'] | undefined;
    await a.withSession('m', (s) => {
      s.targetEstablished();
      begin = s.beginToolCall;
    });
    await Promise.resolve();
    expect(begin!({ id: 'late', kind: 'write', tool: 'restart' })).toBeNull();
    expect(await a.withSession('m', (s) => s.state)).toBe('READING');
    expect(await a.withSession('m', (s) => s.state)).toBe('READING');
  });
});
