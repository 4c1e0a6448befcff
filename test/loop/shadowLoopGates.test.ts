import { createMemoryRecorder, createSafetySession, createToolLoop, replayRecording } from 'assistant-safety';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classify, createFakeTools, drive } from './fakeTools.js';

/*
 * Shadow mode blocks nothing, the tool loop's own gates included: each gate records what it
 * would have refused (`wouldBlock` on its recordLoopBlock entry) and the call runs. The same
 * calls under enforce mode are refused, so each test shows the gate is the one in question.
 */

function setup(mode: 'enforce' | 'shadow', options: { maxIdenticalCalls?: number; toolTimeoutMs?: number } = {}) {
  const tools = createFakeTools();
  const recorder = createMemoryRecorder();
  const session = createSafetySession({ recorder, mode });
  const loop = createToolLoop({ session, execute: tools.execute, classify, ...options });
  const loopEntries = () =>
    recorder.entries
      .filter((e) => e.call.type === 'recordLoopBlock')
      .map((e) => ({ decision: e.decision, reasonCode: e.reasonCode, wouldBlock: e.wouldBlock }));
  return { tools, session, loop, recorder, loopEntries };
}

const question = (id: string) => ({ id, name: 'ask_user', args: { question: 'Which VM do you mean?' } });
const logs = (id: string) => ({ id, name: 'get_logs', args: { vm: 'web-01', lines: 50 } });

afterEach(() => {
  vi.useRealTimers();
});

describe('the tool loop in shadow mode', () => {
  it('runs a question asked before any lookup (LOOK_BEFORE_ASKING would have refused it)', async () => {
    const enforce = setup('enforce');
    enforce.loop.startTurn();
    expect((await drive(enforce.tools, enforce.loop.runBatch([question('q1')])))[0]!.status).toBe('blocked');

    const shadow = setup('shadow');
    shadow.loop.startTurn();
    const [outcome] = await drive(shadow.tools, shadow.loop.runBatch([question('q1')]));
    expect(outcome).toMatchObject({ id: 'q1', status: 'ok' });
    expect(shadow.tools.started).toEqual(['q1']);
    expect(shadow.loopEntries()).toEqual([
      { decision: 'allowed', reasonCode: undefined, wouldBlock: 'LOOK_BEFORE_ASKING' },
    ]);
    expect(replayRecording(shadow.recorder.entries).divergences).toEqual([]);
  });

  it('runs a call repeated past maxIdenticalCalls (LOOP_DETECTED would have refused it)', async () => {
    const enforce = setup('enforce', { maxIdenticalCalls: 1 });
    const refused = await drive(enforce.tools, enforce.loop.runBatch([logs('a'), logs('b')]));
    expect(refused.map((o) => o.status)).toEqual(['ok', 'blocked']);

    const shadow = setup('shadow', { maxIdenticalCalls: 1 });
    const outcomes = await drive(shadow.tools, shadow.loop.runBatch([logs('a'), logs('b')]));
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);
    expect(shadow.tools.started).toEqual(['a', 'b']);
    expect(shadow.loopEntries()).toEqual([{ decision: 'allowed', reasonCode: undefined, wouldBlock: 'LOOP_DETECTED' }]);
    expect(replayRecording(shadow.recorder.entries).divergences).toEqual([]);
  });

  it('runs a write while a timed-out write still runs (WRITE_IN_FLIGHT would have refused it)', async () => {
    vi.useFakeTimers();
    const run = async (mode: 'enforce' | 'shadow') => {
      const s = setup(mode, { toolTimeoutMs: 100 });
      s.session.targetEstablished();
      const first = s.loop.runBatch([{ id: 'w1', name: 'restart_vm', args: { vm: 'web-01' } }]);
      await vi.advanceTimersByTimeAsync(100);
      expect((await first)[0]!.error?.error).toBe('TOOL_TIMEOUT');
      expect(s.tools.running()).toEqual(['w1']); // its tool has not stopped: it may still act
      const second = s.loop.runBatch([{ id: 'w2', name: 'stop_vm', args: { vm: 'web-02' } }]);
      await vi.advanceTimersByTimeAsync(0);
      if (s.tools.running().includes('w2')) s.tools.resolve('w2');
      return { s, outcome: (await second)[0]! };
    };
    const enforce = await run('enforce');
    expect(enforce.outcome).toMatchObject({ status: 'blocked', error: { details: { reasonCode: 'WRITE_IN_FLIGHT' } } });

    const { s, outcome } = await run('shadow');
    expect(outcome).toMatchObject({ id: 'w2', status: 'ok' });
    expect(s.tools.started).toEqual(['w1', 'w2']);
    expect(s.loopEntries()).toEqual([{ decision: 'allowed', reasonCode: undefined, wouldBlock: 'WRITE_IN_FLIGHT' }]);
    expect(replayRecording(s.recorder.entries).divergences).toEqual([]);
  });
});
