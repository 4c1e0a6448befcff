import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSessionStore, runGuardedToolCall, type RedisSessionStore } from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from '../redis/redisServer.js';
import { OUTCOME_CASES } from './outcomeTable.js';

let redis: TestRedis;
let store: RedisSessionStore;

beforeAll(async () => {
  redis = await startTestRedis();
  store = createRedisSessionStore({ url: redis.url, keyPrefix: 'outcomes:', timeoutMs: 20_000 });
});

afterAll(async () => {
  await store.close();
  await redis.stop();
});

describe('runGuardedToolCall on a real Redis ends a write by the shared outcome table', () => {
  OUTCOME_CASES.forEach((c, i) => {
    it(`should leave ${c.state} when ${c.name}`, async () => {
      const id = `s${i}`;
      await runGuardedToolCall(store, id, { id: 'r', kind: 'resolve', tool: 'find' }, async () => 'ok');
      const outcome = await runGuardedToolCall(store, id, { id: 'w', kind: 'write', tool: 'restart' }, async () => {
        if (c.thrown) throw c.thrown();
        return 'done';
      });
      expect(outcome.status).toBe(c.thrown ? 'error' : 'ok');
      expect((await store.get(id))?.snapshot.state).toBe(c.state);
      const next = await runGuardedToolCall(store, id, { id: 'w2', kind: 'write', tool: 'restart' }, async () => 'x');
      expect(next.status === 'blocked' ? next.error.reasonCode : null).toBe(c.next);
    });
  });
});
