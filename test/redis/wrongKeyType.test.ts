import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRedisSessionStore, type RedisSessionStore } from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from './redisServer.js';

/*
 * A session whose keys hold the wrong Redis type (another program's data under
 * the prefix) is refused as a whole: the save script checks every key's type
 * before its first write, so nothing is half-saved.
 */

let redis: TestRedis;
let raw: Redis;
const stores: RedisSessionStore[] = [];
const store = () => {
  const s = createRedisSessionStore({ url: redis.url, keyPrefix: 'wt:', streams: true, timeoutMs: 20_000 });
  stores.push(s);
  return s;
};

beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  raw.disconnect();
  await redis.stop();
});

describe('a session key of the wrong type', () => {
  it('should refuse the save before writing anything when the stream key is not a stream', async () => {
    const s = store();
    await s.withSession('a', (session) => session.targetEstablished());
    const before = await raw.hgetall('wt:{a}:s');
    await raw.del('wt:{a}:x');
    await raw.set('wt:{a}:x', 'not a stream');
    await expect(
      s.withSession('a', (session) => session.beginToolCall({ id: 'w', kind: 'write', tool: 'restart' })),
    ).rejects.toMatchObject({ code: 'WRONG_KEY_TYPE', message: expect.stringMatching(/wt:\{a\}:x.*string.*stream/) });
    // Not half-saved: the session hash is exactly as it was.
    expect(await raw.hgetall('wt:{a}:s')).toEqual(before);
    expect(await raw.get('wt:{a}:x')).toBe('not a stream');
  });

  it('should refuse a session key that is not a hash, and change nothing', async () => {
    const s = store();
    await raw.set('wt:{b}:s', 'something else');
    await expect(s.withSession('b', (session) => session.state)).rejects.toMatchObject({
      code: 'WRONG_KEY_TYPE',
      message: expect.stringMatching(/wt:\{b\}:s.*string.*hash/),
    });
    expect(await raw.get('wt:{b}:s')).toBe('something else');
    expect(await raw.exists('wt:{b}:x')).toBe(0);
  });
});
