import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafetySession, type RecordingEntry, type SessionRecorder } from 'assistant-safety';
import { createLiveRecorder, type LiveRecorder } from 'assistant-safety/node';
import { createEntryInterpreter, createToolNamer, metricPointsOf } from 'assistant-safety/insights';
import { startServer, type RunningServer } from 'assistant-safety/server';

/*
 * `assistant_safety_writes_unverified` counts the writes waiting for
 * verification in sessions that are still going: a session whose agent
 * disconnected (a gateway whose client went away, an agent that exited)
 * leaves the gauge, and comes back into it if its agent streams again.
 */

let server: RunningServer;
const empty = mkdtempSync(join(tmpdir(), 'as-gauge-'));

beforeAll(async () => {
  server = await startServer({ recordingsDir: empty, machinesDir: empty, appDir: empty, metrics: { port: 0 } });
});
afterAll(() => server.close());

const gauge = async () => {
  const text = await (await fetch(server.metrics!.url)).text();
  const line = text.split('\n').find((l) => l.startsWith('assistant_safety_writes_unverified '));
  return Number(line?.split(' ')[1]);
};

/** Waits until the hub holds every entry the recorder sent. */
async function delivered(live: LiveRecorder): Promise<void> {
  for (let i = 0; i < 1000 && !(live.connected && live.pending === 0); i++) await new Promise((r) => setTimeout(r, 10));
  expect(live.pending).toBe(0);
}

/** Waits until the hub says the session's agent is gone. */
async function disconnected(id: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (server.hub.list().find((s) => s.id === id)?.connected === false) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`session ${id} still connected`);
}

/** A session that lands a write and leaves it unverified. */
function landUnverifiedWrite(id: string, live: SessionRecorder) {
  const s = createSafetySession({ id, recorder: live });
  s.targetEstablished();
  s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
  s.endToolCall({ id: 'w', ok: true });
  return s;
}

describe('the unverified-writes gauge', () => {
  it('should drop the sessions whose agent disconnected', async () => {
    const a = createLiveRecorder({ url: server.url, name: 'gateway A' });
    const b = createLiveRecorder({ url: server.url, name: 'gateway B' });
    landUnverifiedWrite('gw-a', a);
    landUnverifiedWrite('gw-b', b);
    await Promise.all([delivered(a), delivered(b)]);
    expect(await gauge()).toBe(2);

    await a.close();
    await disconnected('gw-a');
    expect(await gauge()).toBe(1);
    await b.close();
    await disconnected('gw-b');
    expect(await gauge()).toBe(0);
    // Still 0 on the next scrape (nothing subtracted twice).
    expect(await gauge()).toBe(0);
  });

  it('should count a session again when its entries come again with the write still waiting', () => {
    // What a reconnecting agent does to the interpreter behind the gauge: end, then entries again.
    const entries: RecordingEntry[] = [];
    const s = landUnverifiedWrite('resumed', { record: (e) => void entries.push(e) });
    const interpreter = createEntryInterpreter();
    let gauge = 0;
    const count = (e: RecordingEntry) => {
      for (const p of metricPointsOf(interpreter.observe(e), createToolNamer(10)))
        if (p.metric === 'unverifiedWrites') gauge += p.value;
    };
    entries.forEach(count);
    expect(gauge).toBe(1);
    gauge -= interpreter.end('resumed').unverifiedWrites;
    expect(gauge).toBe(0);
    expect(interpreter.end('resumed')).toEqual({ calls: [], unverifiedWrites: 0 });
    entries.length = 0;
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'status' });
    entries.forEach(count);
    expect(gauge).toBe(1);
    entries.length = 0;
    s.endToolCall({ id: 'r', ok: true });
    entries.forEach(count);
    expect(gauge).toBe(0);
  });
});
