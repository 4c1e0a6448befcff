import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSessionStore, SessionStoreUnavailableError, type RedisSessionStore } from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from './redisServer.js';
import { replaySequentially, startWorker } from './workers.js';

/*
 * Faults against a real redis-server with an append-only file (fsync on
 * every write): Redis killed mid-run, Redis restarted, a worker killed
 * between load and save.
 */

const TIMEOUT_MS = 500;
/** Scheduling slack on a loaded 2-core machine; the bound under test is TIMEOUT_MS. */
const SLACK_MS = 1500;

let redis: TestRedis;
const stores: RedisSessionStore[] = [];
const makeStore = (keyPrefix: string, timeoutMs = TIMEOUT_MS) => {
  const s = createRedisSessionStore({
    url: redis.url,
    keyPrefix,
    streams: true,
    timeoutMs,
    maxAttempts: 100,
    onError: () => undefined,
  });
  stores.push(s);
  return s;
};

beforeAll(async () => {
  redis = await startTestRedis({ aof: true });
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis.stop();
});

interface CallLog {
  id: string;
  session: string;
  start: number;
  end?: number;
  outcome?: 'resolved' | 'rejected';
  error?: unknown;
}

describe('Redis killed and restarted during a run', () => {
  it('should reject every pending and later call in time, then resume with nothing lost or rolled back', async () => {
    const store = makeStore('kill:');
    const sessions = ['k1', 'k2', 'k3'];
    const log: CallLog[] = [];
    let killedAt = Infinity;
    let stop = false;
    let n = 0;

    // Eight callers loop on three sessions: each call begins and ends one read with a unique id.
    const caller = async (c: number) => {
      while (!stop) {
        const entry: CallLog = {
          id: `c${c}-${n++}`,
          session: sessions[n % sessions.length]!,
          start: performance.now(),
        };
        log.push(entry);
        try {
          await store.withSession(entry.session, (s) => {
            s.beginToolCall({ id: entry.id, kind: 'read', tool: 'status' });
            s.endToolCall({ id: entry.id, ok: true });
          });
          entry.outcome = 'resolved';
        } catch (error) {
          entry.outcome = 'rejected';
          entry.error = error;
          await new Promise((r) => setTimeout(r, 20));
        }
        entry.end = performance.now();
      }
    };
    const callers = Array.from({ length: 8 }, (_, c) => caller(c));
    // Run until a good number of calls went through (bounded), then kill Redis under them.
    for (let waited = 0; log.filter((e) => e.outcome === 'resolved').length < 30; waited += 50) {
      expect(waited, 'no calls went through before the kill').toBeLessThan(15_000);
      await new Promise((r) => setTimeout(r, 50));
    }
    const beforeKill = log.filter((e) => e.outcome === 'resolved').length;
    killedAt = performance.now();
    await redis.kill();
    await new Promise((r) => setTimeout(r, TIMEOUT_MS * 2));
    stop = true;
    await Promise.all(callers);

    expect(beforeKill).toBeGreaterThan(0);
    const after = log.filter((e) => e.end! > killedAt);
    expect(after.length).toBeGreaterThan(8);
    for (const e of after) {
      // None hangs: settled within the configured time of the kill or of its own start.
      expect(e.end! - Math.max(e.start, killedAt), e.id).toBeLessThanOrEqual(TIMEOUT_MS + SLACK_MS);
      // None started after the kill is allowed; one in flight at the kill may have had its save confirmed.
      if (e.start > killedAt) expect(e.outcome, e.id).toBe('rejected');
      if (e.outcome === 'rejected') expect(e.error, e.id).toBeInstanceOf(SessionStoreUnavailableError);
    }

    // Restart: the append-only file brings back every confirmed save, and the same store resumes.
    await redis.restart();
    // The client reconnects on its own schedule; the first call after that succeeds.
    for (let tries = 0; ; tries++) {
      const ok = await store.get(sessions[0]!).then(
        () => true,
        () => false,
      );
      if (ok) break;
      expect(tries, 'the store did not reconnect').toBeLessThan(20);
    }
    const resolved = log.filter((e) => e.outcome === 'resolved');
    for (const id of sessions) {
      const stored = await store.get(id);
      const entries = (await store.readRecording(id)).map((r) => r.entry);
      const ids = new Set(entries.map((e) => (e.call as { id?: string }).id));
      for (const e of resolved.filter((x) => x.session === id)) expect(ids.has(e.id), `${e.id} lost`).toBe(true);
      expect(entries.length).toBe(stored!.entries);
      expect(replaySequentially(entries)).toEqual(stored!.snapshot);
      // The same store goes on saving (a call may still be refused while the machine catches up: retry).
      const probe = `after-restart-${id}`;
      for (let tries = 0; ; tries++) {
        const ok = await store
          .withSession(id, (s) => {
            s.beginToolCall({ id: probe, kind: 'read', tool: 'status' });
            s.endToolCall({ id: probe, ok: true });
          })
          .then(
            () => true,
            (e: unknown) => (expect(e).toBeInstanceOf(SessionStoreUnavailableError), false),
          );
        if (ok) break;
        expect(tries, 'the store did not resume').toBeLessThan(20);
      }
      const again = await store.get(id);
      expect(again!.version).toBeGreaterThan(stored!.version);
      const last = (await store.readRecording(id)).at(-1)!.entry.call;
      expect(last).toMatchObject({ type: 'endToolCall', id: probe });
    }
  }, 60_000);
});

describe('a worker killed between load and save', () => {
  it('should leave the session unchanged and let the next worker proceed', async () => {
    const store = makeStore('hold:', 20_000); // this test is not about time
    await store.withSession('h', (s) => s.targetEstablished());
    const before = await store.get('h');
    expect(before!.snapshot.state).toBe('READING');

    const worker = startWorker('test/redis/fixtures/holdWorker.ts', [redis.url, 'hold:', 'h']);
    await new Promise<void>((resolve, reject) => {
      worker.stdout!.on('data', (d: Buffer) => String(d).includes('loaded') && resolve());
      worker.once('exit', (code) => reject(new Error(`the worker exited (${code}) before loading`)));
    });
    const exited = new Promise((r) => worker.once('exit', r));
    worker.kill('SIGKILL');
    await exited;

    const after = await store.get('h');
    expect(after!.version).toBe(before!.version);
    expect(after!.snapshot).toEqual(before!.snapshot);
    const blocked = await store.withSession('h', (s) =>
      s.beginToolCall({ id: 'next-write', kind: 'write', tool: 'restart' }),
    );
    expect(blocked).toBeNull();
    expect((await store.get('h'))!.snapshot.state).toBe('WRITING');
  }, 60_000); // a worker process starts
});
