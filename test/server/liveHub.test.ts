import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createMemoryRecorder, createSafetySession, type RecordingEntry } from '../../src/index.js';
import { createLiveRecorder } from '../../src/node/createLiveRecorder.js';
import { ServerMessage, type LiveSessionInfo } from '../../src/live/protocol.js';
import { drive, startTestServer, until } from './helpers.js';

let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A viewer socket that keeps every message it gets. */
async function viewer(url: string) {
  const ws = new WebSocket(`${url.replace('http', 'ws').replace(/\/\?token=/, '/live?token=')}`);
  const sessions: LiveSessionInfo[][] = [];
  const entries: RecordingEntry[] = [];
  ws.on('message', (data) => {
    const m = ServerMessage.parse(JSON.parse(String(data)));
    if (m.type === 'sessions') sessions.push(m.sessions);
    if (m.type === 'session-entries') {
      if (m.reset) entries.length = 0;
      entries.push(...m.entries);
    }
  });
  await new Promise((r) => ws.on('open', r));
  ws.send(JSON.stringify({ type: 'hello', role: 'viewer' }));
  return { ws, sessions, entries, follow: (session: string) => ws.send(JSON.stringify({ type: 'follow', session })) };
}

describe('live hub', () => {
  it('should list an agent session and stream its entries to a viewer that follows it', async () => {
    server = await startTestServer();
    const watch = await viewer(server.url);
    const live = createLiveRecorder({ url: server.url, name: 'test agent' });
    const session = createSafetySession({ id: 'live-1', recorder: live });
    drive(session, 5);
    await until(() => watch.sessions.at(-1)?.[0]?.events === 11);
    expect(watch.sessions.at(-1)![0]).toMatchObject({
      id: 'live-1',
      agent: 'test agent',
      connected: true,
      state: 'READING',
    });
    watch.follow('live-1');
    await until(() => watch.entries.length === 11);
    drive(session, 2);
    await until(() => watch.entries.length === 15);
    expect(watch.entries.map((e) => e.seq)).toEqual([...Array(15).keys()]);
    await live.close();
    await until(() => watch.sessions.at(-1)?.[0]?.connected === false);
    watch.ws.close();
  });

  it('should not duplicate entries an agent resends after a reconnect', async () => {
    server = await startTestServer();
    const ws = new WebSocket(`${server.origin.replace('http', 'ws')}/live?token=${server.token}`);
    await new Promise((r) => ws.on('open', r));
    const local = createMemoryRecorder();
    drive(createSafetySession({ id: 'dup', recorder: local }), 2);
    ws.send(JSON.stringify({ type: 'hello', role: 'agent', agentId: 'agent-dup' }));
    ws.send(JSON.stringify({ type: 'entries', from: 0, entries: local.entries.slice(0, 3) }));
    ws.send(JSON.stringify({ type: 'entries', from: 0, entries: local.entries }));
    ws.send(JSON.stringify({ type: 'entries', from: 2, entries: local.entries.slice(2) }));
    await until(() => server!.hub.entriesOf('dup')?.length === 5);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.hub.entriesOf('dup')!.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
    ws.close();
  });

  it('should keep at most the configured number of entries per session and sessions', async () => {
    server = await startTestServer({ hubLimits: { maxEntriesPerSession: 50, maxSessions: 3 } });
    const live = createLiveRecorder({ url: server.url });
    const session = createSafetySession({ id: 'long', recorder: live });
    drive(session, 100);
    for (let i = 0; i < 5; i++) createSafetySession({ id: `other-${i}`, recorder: live });
    await until(() => live.pending === 0);
    expect(server.hub.entriesOf('long')?.length ?? 0).toBeLessThanOrEqual(50);
    expect(server.hub.list().length).toBe(3);
    await live.close();
  });

  it('should keep at most the configured number of entries across sessions, dropping the least recent first', async () => {
    server = await startTestServer({ hubLimits: { maxTotalEntries: 100 } });
    const live = createLiveRecorder({ url: server.url });
    drive(createSafetySession({ id: 'first', recorder: live }), 40);
    drive(createSafetySession({ id: 'second', recorder: live }), 40);
    await until(() => live.pending === 0);
    const sizes = server.hub.list().map((s) => [s.id, s.events, s.truncated]);
    expect(sizes.reduce((n, [, events]) => n + (events as number), 0)).toBeLessThanOrEqual(100);
    expect(sizes).toContainEqual(['second', 81, false]);
    expect(sizes.find(([id]) => id === 'first')?.[2]).toBe(true);
    await live.close();
  });
});
