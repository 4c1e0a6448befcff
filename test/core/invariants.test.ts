import { describe, expect, it } from 'vitest';
import { createSafetySession, TOOL_KINDS } from 'assistant-safety';

describe('the invariants of docs/behaviour.md, by hand', () => {
  it('I1: should block a write in RESOLVING and leave the state unchanged', () => {
    const s = createSafetySession();
    const before = s.persist();
    const compat = s.canExecuteTool('write', 'restart_vm');
    expect(compat?.reasonCode).toBe('NO_VALIDATED_TARGET');
    expect(s.persist().state).toBe('RESOLVING');
    expect(s.persist().context.calls).toEqual(before.context.calls);
    const lifecycle = s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    expect(lifecycle?.reasonCode).toBe('NO_VALIDATED_TARGET');
    expect(s.state).toBe('RESOLVING');
    expect(s.inFlightWrite).toBeUndefined();
  });

  it('I2: should block a write in VERIFYING until a later read succeeded and completeVerification ran', () => {
    const s = createSafetySession();
    s.targetEstablished();
    s.onToolSuccess('write', 'restart_vm');
    expect(s.canExecuteTool('write', 'stop_vm')?.reasonCode).toBe('UNVERIFIED_WRITE');
    s.onToolSuccess('read', 'status');
    // Evidence alone is not enough: verification must be completed.
    expect(s.canExecuteTool('write', 'stop_vm')?.reasonCode).toBe('UNVERIFIED_WRITE');
    expect(s.canExecuteTool('write', 'stop_vm')?.required).toBe('verification_complete');
    s.completeVerification();
    expect(s.canExecuteTool('write', 'stop_vm')).toBeNull();
  });

  it('I2: should block a write in WRITING', () => {
    const s = createSafetySession();
    s.targetEstablished();
    s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
    expect(s.canExecuteTool('write', 'stop_vm')?.reasonCode).toBe('WRITE_IN_FLIGHT');
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' })?.reasonCode).toBe('WRITE_IN_FLIGHT');
  });

  it('I3: should refuse a final answer in VERIFYING without readAfterWrite and in WRITING, and allow it elsewhere', () => {
    const s = createSafetySession();
    expect(s.canFinalAnswer()).toBeNull();
    s.targetEstablished();
    expect(s.canFinalAnswer()).toBeNull();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    const inFlight = s.canFinalAnswer();
    expect(inFlight?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    expect(inFlight?.state).toBe('WRITING');
    s.endToolCall({ id: 'w', ok: true });
    expect(s.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'status' });
    s.endToolCall({ id: 'r', ok: true });
    expect(s.canFinalAnswer()).toBeNull();
  });

  it('I4: should count every blocked write in VERIFYING and never waive verification', () => {
    const s = createSafetySession();
    s.targetEstablished();
    s.onToolSuccess('write', 'restart_vm');
    for (let i = 1; i <= 50; i++) {
      const blocked =
        i % 2
          ? s.canExecuteTool('write', 'restart_vm')
          : s.beginToolCall({ id: `w${i}`, kind: 'write', tool: 'restart_vm' });
      expect(blocked?.reasonCode).toBe('UNVERIFIED_WRITE');
      expect(s.consecutiveVerifyBlocks).toBe(i);
      expect(s.state).toBe('VERIFYING');
    }
    expect(s.canFinalAnswer()?.reasonCode).toBe('FINAL_ANSWER_UNVERIFIED');
  });

  it('I4: should not count a blocked write outside VERIFYING', () => {
    const s = createSafetySession();
    s.canExecuteTool('write', 'x');
    s.targetEstablished();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'x' });
    s.canExecuteTool('write', 'y');
    expect(s.consecutiveVerifyBlocks).toBe(0);
  });

  it('I5: should never block resolve, read or user input in any state', () => {
    const prepare = [
      () => createSafetySession(),
      () => {
        const s = createSafetySession();
        s.targetEstablished();
        return s;
      },
      () => {
        const s = createSafetySession();
        s.targetEstablished();
        s.beginToolCall({ id: 'w', kind: 'write', tool: 'w' });
        return s;
      },
      () => {
        const s = createSafetySession();
        s.onToolSuccess('write', 'w');
        return s;
      },
    ];
    const seen = new Set<string>();
    for (const make of prepare) {
      for (const kind of TOOL_KINDS.filter((k) => k !== 'write')) {
        const s = make();
        seen.add(s.state);
        expect(s.canExecuteTool(kind, 'tool')).toBeNull();
        expect(s.beginToolCall({ id: 'c', kind, tool: 'tool' })).toBeNull();
      }
    }
    expect([...seen].sort()).toEqual(['READING', 'RESOLVING', 'VERIFYING', 'WRITING']);
  });

  it('I6: should not advance state or touch any flag on user input', () => {
    const s = createSafetySession();
    s.onToolSuccess('user_input', 'ask');
    expect(s.state).toBe('RESOLVING');
    s.onToolSuccess('write', 'w');
    s.onToolSuccess('user_input', 'ask');
    expect(s.readAfterWrite).toBe(false);
    expect(s.lastReadTool).toBeUndefined();
  });

  it('I7: should not let a read that began before the write succeeded verify it', () => {
    const s = createSafetySession();
    s.targetEstablished();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'status' });
    s.endToolCall({ id: 'w', ok: true });
    s.endToolCall({ id: 'r', ok: true });
    expect(s.state).toBe('VERIFYING');
    expect(s.readAfterWrite).toBe(false);
    expect(s.lastReadTool).toBe('status');
    // A read that begins now does verify.
    s.beginToolCall({ id: 'r2', kind: 'read', tool: 'status' });
    s.endToolCall({ id: 'r2', ok: true });
    expect(s.readAfterWrite).toBe(true);
  });

  it('I7: should not let a read begun in VERIFYING verify a later write', () => {
    const s = createSafetySession();
    s.onToolSuccess('write', 'first');
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'status' });
    s.onToolSuccess('write', 'second'); // compatible API: lands a second write
    s.endToolCall({ id: 'r', ok: true });
    expect(s.readAfterWrite).toBe(false);
  });
});
