import { createMemoryRecorder, createSafetySession, createToolLoop, type RecordingEntry } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { createFakeTools, drive, flush } from '../loop/fakeTools.js';

const classify = (name: string) => (name.startsWith('get') ? 'read' : 'write');

/** Issue 16 item 3: listeners and recorders observe; they never decide. */
describe('throwing listeners and recorders', () => {
  it('should keep a decision and report the error when a listener throws', () => {
    const errors: unknown[] = [];
    const s = createSafetySession({ onListenerError: (e) => errors.push(e) });
    s.subscribe(() => {
      throw new Error('listener bug');
    });
    let seen = 0;
    s.subscribe(() => seen++);
    s.targetEstablished();
    expect(s.state).toBe('READING');
    expect(s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart' })).toBeNull();
    expect(s.state).toBe('WRITING');
    expect(seen).toBe(2); // later listeners still hear about it
    expect(errors).toHaveLength(2);
  });

  it('should not end a succeeded write as failed when a listener throws as the read before it ends', async () => {
    const tools = createFakeTools();
    const session = createSafetySession({ onListenerError: () => {} });
    session.targetEstablished();
    let ended = 0;
    session.subscribe(() => {
      if (session.context.calls.r === undefined && ++ended === 1) throw new Error('boom on the read end');
    });
    const loop = createToolLoop({ session, execute: tools.execute, classify });
    const outcomes = await drive(
      tools,
      loop.runBatch([
        { id: 'r', name: 'get_vm' },
        { id: 'w', name: 'restart_vm' },
      ]),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);
    expect(session.state).toBe('VERIFYING');
    expect(loop.finalAnswer().allowed).toBe(false);
  });

  it('should not leave a write in flight when a listener throws on its begin', async () => {
    const tools = createFakeTools();
    const session = createSafetySession({ onListenerError: () => {} });
    session.targetEstablished();
    session.subscribe(() => {
      if (session.state === 'WRITING') throw new Error('boom on the write begin');
    });
    const loop = createToolLoop({ session, execute: tools.execute, classify });
    const batch = loop.runBatch([{ id: 'w', name: 'restart_vm' }]);
    await flush();
    tools.resolve('w');
    const outcomes = await batch;
    expect(outcomes[0]!.status).toBe('ok');
    expect(session.state).toBe('VERIFYING');
    expect(session.context.calls).toEqual({});
  });

  it('should keep the decision when both the recorder and its error handler throw', () => {
    const s = createSafetySession({
      recorder: {
        record() {
          throw new Error('disk full');
        },
      },
      onRecorderError() {
        throw new Error('the handler too');
      },
    });
    s.targetEstablished();
    expect(s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart' })).toBeNull();
    s.endToolCall({ id: 'w', ok: true });
    expect(s.state).toBe('VERIFYING');
    expect(s.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
  });

  it('should still record every entry when a listener throws', () => {
    const recorder = createMemoryRecorder();
    const s = createSafetySession({ recorder, onListenerError: () => {} });
    s.subscribe(() => {
      throw 'not even an Error';
    });
    s.targetEstablished();
    s.canFinalAnswer();
    expect(recorder.entries.map((e: RecordingEntry) => e.call.type)).toEqual([
      'create',
      'targetEstablished',
      'canFinalAnswer',
    ]);
  });
});
