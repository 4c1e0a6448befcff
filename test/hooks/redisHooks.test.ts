import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSessionStore } from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from '../redis/redisServer.js';
import { edit, events, FILE, read } from './fixtures.js';
import { bundleHook, decisionOf, runHook } from './hookProcess.js';

/*
 * `hook claude-code --redis URL`: a developer's sessions shared through one Redis, whatever the
 * machine (here: two state folders standing for two machines). 8 hook processes at once, 4 per
 * state folder, one session, each an Edit of the read file: exactly one is admitted, the others
 * are refused because a write is in flight, and the saved session holds the one admitted.
 */

let bundle: string;
let redis: TestRedis;
beforeAll(async () => {
  bundle = bundleHook();
  redis = await startTestRedis();
}, 60_000);
afterAll(async () => {
  await redis?.stop();
});

describe('hook claude-code --redis', () => {
  it('admits exactly one write from 8 parallel hook processes on two state folders', async () => {
    const machines = [mkdtempSync(join(tmpdir(), 'hook-redis-a-')), mkdtempSync(join(tmpdir(), 'hook-redis-b-'))];
    for (let rep = 0; rep < 3; rep++) {
      const session = `shared-${rep}`;
      const e = events(session);
      const args = (i: number) => ['--redis', redis.url, '--state-dir', machines[i % 2]!];
      // The file is read on one machine; the session (and what it validated) is the same on the other.
      expect(decisionOf(await runHook(bundle, machines[0]!, e.pre('Read', read(), 'r0'), args(0)))).toEqual({
        decision: 'allow',
      });
      expect((await runHook(bundle, machines[0]!, e.post('Read', read(FILE), 'r0'), args(0))).code).toBe(0);

      const runs = await Promise.all(
        Array.from({ length: 8 }, (_, i) => runHook(bundle, machines[i % 2]!, e.pre('Edit', edit(), `w${i}`), args(i))),
      );
      const decisions = runs.map((r) => decisionOf(r));
      expect(
        decisions.filter((d) => d.decision === 'allow'),
        JSON.stringify(runs.map((r) => r.stderr)),
      ).toHaveLength(1);
      expect(decisions.filter((d) => d.decision === 'deny').map((d) => d.reasonCode)).toEqual(
        Array(7).fill('WRITE_IN_FLIGHT'),
      );
      const store = createRedisSessionStore({ url: redis.url, session: { targets: 'bind', profile: 'detection' } });
      try {
        const saved = await store.get(session);
        const admitted = decisions.flatMap((d, i) => (d.decision === 'allow' ? [`w${i}`] : []));
        expect(Object.keys(saved!.snapshot.context.calls)).toEqual(admitted);
      } finally {
        await store.close();
      }
    }
  }, 120_000);
});
