import { describe, expect, it } from 'vitest';
import { createSafetySession } from 'assistant-safety';

// docs/behaviour.md (Two holes this closes): both come from checking a whole batch before applying any transition.
describe('the two holes of the reference loop', () => {
  it('should block the second write of a batch while the first is in flight', () => {
    const s = createSafetySession();
    s.targetEstablished();
    // Phase 1 of a batch [write, write]: both are checked before either runs.
    const first = s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
    const second = s.beginToolCall({ id: 'w2', kind: 'write', tool: 'restart_db' });
    expect(first).toBeNull();
    expect(second?.reasonCode).toBe('WRITE_IN_FLIGHT');
    // Phase 3: results are applied in order; the blocked one never ran.
    s.endToolCall({ id: 'w1', ok: true });
    s.endToolCall({ id: 'w2', ok: true });
    expect(s.state).toBe('VERIFYING');
    expect(s.context.writeEpoch).toBe(1);
    expect(s.lastWriteTool).toBe('restart_vm');
  });

  it('should not let a read that ran beside a write verify it', () => {
    for (const order of [
      ['w', 'r'],
      ['r', 'w'],
    ]) {
      const s = createSafetySession();
      s.targetEstablished();
      // Phase 1 of a batch [write, read] (or [read, write]).
      for (const id of order)
        s.beginToolCall(
          id === 'w' ? { id, kind: 'write', tool: 'restart_vm' } : { id, kind: 'read', tool: 'vm_status' },
        );
      // Phase 3 applies results in provider order.
      for (const id of order) s.endToolCall({ id, ok: true });
      expect(s.state).toBe('VERIFYING');
      expect(s.readAfterWrite).toBe(false);
      expect(s.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    }
  });
});
