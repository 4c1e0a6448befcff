import { createMemoryRecorder, createSafetySession, createToolLoop, replayRecording } from 'assistant-safety';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeTools, flush } from '../loop/fakeTools.js';

const classify = (name: string) => (name.startsWith('get') ? 'read' : 'write');

afterEach(() => {
  vi.useRealTimers();
});

/** Issue 16 item 4: a timed-out or aborted write may have landed; it is not a failure. */
describe('a write whose outcome is unknown', () => {
  it('should send the session to VERIFYING when ended with an unknown outcome, whatever the failed-write option', () => {
    const recorder = createMemoryRecorder();
    const s = createSafetySession({ recorder });
    s.targetEstablished();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    s.endToolCall({ id: 'w', ok: false, unknown: true });
    expect(s.state).toBe('VERIFYING');
    expect(s.lastWriteTool).toBe('restart_vm');
    expect(s.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    expect(replayRecording(recorder.entries).divergences).toEqual([]);
  });

  it('should refuse an unknown outcome that claims success, changing nothing', () => {
    const s = createSafetySession();
    s.targetEstablished();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    expect(() => s.endToolCall({ id: 'w', ok: true, unknown: true })).toThrow(/endToolCall: result\.unknown/);
    expect(s.state).toBe('WRITING');
  });

  it('should still send a write whose tool reported failure back to READING', () => {
    const s = createSafetySession();
    s.targetEstablished();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    s.endToolCall({ id: 'w', ok: false });
    expect(s.state).toBe('READING');
  });

  it('should treat a timed-out write as possibly landed and block the next write while its tool still runs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const tools = createFakeTools(); // ignores its signal: settles only when the test says
    const session = createSafetySession();
    session.targetEstablished();
    const loop = createToolLoop({ session, execute: tools.execute, classify, toolTimeoutMs: 50 });

    const first = loop.runBatch([{ id: 'w1', name: 'restart_vm' }]);
    await vi.advanceTimersByTimeAsync(50);
    expect((await first)[0]!.error?.error).toBe('TOOL_TIMEOUT');
    expect(session.state).toBe('VERIFYING');
    expect(loop.finalAnswer().allowed).toBe(false);

    // Verified by a later read, the session would allow a write; the loop must not while w1 still runs.
    const read = loop.runBatch([{ id: 'r', name: 'get_vm' }]);
    await flush();
    tools.resolve('r');
    await read;
    expect(session.state).toBe('READING');
    const second = await loop.runBatch([{ id: 'w2', name: 'stop_vm' }]);
    expect(second[0]!.status).toBe('blocked');
    expect(second[0]!.error?.details?.reasonCode).toBe('WRITE_IN_FLIGHT');
    expect(tools.started).not.toContain('w2');

    // Once the first write's tool has finished, writing may go on.
    tools.resolve('w1');
    await flush();
    const third = loop.runBatch([{ id: 'w3', name: 'stop_vm' }]);
    await flush();
    tools.resolve('w3');
    expect((await third)[0]!.status).toBe('ok');
  });

  it('should treat an aborted write as possibly landed', async () => {
    const tools = createFakeTools();
    const controller = new AbortController();
    const session = createSafetySession({ failedWriteRequiresVerification: false });
    session.targetEstablished();
    const loop = createToolLoop({ session, execute: tools.execute, classify, signal: controller.signal });
    const batch = loop.runBatch([{ id: 'w', name: 'restart_vm' }]);
    await flush();
    controller.abort(new Error('user pressed stop'));
    expect((await batch)[0]!.error?.error).toBe('TOOL_ABORTED');
    expect(session.state).toBe('VERIFYING');
  });

  it('should treat a write the abort stopped before it started as not run', async () => {
    const tools = createFakeTools();
    const controller = new AbortController();
    const session = createSafetySession();
    session.targetEstablished();
    const loop = createToolLoop({
      session,
      execute: tools.execute,
      classify,
      signal: controller.signal,
      mustRunInOrder: () => true,
    });
    const batch = loop.runBatch([
      { id: 'r', name: 'get_vm' },
      { id: 'w', name: 'restart_vm' },
    ]);
    await flush();
    controller.abort('stop');
    const outcomes = await batch;
    expect(outcomes[1]!.error?.details?.started).toBe(false);
    expect(tools.started).toEqual(['r']);
    expect(session.state).toBe('READING');
  });
});
