import { describe, expect, it } from 'vitest';
import { createSafetySession, initialContext, type SafetySession } from 'assistant-safety';

function busy(): SafetySession {
  const s = createSafetySession();
  s.canExecuteTool('write', 'early'); // a blocked write
  s.trackPendingRecovery('FSM_BLOCKED', 'early');
  s.onToolSuccess('read', 'logs');
  s.onToolSuccess('write', 'restart_vm');
  s.canExecuteTool('write', 'again');
  s.beginToolCall({ id: 'r', kind: 'read', tool: 'status' });
  return s;
}

describe('reset', () => {
  it('should clear all tracking and return to RESOLVING from every state', () => {
    for (const state of ['READING', 'WRITING', 'VERIFYING'] as const) {
      const s = busy();
      if (state === 'READING') {
        s.endToolCall({ id: 'r', ok: true });
        s.completeVerification();
      }
      if (state === 'WRITING') {
        s.endToolCall({ id: 'r', ok: true });
        s.completeVerification();
        s.beginToolCall({ id: 'w', kind: 'write', tool: 'stop_vm' });
      }
      expect(s.state).toBe(state);
      s.reset();
      const { context } = s.persist();
      expect(s.state).toBe('RESOLVING');
      expect({ ...context, recoverySeq: 0, blockCount: 0 }).toEqual(initialContext(context.config));
      expect(s.pendingRecoveries).toEqual([]);
      expect(s.lastWriteTool).toBeUndefined();
      expect(s.lastReadAt).toBeUndefined();
    }
  });

  it('should make ignored the end of a call begun before the reset', () => {
    const s = busy();
    s.reset();
    s.endToolCall({ id: 'r', ok: true });
    expect(s.state).toBe('RESOLVING');
  });
});

describe('resetKeepProgress', () => {
  it('should move VERIFYING to READING and clear the episode flags and counter', () => {
    const s = busy();
    expect(s.consecutiveVerifyBlocks).toBe(1);
    s.resetKeepProgress();
    expect(s.state).toBe('READING');
    expect(s.wroteThisEpisode).toBe(false);
    expect(s.readAfterWrite).toBe(false);
    expect(s.consecutiveVerifyBlocks).toBe(0);
    // Tracking other than the episode flags is kept.
    expect(s.lastWriteTool).toBe('restart_vm');
    expect(s.pendingRecoveries.map((r) => r.tool)).toEqual(['early']);
  });

  it('should keep RESOLVING and READING as they are', () => {
    const s = createSafetySession();
    s.resetKeepProgress();
    expect(s.state).toBe('RESOLVING');
    s.targetEstablished();
    s.resetKeepProgress();
    expect(s.state).toBe('READING');
  });

  it('should keep WRITING and let the write in flight land', () => {
    const s = createSafetySession();
    s.onToolSuccess('read', 'x');
    s.onToolSuccess('write', 'first');
    s.onToolSuccess('read', 'x');
    s.completeVerification();
    expect(s.wroteThisEpisode).toBe(true);
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'second' });
    s.resetKeepProgress();
    expect(s.state).toBe('WRITING');
    expect(s.wroteThisEpisode).toBe(false);
    s.endToolCall({ id: 'w', ok: true });
    expect(s.state).toBe('VERIFYING');
    expect(s.wroteThisEpisode).toBe(true);
  });
});
