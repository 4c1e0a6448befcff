import { describe, expect, it } from 'vitest';
import { createSafetySession, type SafetySession } from 'assistant-safety';
import { manualClock } from './clock.js';

function reading(clock = manualClock()): SafetySession {
  const s = createSafetySession({ now: clock.now });
  s.targetEstablished();
  return s;
}

function verifying(clock = manualClock()): SafetySession {
  const s = reading(clock);
  s.onToolSuccess('write', 'restart_vm');
  return s;
}

describe('successful tools (compatible API)', () => {
  it('should move RESOLVING to READING on a resolve and record the read', () => {
    const clock = manualClock(5000);
    const s = createSafetySession({ now: clock.now });
    s.onToolSuccess('resolve', 'find_vm');
    expect(s.state).toBe('READING');
    expect(s.lastReadTool).toBe('find_vm');
    expect(s.lastReadAt).toBe(5000);
  });

  it('should move RESOLVING to READING on a read', () => {
    const s = createSafetySession();
    s.onToolSuccess('read', 'get_logs');
    expect(s.state).toBe('READING');
  });

  it.each(['RESOLVING', 'READING', 'VERIFYING'] as const)(
    'should move %s to VERIFYING on a write and record it',
    (from) => {
      const clock = manualClock(7000);
      const s = createSafetySession({ now: clock.now });
      if (from !== 'RESOLVING') s.targetEstablished();
      if (from === 'VERIFYING') s.onToolSuccess('write', 'first');
      expect(s.state).toBe(from);
      clock.advance(10);
      s.onToolSuccess('write', 'restart_vm');
      expect(s.state).toBe('VERIFYING');
      expect(s.wroteThisEpisode).toBe(true);
      expect(s.readAfterWrite).toBe(false);
      expect(s.lastWriteTool).toBe('restart_vm');
      expect(s.lastWriteAt).toBe(7010);
    },
  );

  it('should record a compatible write success in WRITING as a landed write and keep the write in flight', () => {
    const s = reading();
    expect(s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' })).toBeNull();
    expect(s.state).toBe('WRITING');
    s.onToolSuccess('write', 'restart_vm');
    expect(s.state).toBe('WRITING');
    expect(s.inFlightWrite?.id).toBe('w');
    expect(s.context.writeEpoch).toBe(1);
    // The lifecycle end of the write in flight is one more landed write.
    s.endToolCall({ id: 'w', ok: true });
    expect(s.state).toBe('VERIFYING');
    expect(s.context.writeEpoch).toBe(2);
  });

  it('should clear readAfterWrite when a write lands after verification evidence', () => {
    const s = verifying();
    s.onToolSuccess('read', 'status');
    expect(s.readAfterWrite).toBe(true);
    s.onToolSuccess('write', 'again');
    expect(s.readAfterWrite).toBe(false);
  });

  it('should set readAfterWrite and reset the block counter on a read in VERIFYING', () => {
    const s = verifying();
    s.canExecuteTool('write', 'x');
    s.canExecuteTool('write', 'x');
    expect(s.consecutiveVerifyBlocks).toBe(2);
    s.onToolSuccess('resolve', 'find_vm');
    expect(s.state).toBe('VERIFYING');
    expect(s.readAfterWrite).toBe(true);
    expect(s.consecutiveVerifyBlocks).toBe(0);
    expect(s.lastReadTool).toBe('find_vm');
  });

  it('should keep READING on a read in READING and record it', () => {
    const clock = manualClock(100);
    const s = reading(clock);
    clock.advance(1);
    s.onToolSuccess('read', 'metrics');
    expect(s.state).toBe('READING');
    expect(s.lastReadTool).toBe('metrics');
    expect(s.lastReadAt).toBe(101);
  });

  it.each(['RESOLVING', 'READING', 'WRITING', 'VERIFYING'] as const)(
    'should change nothing at all on user input in %s',
    (state) => {
      const s = createSafetySession();
      if (state !== 'RESOLVING') s.onToolSuccess('read', 'seen');
      if (state === 'WRITING') s.beginToolCall({ id: 'w', kind: 'write', tool: 'w' });
      if (state === 'VERIFYING') s.onToolSuccess('write', 'w');
      const before = s.persist();
      s.onToolSuccess('user_input', 'ask_user');
      expect(s.persist()).toEqual(before);
      s.beginToolCall({ id: 'q', kind: 'user_input', tool: 'ask_user' });
      s.endToolCall({ id: 'q', ok: true });
      expect(s.persist()).toEqual(before);
      expect(s.lastReadTool).not.toBe('ask_user');
    },
  );
});

describe('call lifecycle', () => {
  it('should enter WRITING when a write begins in READING and VERIFYING when it succeeds', () => {
    const clock = manualClock(1);
    const s = reading(clock);
    expect(s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' })).toBeNull();
    expect(s.state).toBe('WRITING');
    expect(s.inFlightWrite).toEqual({ id: 'w1', tool: 'restart_vm', startedAt: 1 });
    clock.advance(5);
    s.endToolCall({ id: 'w1', ok: true });
    expect(s.state).toBe('VERIFYING');
    expect(s.inFlightWrite).toBeUndefined();
    expect(s.lastWriteAt).toBe(6);
  });

  it('should allow reads, resolves and user input while a write is in flight', () => {
    const s = reading();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    expect(s.beginToolCall({ id: 'r', kind: 'read', tool: 'logs' })).toBeNull();
    expect(s.beginToolCall({ id: 'd', kind: 'resolve', tool: 'find' })).toBeNull();
    expect(s.beginToolCall({ id: 'q', kind: 'user_input', tool: 'ask' })).toBeNull();
    expect(s.state).toBe('WRITING');
  });

  it('should return WRITING to READING on a failed write', () => {
    const s = reading();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    s.endToolCall({ id: 'w', ok: false });
    expect(s.state).toBe('READING');
    expect(s.wroteThisEpisode).toBe(false);
    expect(s.beginToolCall({ id: 'w2', kind: 'write', tool: 'restart_vm' })).toBeNull();
  });

  it('should send a failed write to VERIFYING when failedWriteRequiresVerification is set', () => {
    const s = createSafetySession({ failedWriteRequiresVerification: true });
    s.targetEstablished();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    s.endToolCall({ id: 'w', ok: false });
    expect(s.state).toBe('VERIFYING');
    expect(s.readAfterWrite).toBe(false);
    expect(s.lastWriteTool).toBe('restart_vm');
  });

  it('should change nothing on a failed read', () => {
    const s = createSafetySession();
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'logs' });
    s.endToolCall({ id: 'r', ok: false });
    expect(s.state).toBe('RESOLVING');
    expect(s.lastReadTool).toBeUndefined();
    expect(s.context.calls).toEqual({});
  });

  it('should move RESOLVING to READING when a lifecycle read succeeds', () => {
    const s = createSafetySession();
    s.beginToolCall({ id: 'r', kind: 'resolve', tool: 'find' });
    s.endToolCall({ id: 'r', ok: true });
    expect(s.state).toBe('READING');
  });

  it.each([
    ['never begun', (s: SafetySession) => s],
    [
      'blocked',
      (s: SafetySession) => {
        s.beginToolCall({ id: 'x', kind: 'write', tool: 'restart_vm' });
        return s;
      },
    ],
    [
      'already ended',
      (s: SafetySession) => {
        s.beginToolCall({ id: 'x', kind: 'read', tool: 'logs' });
        s.endToolCall({ id: 'x', ok: true });
        return s;
      },
    ],
  ])('should ignore the end of a call %s without throwing', (_, prepare) => {
    const s = prepare(createSafetySession());
    const before = s.persist();
    expect(() => s.endToolCall({ id: 'x', ok: true })).not.toThrow();
    expect(() => s.endToolCall({ id: 'x', ok: false, verified: true })).not.toThrow();
    expect(s.persist()).toEqual(before);
  });

  it('should count a self-verified write as verified', () => {
    const s = reading();
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' });
    s.endToolCall({ id: 'w', ok: true, verified: true });
    expect(s.state).toBe('VERIFYING');
    expect(s.readAfterWrite).toBe(true);
    expect(s.canFinalAnswer()).toBeNull();
    s.completeVerification();
    expect(s.state).toBe('READING');
  });

  it('should not treat verified: true on a read as anything but a read', () => {
    const s = createSafetySession();
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'logs' });
    s.endToolCall({ id: 'r', ok: true, verified: true });
    expect(s.state).toBe('READING');
    expect(s.wroteThisEpisode).toBe(false);
  });
});

describe('completeVerification, targetEstablished', () => {
  it('should go from VERIFYING to READING only with readAfterWrite, keeping wroteThisEpisode', () => {
    const s = verifying();
    s.canExecuteTool('write', 'x');
    s.completeVerification();
    expect(s.state).toBe('VERIFYING');
    expect(s.consecutiveVerifyBlocks).toBe(1);
    s.onToolSuccess('read', 'status');
    s.completeVerification();
    expect(s.state).toBe('READING');
    expect(s.readAfterWrite).toBe(false);
    expect(s.consecutiveVerifyBlocks).toBe(0);
    expect(s.wroteThisEpisode).toBe(true);
  });

  it.each(['RESOLVING', 'READING', 'WRITING'] as const)('should do nothing on completeVerification in %s', (state) => {
    const s = createSafetySession();
    if (state !== 'RESOLVING') s.targetEstablished();
    if (state === 'WRITING') s.beginToolCall({ id: 'w', kind: 'write', tool: 'w' });
    const before = s.persist();
    s.completeVerification();
    expect(s.persist()).toEqual(before);
  });

  it('should move RESOLVING to READING on targetEstablished and leave other states alone', () => {
    const s = createSafetySession();
    s.targetEstablished();
    expect(s.state).toBe('READING');
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'w' });
    s.targetEstablished();
    expect(s.state).toBe('WRITING');
    s.endToolCall({ id: 'w', ok: true });
    s.targetEstablished();
    expect(s.state).toBe('VERIFYING');
  });
});
