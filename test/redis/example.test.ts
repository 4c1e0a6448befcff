import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayRecording } from 'assistant-safety';
import { createRedisSessionStore } from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from './redisServer.js';
import { replaySequentially, startWorker } from './workers.js';

/* docs/redis.md's two-worker setup, run as written (shorter pauses). */

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis.stop();
});

describe('examples/redis-workers.ts', () => {
  it('should run two workers on one shared session, ending with nothing in flight and a clean replay', async () => {
    const args = (name: string) => ['--redis', redis.url, '--name', name, '--cycles', '3', '--step-ms', '5'];
    const [a, b] = await Promise.all(
      ['A', 'B'].map((name) => startWorker('examples/redis-workers.ts', args(name)).output),
    );
    expect(a).toMatch(/A: done; the shared session is/);
    expect(b).toMatch(/B: done; the shared session is/);
    const store = createRedisSessionStore({ url: redis.url });
    try {
      const saved = await store.get('conversation-1');
      expect(saved?.snapshot.context.calls).toEqual({});
      const records = await store.readRecording('conversation-1');
      expect(new Set(records.map((r) => r.worker))).toEqual(new Set(['A', 'B']));
      const entries = records.map((r) => r.entry);
      expect(replayRecording(entries).divergences).toEqual([]);
      expect(replaySequentially(entries)).toEqual(saved!.snapshot);
    } finally {
      await store.close();
    }
  }, 120_000); // two processes start: slow on a loaded machine
});
