/*
 * The server's soak (`npm run soak server`): 50 agents stream sessions to the
 * live hub for a minute (SOAK_SECONDS to change), each starting a new session
 * now and then, one agent much busier than the rest, a healthy viewer and one
 * follower that stops reading. Checks and prints: the hub's bytes never pass
 * its limits, the heap is flat after the warm-up, every eviction took the
 * session idle the longest, and the stalled follower was cut. Loopback only,
 * bounded in time and count.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createSafetySession, type SafetySession } from '../src/index.js';
import { createLiveRecorder, type LiveRecorder } from '../src/node/createLiveRecorder.js';
import { startServer } from '../src/server/startServer.js';

const AGENTS = 50;
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const WARM_UP = Math.min(15, SECONDS / 4);
const LIMITS = {
  maxSessions: 120,
  maxSessionBytes: 256 * 1024,
  maxTotalBytes: 8 * 1024 * 1024,
  maxViewerBufferBytes: 1024 * 1024,
};

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'soak-server-'));
  mkdirSync(join(dir, 'app'));
  writeFileSync(join(dir, 'app', 'index.html'), '<!doctype html>');
  const server = await startServer({
    recordingsDir: dir,
    machinesDir: dir,
    appDir: join(dir, 'app'),
    hubLimits: LIMITS,
  });
  let evictions = 0;
  let outOfOrder = 0;
  server.hub.onEvict = (e) => {
    evictions++;
    if (e.lastActive > e.keptLeastRecent) outOfOrder++;
  };

  // Agents: each a live recorder and its current session; agent 0 is busy and keeps one long session.
  const agents: { live: LiveRecorder; session: SafetySession; n: number; calls: number }[] = [];
  for (let a = 0; a < AGENTS; a++) {
    const live = createLiveRecorder({ url: server.url, name: `agent ${a}`, maxBuffer: 2000 });
    agents.push({ live, session: createSafetySession({ id: `a${a}-s0`, recorder: live }), n: 0, calls: 0 });
  }
  const tool = (len: number) => `get_${'x'.repeat(len)}`;
  const step = (a: number, calls: number, toolLength: number) => {
    const agent = agents[a]!;
    for (let i = 0; i < calls; i++) {
      const id = `c${agent.calls++}`;
      agent.session.beginToolCall({ id, kind: 'read', tool: tool(toolLength) });
      agent.session.endToolCall({ id, ok: true });
    }
    // A new session every 300 calls (not agent 0): the old one goes idle and is, in time, evicted.
    if (a !== 0 && agent.calls % 300 < calls)
      agent.session = createSafetySession({ id: `a${a}-s${++agent.n}`, recorder: agent.live });
  };

  // A healthy viewer, and a follower of the busy session that stops reading once it is following.
  const viewer = (follow: string, stall: boolean) =>
    new Promise<{ ws: WebSocket; received: () => number }>((resolve) => {
      const ws = new WebSocket(`${server.origin.replace('http', 'ws')}/live`, {
        headers: { 'x-assistant-safety-token': server.token },
      });
      let received = 0;
      ws.on('message', (d: Buffer) => (received += d.length));
      ws.on('error', () => undefined);
      ws.on('open', () => {
        ws.send(JSON.stringify({ type: 'hello', role: 'viewer' }));
        ws.send(JSON.stringify({ type: 'follow', session: follow }));
        if (stall) setTimeout(() => (ws as unknown as { _socket: { pause(): void } })._socket.pause(), 200);
        resolve({ ws, received: () => received });
      });
    });
  const healthy = await viewer('a1-s0', false);
  const stalled = await viewer('a0-s0', true);

  const started = Date.now();
  const samples: { t: number; heap: number; hubBytes: number; sessions: number }[] = [];
  let maxHubBytes = 0;
  const timer = setInterval(() => {
    step(0, 10, 2000); // the busy agent: ~20 KB every tick
    for (let a = 1; a < AGENTS; a++) step(a, 1, Math.floor(Math.random() * 1500));
    maxHubBytes = Math.max(maxHubBytes, server.hub.stats().bytes);
  }, 20);
  while (Date.now() - started < SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, 5000));
    gc();
    const stats = server.hub.stats();
    samples.push({
      t: Math.round((Date.now() - started) / 1000),
      heap: process.memoryUsage().heapUsed,
      hubBytes: stats.bytes,
      sessions: stats.sessions,
    });
    const s = samples.at(-1)!;
    console.log(
      `  t=${s.t}s heap ${mb(s.heap)}, hub ${mb(s.hubBytes)} in ${s.sessions} sessions, evicted ${stats.evictedSessions}, viewers ${stats.viewers}`,
    );
  }
  clearInterval(timer);
  const stats = server.hub.stats();
  const entries = agents.reduce((n, a) => n + a.calls * 2, 0);
  await Promise.all(agents.map((a) => a.live.close({ timeoutMs: 500 })));
  healthy.ws.close();
  stalled.ws.terminate();
  await server.close();

  const after = samples.filter((s) => s.t >= WARM_UP);
  const heaps = after.map((s) => s.heap);
  const spread = Math.max(...heaps) - Math.min(...heaps);
  const growth = heaps.length > 1 ? heaps.at(-1)! - heaps[0]! : 0;
  console.log(
    `server soak: ${AGENTS} agents, ${SECONDS} s, ${entries} entries sent; hub peak ${mb(maxHubBytes)} (limit ${mb(LIMITS.maxTotalBytes)}); ` +
      `heap after warm-up ${mb(Math.min(...heaps))}–${mb(Math.max(...heaps))} (spread ${mb(spread)}, first→last ${mb(growth)}); ` +
      `${evictions} sessions evicted, ${outOfOrder} out of oldest-idle order; ${stats.slowViewersClosed} stalled follower cut; ` +
      `healthy viewer received ${mb(healthy.received())}`,
  );
  const problems: string[] = [];
  if (maxHubBytes > LIMITS.maxTotalBytes) problems.push(`hub held ${maxHubBytes} bytes, over its limit`);
  if (outOfOrder > 0) problems.push(`${outOfOrder} evictions were not of the session idle the longest`);
  if (evictions === 0) problems.push('no session was evicted: the soak did not reach the limits');
  if (stats.slowViewersClosed < 1) problems.push('the stalled follower was not cut');
  // Flat: after the warm-up the heap moves by less than the hub's byte limit plus a margin for the agents' buffers.
  if (spread > LIMITS.maxTotalBytes + 32 * 1024 * 1024) problems.push(`heap spread ${mb(spread)} after warm-up`);
  if (problems.length) throw new Error(problems.join('; '));
}
