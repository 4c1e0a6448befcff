import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRedisSessionStore, SessionLostError, type RedisSessionStore } from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from './redisServer.js';

/*
 * Redis restarted without persistence forgets every session. A store that
 * saved a session knows it existed: the next withSession on it rejects with
 * SESSION_LOST instead of starting a fresh session that has forgotten an
 * unverified write. Deleting through any store leaves a tombstone, so a
 * deletion is never mistaken for a loss.
 */

let redis: TestRedis;
const stores: RedisSessionStore[] = [];
const store = (options: Partial<Parameters<typeof createRedisSessionStore>[0]> = {}) => {
  const s = createRedisSessionStore({ url: redis.url, timeoutMs: 20_000, onError: () => undefined, ...options });
  stores.push(s);
  return s;
};

/** Retries until the store answers again after a restart (the client reconnects on its own schedule). */
async function settled<T>(call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  for (let tries = 0; ; tries++) {
    const r = await call().then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (r.ok || (r.error as { code?: string }).code !== 'STORE_UNAVAILABLE' || tries >= 40) return r;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  redis = await startTestRedis(); // no persistence
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis.stop();
});

describe('a session lost by a Redis restart without persistence', () => {
  it('should make the next withSession of every store that used it reject with SESSION_LOST, not start afresh', async () => {
    const a = store({ keyPrefix: 'lost:' });
    const b = store({ keyPrefix: 'lost:' });
    await a.withSession('conv', (s) => {
      s.targetEstablished();
      s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
      s.endToolCall({ id: 'w1', ok: true });
    });
    // Worker B saved it too (a read that does not verify: it began before... here, a resolve).
    await b.withSession('conv', (s) => s.state);
    expect((await a.get('conv'))?.snapshot.state).toBe('VERIFYING');
    const fresh = store({ keyPrefix: 'lost:' });

    await redis.restart();

    for (const s of [a, b]) {
      const r = await settled(() =>
        s.withSession('conv', (session) => session.beginToolCall({ id: 'w2', kind: 'write', tool: 'restart_vm' })),
      );
      expect(r.ok).toBe(false);
      const error = !r.ok ? r.error : undefined;
      expect(error).toBeInstanceOf(SessionLostError);
      expect(error).toMatchObject({ code: 'SESSION_LOST', sessionId: 'conv' });
      expect((error as Error).message).toMatch(/restart|persistence|evict/);
    }
    // Nothing was saved in its place: the next write was not allowed anywhere.
    expect(await a.get('conv')).toBeUndefined();
    expect(a.stats().lost).toBe(1);
    // A store that never used the session cannot tell it from a new one.
    expect((await settled(() => fresh.withSession('other', (s) => s.state))).ok).toBe(true);

    // Deleting acknowledges the loss: the session starts afresh.
    await a.delete('conv');
    expect(await a.withSession('conv', (s) => s.state)).toBe('RESOLVING');
    // B now finds a session again: not lost, just new (a deletion leaves a tombstone).
    expect(await b.withSession('conv', (s) => s.state)).toBe('RESOLVING');
  });

  it('should keep a session that went back to an older version (a partial restore) from being used', async () => {
    const raw = new Redis(redis.url);
    try {
      const s = store({ keyPrefix: 'older:' });
      await s.withSession('x', (session) => session.targetEstablished());
      const saved = await raw.hgetall('older:{x}:s');
      await s.withSession('x', (session) => session.beginToolCall({ id: 'w', kind: 'write', tool: 't' }));
      // Redis comes back with the first save only (an AOF that lost its last second).
      await raw.del('older:{x}:s');
      await raw.hset('older:{x}:s', saved);
      await expect(s.withSession('x', (session) => session.state)).rejects.toMatchObject({ code: 'SESSION_LOST' });
    } finally {
      raw.disconnect();
    }
  });

  it('should not call a session lost when another worker deleted it, or when it expired', async () => {
    const a = store({ keyPrefix: 'del:' });
    const b = store({ keyPrefix: 'del:' });
    await a.withSession('d', (s) => s.targetEstablished());
    await b.delete('d');
    expect(await a.withSession('d', (s) => s.state)).toBe('RESOLVING');

    const short = store({ keyPrefix: 'ttl:', idleTtlMs: 100 });
    await short.withSession('e', (s) => s.targetEstablished());
    const raw = new Redis(redis.url);
    try {
      while ((await raw.exists('ttl:{e}:s')) === 1) await new Promise((r) => setTimeout(r, 20));
    } finally {
      raw.disconnect();
    }
    // Expired by its idle TTL, as documented: a fresh session.
    for (;;) {
      const r = await settled(() => short.withSession('e', (s) => s.state));
      if (r.ok) {
        expect(r.value).toBe('RESOLVING');
        break;
      }
      // The store's own clock may not have passed the TTL yet (the server's expiry ran first).
      expect(r.error).toBeInstanceOf(SessionLostError);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('can be turned off: lostSessions "fresh" starts a new session as before', async () => {
    const s = store({ keyPrefix: 'off:', lostSessions: 'fresh' });
    await s.withSession('o', (session) => session.targetEstablished());
    const raw = new Redis(redis.url);
    await raw.flushall();
    raw.disconnect();
    expect(await s.withSession('o', (session) => session.state)).toBe('RESOLVING');
  });
});
