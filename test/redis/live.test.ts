import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RecordingEntry } from 'assistant-safety';
import { createRedisSessionStore, startRedisLiveBridge, type RedisSessionStore } from 'assistant-safety/redis';
import { ServerMessage } from 'assistant-safety/live';
import { startServer, type RunningServer } from 'assistant-safety/server';
import { main } from '../../src/cli/main.js';
import { startTestRedis, type TestRedis } from './redisServer.js';

/*
 * Sessions shared through Redis, shown live: two stores (two workers) save
 * calls of one session; the bridge forwards its stream to a server's live
 * hub, where a viewer follows it. Then the same through the CLI:
 * `serve --redis` and `replay --redis`.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PREFIX = 'live:';
let redis: TestRedis;
let dir: string;
let workerA: RedisSessionStore;
let workerB: RedisSessionStore;

const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

/** One read begun by worker A and ended by worker B. */
async function readAcrossWorkers(id: string, callId: string) {
  await workerA.withSession(id, (s) => s.beginToolCall({ id: callId, kind: 'read', tool: 'get_status' }));
  await workerB.withSession(id, (s) => s.endToolCall({ id: callId, ok: true }));
}

async function startTestServer(): Promise<RunningServer> {
  const appDir = join(dir, 'app');
  mkdirSync(appDir, { recursive: true });
  writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>app</title>');
  return startServer({ recordingsDir: dir, machinesDir: join(ROOT, 'machines'), appDir });
}

beforeAll(async () => {
  redis = await startTestRedis();
  dir = mkdtempSync(join(tmpdir(), 'as-redis-live-'));
  workerA = createRedisSessionStore({ url: redis.url, keyPrefix: PREFIX, streams: true, worker: 'A' });
  workerB = createRedisSessionStore({ url: redis.url, keyPrefix: PREFIX, streams: true, worker: 'B' });
  // A session saved before anything follows it: its backlog must show too.
  await readAcrossWorkers('earlier', 'e1');
});

afterAll(async () => {
  await workerA.close();
  await workerB.close();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the live bridge', () => {
  it('should show a session shared by two workers in the hub, in save order, and feed a viewer live', async () => {
    const server = await startTestServer();
    const bridge = await startRedisLiveBridge({ redisUrl: redis.url, keyPrefix: PREFIX, serverUrl: server.url });
    try {
      await readAcrossWorkers('shared', 'r1');
      const stream = async (id: string) => (await workerA.readRecording(id)).map((r) => r.entry);
      await until(async () => server.hub.entriesOf('shared')?.length === (await stream('shared')).length, 'the hub');
      expect(server.hub.entriesOf('shared')).toEqual(await stream('shared'));
      await until(async () => server.hub.entriesOf('earlier')?.length === (await stream('earlier')).length, 'backlog');
      expect(server.hub.list().map((s) => s.id)).toEqual(expect.arrayContaining(['earlier', 'shared']));

      // A viewer (the app) follows the shared session and sees the next call as the other worker saves it.
      const ws = new WebSocket(`${server.origin.replace('http', 'ws')}/live?token=${server.token}`);
      const seen: RecordingEntry[] = [];
      ws.on('message', (data) => {
        const m = ServerMessage.safeParse(JSON.parse(String(data)));
        if (m.success && m.data.type === 'session-entries' && m.data.session === 'shared') seen.push(...m.data.entries);
      });
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: 'hello', role: 'viewer' }));
      ws.send(JSON.stringify({ type: 'follow', session: 'shared' }));
      await until(() => seen.length === 3, 'the backlog at the viewer'); // create, begin, end
      await workerB.withSession('shared', (s) => s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart' }));
      await until(() => seen.length === 4, 'the new call at the viewer');
      expect(seen.at(-1)).toMatchObject({ call: { type: 'beginToolCall', id: 'w1' }, after: 'WRITING' });
      ws.close();
    } finally {
      await bridge.close();
      await server.close();
    }
  });
});

describe('the CLI with --redis', () => {
  it('should replay a session from its Redis stream', async () => {
    const ok = capture();
    expect(await main(['replay', '--redis', redis.url, '--redis-prefix', PREFIX, '--session', 'shared'], ok.io)).toBe(
      0,
    );
    expect(ok.out.join('\n')).toMatch(/4 entries, 1 session/);
    expect(ok.out.join('\n')).toMatch(/session shared: ends in WRITING/);
    expect(ok.out.join('\n')).toMatch(/no divergence/);

    const missing = capture();
    expect(await main(['replay', '--redis', redis.url, '--session', 'nobody'], missing.io)).toBe(2);
    expect(missing.err.join('\n')).toMatch(/no recording stream for session "nobody"/);

    const usage = capture();
    expect(await main(['replay', '--redis', redis.url], usage.io)).toBe(2);
    expect(usage.err.join('\n')).toMatch(/--session ID/);
  });

  it('should follow the sessions in Redis with serve --redis', async () => {
    const bad = capture();
    expect(await main(['serve', '--redis', 'http://x'], bad.io)).toBe(2);
    expect(bad.err.join('\n')).toMatch(/redis:\/\/ or rediss:\/\//);

    const { io, out } = capture();
    const running = main(
      ['serve', '--port', '0', '--recordings', dir, '--redis', redis.url, '--redis-prefix', PREFIX],
      io,
    );
    await until(() => out.some((l) => l.startsWith('http://127.0.0.1:')), 'the URL');
    const url = new URL(out.find((l) => l.startsWith('http://127.0.0.1:'))!);
    const sessions = async () => {
      const res = await fetch(`${url.origin}/api/sessions`, {
        headers: { 'x-assistant-safety-token': url.searchParams.get('token')! },
      });
      return ((await res.json()) as { sessions: { id: string; state: string; events: number }[] }).sessions;
    };
    await until(async () => (await sessions()).some((s) => s.id === 'shared' && s.events === 4), 'the sessions');
    expect((await sessions()).find((s) => s.id === 'shared')?.state).toBe('WRITING');
    expect(out.join('\n')).toMatch(/following the sessions in redis:\/\//);
    process.emit('SIGTERM');
    expect(await running).toBe(0);
  });
});
