import { createSafetySession, createToolLoop } from 'assistant-safety';
import { describe, expect, it } from 'vitest';
import { classify, createFakeTools, drive, flush } from './fakeTools.js';

function setup() {
  const tools = createFakeTools();
  const session = createSafetySession();
  session.targetEstablished();
  const loop = createToolLoop({ session, execute: tools.execute, classify });
  return { tools, session, loop };
}

describe('the two reference holes', () => {
  it('should block the second write of a batch with WRITE_IN_FLIGHT while the first is in flight', async () => {
    const { tools, session, loop } = setup();
    const batch = loop.runBatch([
      { id: 'w1', name: 'restart_vm', args: { vm: 'web-01' } },
      { id: 'w2', name: 'stop_vm', args: { vm: 'web-02' } },
    ]);
    await flush();
    expect(session.state).toBe('WRITING');
    expect(tools.started).toEqual(['w1']); // the second write never runs
    const [first, second] = await drive(tools, batch);
    expect(first).toMatchObject({ id: 'w1', kind: 'write', status: 'ok' });
    expect(second).toMatchObject({
      id: 'w2',
      kind: 'write',
      status: 'blocked',
      error: {
        error: 'FSM_BLOCKED',
        details: { reasonCode: 'WRITE_IN_FLIGHT', toolName: 'stop_vm', state: 'WRITING' },
      },
    });
    expect(tools.started).toEqual(['w1']);
    expect(session.state).toBe('VERIFYING');
    expect(session.lastWriteTool).toBe('restart_vm');
  });

  it('should not count a read run beside a write in the same batch as verification', async () => {
    for (const order of [
      ['w', 'r'],
      ['r', 'w'],
    ]) {
      const { tools, session, loop } = setup();
      const calls = {
        w: { id: 'w', name: 'restart_vm', args: { vm: 'web-01' } },
        r: { id: 'r', name: 'get_status', args: { vm: 'web-01' } },
      };
      // The write finishes first, then the read: still no verification, the read began before the write landed.
      const outcomes = await drive(tools, loop.runBatch(order.map((id) => calls[id as 'w' | 'r'])), (running) =>
        running.includes('w') ? 'w' : 'r',
      );
      expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);
      expect(session.state).toBe('VERIFYING');
      expect(session.readAfterWrite).toBe(false);
      expect(loop.finalAnswer()).toMatchObject({ allowed: false, error: { reasonCode: 'FINAL_ANSWER_UNVERIFIED' } });

      // A read in the next batch began after the write: it verifies, and the loop completes verification.
      await drive(tools, loop.runBatch([{ id: 'r2', name: 'get_status', args: { vm: 'web-01' } }]));
      expect(session.state).toBe('READING');
      expect(loop.finalAnswer()).toEqual({ allowed: true });
    }
  });
});
