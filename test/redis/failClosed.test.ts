import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRedisSessionStore, SessionStoreUnavailableError, type RedisSessionStore } from 'assistant-safety/redis';
import { freePort, startTestRedis, type TestRedis } from './redisServer.js';

/*
 * Fail closed: Redis that is not there, or that does not confirm a save in
 * time, makes calls reject (within timeoutMs, plus scheduling slack), never
 * resolve as if allowed. Observers never decide.
 */

const TIMEOUT_MS = 300;
const SLACK_MS = 1500;
let redis: TestRedis;
let raw: Redis;
const stores: RedisSessionStore[] = [];
const makeStore = (options: Partial<Parameters<typeof createRedisSessionStore>[0]> = {}) => {
  const s = createRedisSessionStore({
    url: redis.url,
    timeoutMs: TIMEOUT_MS,
    onError: () => undefined,
    ...options,
  });
  stores.push(s);
  return s;
};

/** Settles `p` and says how long it took. */
async function timed<T>(p: Promise<T>) {
  const t = performance.now();
  const result = await p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return { ...result, ms: performance.now() - t };
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

describe('a store whose Redis is not there', () => {
  it('should reject every call within the configured time', async () => {
    const port = await freePort(); // nothing listens there
    const store = makeStore({ url: `redis://127.0.0.1:${port}` });
    const calls = await Promise.all([
      timed(store.withSession('a', (s) => s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart' }))),
      timed(store.withSession('b', (s) => s.state)),
      timed(store.get('a')),
      timed(store.list()),
      timed(store.delete('a')),
    ]);
    for (const c of calls) {
      expect(c.ok).toBe(false);
      expect(!c.ok && c.error).toBeInstanceOf(SessionStoreUnavailableError);
      expect(c.ms).toBeLessThanOrEqual(TIMEOUT_MS + SLACK_MS);
    }
  });
});

describe('a save Redis does not confirm in time', () => {
  it('should reject, and a possibly landed begin can be ended safely once Redis answers', async () => {
    const store = makeStore({ keyPrefix: 'paused:' });
    await store.withSession('p', (s) => s.targetEstablished());
    // Writes (the save script) wait; reads (the load) go through.
    await raw.call('CLIENT', 'PAUSE', String(TIMEOUT_MS * 3), 'WRITE');
    const call = await timed(
      store.withSession('p', (s) => s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart' })),
    );
    expect(call.ok).toBe(false);
    expect(!call.ok && call.error).toBeInstanceOf(SessionStoreUnavailableError);
    expect(call.ms).toBeLessThanOrEqual(TIMEOUT_MS + SLACK_MS);
    // After the pause the unconfirmed save may have landed: the documented recovery ends the
    // call as failed, which is ignored if it never began. (A patient store: only the paused call is under test.)
    await new Promise((r) => setTimeout(r, TIMEOUT_MS * 3));
    const patient = makeStore({ keyPrefix: 'paused:', timeoutMs: 20_000 });
    await patient.withSession('p', (s) => s.endToolCall({ id: 'w1', ok: false }));
    expect(
      await patient.withSession('p', (s) => s.beginToolCall({ id: 'w2', kind: 'write', tool: 'restart' })),
    ).toBeNull();
  });
});

describe('observers', () => {
  it('should report a throwing recorder or listener and keep the decision', async () => {
    const errors: Error[] = [];
    const store = makeStore({
      keyPrefix: 'observers:',
      timeoutMs: 20_000,
      recorder: {
        record: () => {
          throw new Error('recorder down');
        },
      },
      onError: (e) => errors.push(e),
    });
    const blocked = await store.withSession('o', (s) => {
      s.subscribe(() => {
        throw new Error('listener down');
      });
      return s.beginToolCall({ id: 'r', kind: 'resolve', tool: 'find' });
    });
    expect(blocked).toBeNull();
    expect((await store.get('o'))?.snapshot.state).toBe('RESOLVING');
    expect((await store.get('o'))?.snapshot.context.calls).toHaveProperty('r');
    expect(errors.map((e) => e.message)).toEqual(expect.arrayContaining(['recorder down', 'listener down']));
  });
});
