import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createMemoryRecorder, replayRecording, type RecordingEntry } from 'assistant-safety';
import {
  AsyncSessionFunctionError,
  createRedisSessionStore,
  runGuardedToolCall,
  SessionConflictError,
  SessionStoreClosedError,
  type RedisSessionStore,
} from 'assistant-safety/redis';
import { startTestRedis, type TestRedis } from './redisServer.js';

let redis: TestRedis;
let raw: Redis;
const stores: RedisSessionStore[] = [];
let n = 0;

/** A store on a prefix of its own, closed after the file. */
function store(options: Partial<Parameters<typeof createRedisSessionStore>[0]> = {}) {
  const s = createRedisSessionStore({
    url: redis.url,
    keyPrefix: `t${n++}:`,
    streams: true,
    // Generous: a loaded CI machine must not turn contention into STORE_UNAVAILABLE here.
    timeoutMs: 20_000,
    ...options,
  });
  stores.push(s);
  return s;
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

describe('createRedisSessionStore', () => {
  it('should create a session for an unknown id and keep its decisions across calls and stores', async () => {
    const s = store({ keyPrefix: 'first:' });
    expect(await s.withSession('a', (session) => session.state)).toBe('RESOLVING');
    await s.withSession('a', (session) => {
      session.beginToolCall({ id: 'c1', kind: 'resolve', tool: 'find_vm' });
      session.endToolCall({ id: 'c1', ok: true });
    });
    const allowed = await s.withSession('a', (session) =>
      session.beginToolCall({ id: 'c2', kind: 'write', tool: 'restart' }),
    );
    expect(allowed).toBeNull();
    const stored = await s.get('a');
    expect(stored?.snapshot.state).toBe('WRITING');
    expect(stored?.version).toBe(3);
    // Another store on the same prefix (another worker) sees the write in flight and is blocked.
    const other = store({ keyPrefix: 'first:' });
    const blocked = await other.withSession('a', (session) =>
      session.beginToolCall({ id: 'c3', kind: 'write', tool: 'stop' }),
    );
    expect(blocked?.reasonCode).toBe('WRITE_IN_FLIGHT');
  });

  it('should never lose an update when many calls race on one session', async () => {
    const s = store({ maxAttempts: 200 });
    const ids = Array.from({ length: 40 }, (_, i) => `r${i}`);
    await Promise.all(
      ids.map((id) =>
        s.withSession('race', (session) => {
          session.beginToolCall({ id, kind: 'read', tool: 'status' });
        }),
      ),
    );
    const stored = await s.get('race');
    expect(Object.keys(stored!.snapshot.context.calls).sort()).toEqual([...ids].sort());
    expect(s.stats().saved).toBe(40);
    // One process's calls on a session take turns: none overtook another.
    expect(s.stats().conflicts).toBe(0);
  });

  it('should give the recorder and listeners only the attempt that was saved', async () => {
    const recorder = createMemoryRecorder();
    const a = store({ keyPrefix: 'shared-rec:', recorder, maxAttempts: 500 });
    const b = store({ keyPrefix: 'shared-rec:', maxAttempts: 500 });
    const heard: string[] = [];
    let runs = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).withSession('x', (session) => {
          runs++;
          session.subscribe((seen) => heard.push(`${i}:${seen.state}`));
          session.canExecuteTool('read', `t${i}`);
        }),
      ),
    );
    // Store a recorded only its own ten saved calls (and the create, if it saved first), once each.
    const checks = recorder.entries.filter((e) => e.call.type === 'canExecuteTool');
    expect(checks.map((e) => (e.call as { tool: string }).tool).sort()).toEqual(
      Array.from({ length: 10 }, (_, k) => `t${2 * k + 1}`).sort(),
    );
    expect(heard).toHaveLength(20);
    expect(runs).toBeGreaterThanOrEqual(20);
    // The stream holds every saved call once, seq 0.. without a gap, and replays without divergence.
    const records = await a.readRecording('x');
    const entries = records.map((r) => r.entry);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i));
    expect(entries[0]!.call.type).toBe('create');
    expect(entries.filter((e) => e.call.type === 'canExecuteTool')).toHaveLength(20);
    expect(replayRecording(entries).divergences).toEqual([]);
  });

  it('should save nothing when fn throws, and reject an async fn', async () => {
    const s = store();
    await s.withSession('t', (session) => session.targetEstablished());
    await expect(
      s.withSession('t', (session) => {
        session.reset();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(
      s.withSession('t', async (session) => {
        session.reset();
      }),
    ).rejects.toBeInstanceOf(AsyncSessionFunctionError);
    // A lazy thenable (a query builder runs on then()) is refused without being run.
    let ran = false;
    const lazy = {
      then(ok: (v: unknown) => void) {
        ran = true;
        ok('written');
      },
    };
    await expect(s.withSession('t', () => lazy)).rejects.toBeInstanceOf(AsyncSessionFunctionError);
    expect(ran).toBe(false);
    expect((await s.get('t'))?.snapshot.state).toBe('READING');
    expect((await s.get('t'))?.version).toBe(1);
  });

  it('should retry an overtaken attempt, tell observers only of the saved one, and give up after maxAttempts', async () => {
    const recorded: RecordingEntry[] = [];
    const s = store({ maxAttempts: 3, keyPrefix: 'conflict:', recorder: { record: (e) => recorded.push(e) } });
    const key = 'conflict:{c}:s';
    await s.withSession('c', (session) => session.targetEstablished());
    recorded.length = 0;
    /** Someone else saves between this attempt's load and its save: the write leaves now, and
     *  fn holds on long enough for Redis to have applied it before this attempt's save. */
    const overtake = (n: number) => {
      void raw.hset(key, 'rev', `other-${n}`);
      const until = performance.now() + 30;
      while (performance.now() < until);
    };

    let runs = 0;
    const heard: string[] = [];
    const value = await s.withSession('c', (session) => {
      runs++;
      session.subscribe((seen) => heard.push(seen.state));
      const blocked = session.beginToolCall({ id: `w${runs}`, kind: 'write', tool: 'restart' });
      if (runs === 1) overtake(runs);
      return blocked;
    });
    expect(value).toBeNull();
    expect(runs).toBe(2);
    // Only the second attempt's call was saved, recorded and heard of.
    expect(Object.keys((await s.get('c'))!.snapshot.context.calls)).toEqual(['w2']);
    expect(recorded.map((e) => e.call)).toEqual([{ type: 'beginToolCall', id: 'w2', kind: 'write', tool: 'restart' }]);
    expect(heard).toEqual(['WRITING']);
    expect(s.stats().conflicts).toBe(1);

    runs = 0;
    recorded.length = 0;
    const error = await s
      .withSession('c', (session) => {
        runs++;
        session.canExecuteTool('read', 'status');
        overtake(runs);
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionConflictError);
    expect((error as SessionConflictError).code).toBe('SESSION_CONFLICT');
    expect(runs).toBe(3);
    expect(recorded).toEqual([]);
  });

  it('should expire idle sessions and refresh the expiry on every save', async () => {
    const s = store({ idleTtlMs: 2000 });
    await s.withSession('idle', (session) => session.targetEstablished());
    await new Promise((r) => setTimeout(r, 200));
    const before = (await s.get('idle'))!.ttlMs;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(2000);
    // Saved again: the expiry starts over, for the session and its stream.
    await s.withSession('idle', (session) => session.canExecuteTool('read', 'status'));
    expect((await s.get('idle'))!.ttlMs).toBeGreaterThan(before);

    // Left idle, a session and its stream go, and the id starts afresh.
    const short = store({ idleTtlMs: 300 });
    await short.withSession('brief', (session) => session.targetEstablished());
    for (let tries = 0; (await short.get('brief')) !== undefined; tries++) {
      expect(tries, 'the session never expired').toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await short.readRecording('brief')).toEqual([]);
    expect(await short.withSession('brief', (session) => session.state)).toBe('RESOLVING');
  });

  it('should list and delete sessions, stream included', async () => {
    const s = store({ keyPrefix: 'list*[x]:' });
    await s.withSession('one', (session) => session.targetEstablished());
    await s.withSession('two', () => undefined);
    await s.withSession('with {braces}', () => undefined);
    const listed = await s.list();
    expect(listed.map((x) => x.id).sort()).toEqual(['one', 'two', 'with {braces}']);
    expect(listed.find((x) => x.id === 'one')?.state).toBe('READING');
    await s.delete('one');
    expect(await s.get('one')).toBeUndefined();
    expect(await s.readRecording('one')).toEqual([]);
    expect((await s.list()).map((x) => x.id).sort()).toEqual(['two', 'with {braces}']);
  });

  it('should refuse a stored session that is not a valid snapshot rather than overwrite it', async () => {
    const s = store({ keyPrefix: 'bad:' });
    await raw.hset('bad:{b}:s', 'rev', 'x', 'v', '1', 'data', '{"format":"assistant-safety/session","version":1}');
    await expect(s.withSession('b', (session) => session.state)).rejects.toThrow(/invalid snapshot/);
    expect(await raw.hget('bad:{b}:s', 'rev')).toBe('x');
  });

  it('should name the bad option', () => {
    expect(() => createRedisSessionStore({ url: 'http://x' })).toThrow(/options\.url/);
    expect(() => createRedisSessionStore({ url: 'redis://127.0.0.1:1', idleTtlMs: -1 })).toThrow(/options\.idleTtlMs/);
  });

  it('should reject calls after close', async () => {
    const s = store();
    await s.close();
    await expect(s.withSession('z', () => 1)).rejects.toBeInstanceOf(SessionStoreClosedError);
  });

  it('should keep the seq of recording entries continuous across stores', async () => {
    const recorded: RecordingEntry[] = [];
    const a = store({ keyPrefix: 'seq:', recorder: { record: (e) => recorded.push(e) } });
    const b = store({ keyPrefix: 'seq:', recorder: { record: (e) => recorded.push(e) } });
    for (let i = 0; i < 6; i++) await (i % 2 ? a : b).withSession('s', (x) => x.canExecuteTool('read', 'r'));
    expect(recorded.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(recorded.some((e) => e.call.type === 'restore')).toBe(false);
  });

  it('should run a tool call through the shared session with runGuardedToolCall', async () => {
    const s = store({ keyPrefix: 'guarded:' });
    const ran: string[] = [];
    const tool =
      (name: string, fail = false) =>
      async () => {
        ran.push(name);
        if (fail) throw new Error(`${name} failed`);
        return `${name} done`;
      };
    const early = await runGuardedToolCall(s, 'g', { id: 'w0', kind: 'write', tool: 'restart' }, tool('w0'));
    expect(early.status === 'blocked' && early.error.reasonCode).toBe('NO_VALIDATED_TARGET');
    expect(ran).toEqual([]);
    expect(await runGuardedToolCall(s, 'g', { id: 'q', kind: 'resolve', tool: 'find' }, tool('q'))).toEqual({
      status: 'ok',
      result: 'q done',
    });
    const failed = await runGuardedToolCall(s, 'g', { id: 'w1', kind: 'write', tool: 'restart' }, tool('w1', true));
    expect(failed.status).toBe('error');
    expect((await s.get('g'))?.snapshot.state).toBe('READING');
    await runGuardedToolCall(s, 'g', { id: 'w2', kind: 'write', tool: 'restart' }, tool('w2'));
    expect((await s.get('g'))?.snapshot.state).toBe('VERIFYING');
    const second = await runGuardedToolCall(s, 'g', { id: 'w3', kind: 'write', tool: 'restart' }, tool('w3'));
    expect(second.status === 'blocked' && second.error.reasonCode).toBe('UNVERIFIED_WRITE');
    await runGuardedToolCall(s, 'g', { id: 'r', kind: 'read', tool: 'status' }, tool('r'));
    expect((await s.get('g'))?.snapshot.state).toBe('READING'); // verified and completed
    await runGuardedToolCall(s, 'g', { id: 'w4', kind: 'write', tool: 'restart' }, tool('w4'), {
      verified: () => true,
    });
    expect((await s.get('g'))?.snapshot.state).toBe('READING'); // the write's own result verified it
    expect(ran).toEqual(['q', 'w1', 'w2', 'r', 'w4']);
  });
});
