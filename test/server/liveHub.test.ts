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
    const agent = await rawAgent(server, 'agent-dup');
    const local = createMemoryRecorder();
    drive(createSafetySession({ id: 'dup', recorder: local }), 2);
    agent.send({ type: 'entries', from: 0, entries: local.entries.slice(0, 3) });
    agent.send({ type: 'entries', from: 0, entries: local.entries });
    agent.send({ type: 'entries', from: 2, entries: local.entries.slice(2) });
    // The hub handles a socket's messages in order and acknowledges each: the hello's ack and
    // three more mean every message was taken in (no time to wait out).
    await until(() => agent.acks.length === 4);
    expect(agent.acks).toEqual([0, 3, 5, 5]);
    expect(server.hub.entriesOf('dup')!.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
    agent.ws.close();
  });

  it('should deliver a session that ended before its socket opened when the recorder is closed', async () => {
    server = await startTestServer();
    const live = createLiveRecorder({ url: server.url });
    drive(createSafetySession({ id: 'quick', recorder: live }), 3);
    expect(live.connected).toBe(false); // closed before the socket opened, as a short demo session is
    await live.close({ timeoutMs: 60_000 });
    expect(live.pending).toBe(0);
    expect(server.hub.entriesOf('quick')).toHaveLength(7);
  });

  it('should list sessions by their own start time, whatever order they reached the hub in', async () => {
    server = await startTestServer();
    const watch = await viewer(server.url);
    // Three agents (one socket each, as the demo has one per session) whose first entries reach the
    // hub in the reverse of the order the sessions started in.
    const started = [
      ['third', 3000],
      ['second', 2000],
      ['first', 1000],
    ] as const;
    for (const [id, at] of started) {
      const agent = await rawAgent(server, `agent-${id}`);
      const message = entriesFor(id, 0, 0, 1);
      message.entries[0]!.at = at;
      agent.send(message);
      await until(() => agent.acks.length === 2);
    }
    // Two sessions that started at the same time keep the order they arrived in.
    const tie = await rawAgent(server, 'agent-tie');
    const tied = entriesFor('also-second', 0, 0, 1);
    tied.entries[0]!.at = 2000;
    tie.send(tied);
    await until(() => tie.acks.length === 2);
    const order = ['first', 'second', 'also-second', 'third'];
    expect(server.hub.list().map((s) => s.id)).toEqual(order);
    await until(() => watch.sessions.at(-1)?.length === 4);
    expect(watch.sessions.at(-1)!.map((s) => s.id)).toEqual(order);
    watch.ws.close();
  });

  it('should keep the newcomer and evict the session idle the longest at the session limit', async () => {
    server = await startTestServer({ hubLimits: { maxSessions: 2 } });
    const agent = await rawAgent(server, 'agent-a');
    agent.send(entriesFor('old', 0, 0, 2));
    agent.send(entriesFor('middle', 2, 0, 2));
    await until(() => server!.hub.list().length === 2);
    agent.send(entriesFor('old', 4, 2, 1)); // `old` is touched again: `middle` is now the idlest
    agent.send(entriesFor('new', 5, 0, 1));
    await until(() => server!.hub.entriesOf('new') !== undefined);
    expect(
      server.hub
        .list()
        .map((s) => s.id)
        .sort(),
    ).toEqual(['new', 'old']);
    expect(server.hub.stats().evictedSessions).toBe(1);
    agent.ws.close();
  });

  it('should not crash when the session limit and the byte limit are both reached at once', async () => {
    server = await startTestServer({ hubLimits: { maxSessions: 1, maxTotalBytes: 1, maxSessionBytes: 1 } });
    const agent = await rawAgent(server, 'agent-b');
    agent.send(entriesFor('one', 0, 0, 1));
    agent.send(entriesFor('two', 1, 0, 1));
    await until(() => agent.acks.at(-1) === 2);
    // Still serving: a fresh request answers.
    const res = await fetch(`${server.origin}/api/sessions`, { headers: { 'x-assistant-safety-token': server.token } });
    expect(res.status).toBe(200);
    expect(server.hub.stats().bytes).toBeLessThanOrEqual(1);
    agent.ws.close();
  });

  it('should bound each session and all sessions in bytes (long tool names included), dropping the oldest', async () => {
    server = await startTestServer({ hubLimits: { maxSessionBytes: 100_000, maxTotalBytes: 250_000 } });
    const agent = await rawAgent(server, 'agent-c');
    const tool = 'x'.repeat(7000);
    let from = 0;
    for (const id of ['s1', 's2', 's3', 's4']) {
      for (let batch = 0; batch < 5; batch++) {
        agent.send(entriesFor(id, from, batch * 10, 10, tool));
        from += 10;
      }
    }
    await until(() => agent.acks.at(-1) === from);
    const stats = server.hub.stats();
    expect(stats.bytes).toBeLessThanOrEqual(250_000);
    for (const s of server.hub.list()) {
      expect(server.hub.bytesOf(s.id)).toBeLessThanOrEqual(100_000);
      expect(s.truncated).toBe(true);
    }
    // The sessions idle the longest went first.
    expect(server.hub.list().map((s) => s.id)).not.toContain('s1');
    expect(server.hub.list().map((s) => s.id)).toContain('s4');
    const kept = server.hub.entriesOf('s4')!.map((e) => e.seq);
    expect(kept.at(-1)).toBe(49);
    expect(kept).toEqual([...Array(kept.length).keys()].map((i) => 50 - kept.length + i));
    agent.ws.close();
  });

  it('should disconnect a follower that stops reading instead of buffering for it', async () => {
    server = await startTestServer({
      hubLimits: { maxSessionBytes: 200_000, maxViewerBufferBytes: 100_000 },
    });
    const agent = await rawAgent(server, 'agent-d');
    agent.send(entriesFor('busy', 0, 0, 1));
    const watch = await viewer(server.url);
    watch.follow('busy');
    await until(() => watch.entries.length === 1);
    const raw = (watch.ws as unknown as { _socket: import('node:net').Socket })._socket;
    raw.pause(); // a stalled follower: the kernel's buffers fill, then the server's
    const tool = 'y'.repeat(2000);
    let from = 1;
    for (let i = 0; i < 400 && server.hub.stats().viewers > 0; i++) {
      agent.send(entriesFor('busy', from, from, 50, tool));
      from += 50;
      await until(() => agent.acks.at(-1) === from);
    }
    expect(server.hub.stats()).toMatchObject({ viewers: 0, slowViewersClosed: 1 });
    expect(server.hub.stats().bytes).toBeLessThanOrEqual(200_000);
    agent.ws.close();
  });

  it("should bind an agent id to its connection: no second socket, no gap in its indexes, no one else's session", async () => {
    server = await startTestServer();
    const owner = await rawAgent(server, 'owner');
    owner.send(entriesFor('mine', 0, 0, 3));
    await until(() => owner.acks.at(-1) === 3);
    // Another token holder reusing the id while the owner is connected is refused and closed.
    const thief = await rawAgent(server, 'owner');
    await until(() => thief.errors.length > 0);
    expect(thief.errors[0]).toMatch(/agentId .* connected/);
    // A jump far ahead is refused, not acknowledged: the owner's later entries still land.
    owner.send(entriesFor('mine', 9007199254740000, 3, 1));
    await until(() => owner.errors.length > 0);
    expect(owner.errors[0]).toMatch(/gap/);
    owner.send(entriesFor('mine', 3, 3, 2));
    await until(() => owner.acks.at(-1) === 5);
    expect(server.hub.entriesOf('mine')!.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
    // Another agent cannot append to a session it did not start.
    const other = await rawAgent(server, 'other');
    other.send(entriesFor('mine', 0, 5, 1));
    await until(() => other.errors.length > 0);
    expect(other.errors[0]).toMatch(/another agent/);
    expect(server.hub.entriesOf('mine')!.length).toBe(5);
    owner.ws.close();
    other.ws.close();
  });

  it('should close a socket beyond the connection limit with 1013 and keep serving the others', async () => {
    server = await startTestServer({ hubLimits: { maxConnections: 2 } });
    const a = await rawAgent(server, 'one');
    const b = await rawAgent(server, 'two');
    const third = new WebSocket(`${server.origin.replace('http', 'ws')}/live`, {
      headers: { 'x-assistant-safety-token': server.token },
    });
    expect(await new Promise((r) => third.on('close', (code) => r(code)))).toBe(1013);
    a.send(entriesFor('still', 0, 0, 1));
    await until(() => a.acks.at(-1) === 1);
    expect(server.hub.stats().connections).toBe(2);
    a.ws.close();
    b.ws.close();
  });
});

/** An agent speaking the protocol by hand; keeps the acks and errors it gets. */
async function rawAgent(s: { origin: string; token: string }, agentId: string) {
  const ws = new WebSocket(`${s.origin.replace('http', 'ws')}/live`, {
    headers: { 'x-assistant-safety-token': s.token },
  });
  const acks: number[] = [];
  const errors: string[] = [];
  ws.on('message', (data) => {
    const m = ServerMessage.parse(JSON.parse(String(data)));
    if (m.type === 'ack') acks.push(m.next);
    if (m.type === 'error') errors.push(m.message);
  });
  ws.on('error', () => undefined);
  await new Promise((r) => ws.on('open', r));
  ws.send(JSON.stringify({ type: 'hello', role: 'agent', agentId }));
  return { ws, acks, errors, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}

/** An `entries` message: `count` read checks of session `id`, seq from `seq`, at agent index `from`. */
function entriesFor(id: string, from: number, seq: number, count: number, tool = 'get_status') {
  const entries: RecordingEntry[] = [];
  for (let i = 0; i < count; i++) {
    entries.push({
      v: 1,
      session: id,
      seq: seq + i,
      at: 1000 + seq + i,
      call: { type: 'canExecuteTool', kind: 'read', tool },
      decision: 'allowed',
      before: 'RESOLVING',
      after: 'RESOLVING',
      context: {
        wroteThisEpisode: false,
        readAfterWrite: false,
        consecutiveVerifyBlocks: 0,
        writeEpoch: 0,
        inFlight: 0,
        inFlightWrite: null,
        lastWriteTool: null,
        lastWriteAt: null,
        lastReadTool: null,
        lastReadAt: null,
        pendingRecoveries: 0,
      },
    });
  }
  return { type: 'entries', from, entries };
}
