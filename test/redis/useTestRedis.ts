import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startTestRedis, type TestRedis, type TestRedisOptions } from './redisServer.js';

/**
 * A redis-server for the tests of one file, and a plain client to look into it: started before them,
 * stopped after. Read its fields inside the tests (they are set once the file's tests start).
 */
export function useTestRedis(options: TestRedisOptions = {}): { readonly redis: TestRedis; readonly raw: Redis } {
  const env = {} as { redis: TestRedis; raw: Redis };
  beforeAll(async () => {
    env.redis = await startTestRedis(options);
    env.raw = new Redis(env.redis.url);
  });
  afterAll(async () => {
    env.raw?.disconnect();
    await env.redis?.stop();
  });
  return env;
}
