import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRecorder, createSafetySession } from '../../src/index.js';
import { createLiveRecorder } from '../../src/node/createLiveRecorder.js';
import { drive, startTestServer, until } from './helpers.js';

let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('live recorder when the server goes away', () => {
  it('should keep the agent working and its local recording whole while the server is away, then catch up without duplicates', async () => {
    server = await startTestServer();
    const port = server.port;
    const token = server.token;
    const local = createMemoryRecorder();
    const errors: string[] = [];
    const live = createLiveRecorder({
      url: server.url,
      fallback: local,
      retryMs: 20,
      maxRetryMs: 100,
      onError: (e) => errors.push(e.message),
    });
    const session = createSafetySession({ id: 'resilient', recorder: live });
    drive(session, 3);
    await until(() => server!.hub.entriesOf('resilient')?.length === 7);

    await server.close(); // the server goes away mid-session
    await until(() => !live.connected);
    drive(session, 10); // the agent keeps working
    expect(session.state).toBe('READING');
    expect(local.entries).toHaveLength(27);
    expect(live.pending).toBeGreaterThanOrEqual(20);

    // The same server comes back on the same port; the buffered entries arrive once.
    server = await startTestServer({ port, token });
    await until(() => live.pending === 0);
    drive(session, 1);
    await until(() => server!.hub.entriesOf('resilient')?.length === 22);
    const seqs = server.hub.entriesOf('resilient')!.map((e) => e.seq);
    expect(seqs).toEqual([...Array(22).keys()].map((i) => i + 7)); // the new hub has what it missed, once each
    expect(local.entries.map((e) => e.seq)).toEqual([...Array(29).keys()]);
    expect(errors.length).toBeGreaterThan(0);
    await live.close();
  });

  it('should bound what it buffers for an absent server, and say how much it dropped', async () => {
    const local = createMemoryRecorder();
    // Nothing listens on port 9 on loopback.
    const live = createLiveRecorder({
      url: 'http://127.0.0.1:9/?token=x',
      fallback: local,
      maxBuffer: 10,
      retryMs: 1000,
    });
    const session = createSafetySession({ id: 'bounded', recorder: live });
    drive(session, 20);
    expect(local.entries).toHaveLength(41);
    expect(live.pending).toBe(10);
    expect(live.dropped).toBe(31);
    const started = Date.now();
    await live.close({ timeoutMs: 100 });
    expect(Date.now() - started).toBeLessThan(500);
  });
});
