import { describe, expect, it } from 'vitest';
import { createSafetySession, type SafetySession } from 'assistant-safety';

const report = (s: SafetySession, id: string) => {
  const blocked = s.beginToolCall({ id, kind: 'write', tool: 'patrol_report_finding', stateOnly: true });
  if (!blocked) s.endToolCall({ id, ok: true });
  return blocked;
};

describe('state-only writes and execution profiles', () => {
  it('should let a state-only write succeed in READING and stay READING, not written', () => {
    const s = createSafetySession();
    s.targetEstablished();
    s.beginToolCall({ id: 'f1', kind: 'write', tool: 'patrol_report_finding', stateOnly: true });
    expect(s.state).toBe('READING');
    expect(s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' })).toBeNull();
    s.endToolCall({ id: 'f1', ok: true });
    expect(s.state).toBe('WRITING');
    expect(s.wroteThisEpisode).toBe(false);
    expect(s.lastWriteTool).toBeUndefined();
  });

  it('should block a state-only write after an infrastructure write, and it does not verify', () => {
    const s = createSafetySession();
    s.targetEstablished();
    s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
    expect(report(s, 'f0')?.reasonCode).toBe('WRITE_IN_FLIGHT');
    s.endToolCall({ id: 'w1', ok: true });
    expect(report(s, 'f1')?.reasonCode).toBe('UNVERIFIED_WRITE');
    expect(s.state).toBe('VERIFYING');
    expect(s.readAfterWrite).toBe(false);
    expect(s.lastWriteTool).toBe('restart_vm');
  });

  it('should clear the recoveries of its tool on success', () => {
    const s = createSafetySession();
    expect(report(s, 'f0')?.reasonCode).toBe('NO_VALIDATED_TARGET');
    expect(s.pendingRecoveries.map((r) => r.tool)).toEqual(['patrol_report_finding']);
    s.targetEstablished();
    report(s, 'f1');
    expect(s.pendingRecoveries).toEqual([]);
  });

  it('should run a state-only write in RESOLVING under detection', () => {
    const s = createSafetySession({ profile: 'detection' });
    expect(report(s, 'f1')).toBeNull();
    expect(s.state).toBe('RESOLVING');
    expect(s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' })?.reasonCode).toBe('NO_VALIDATED_TARGET');
  });

  it('should refuse every state-only write under investigation', () => {
    const s = createSafetySession({ profile: 'investigation' });
    s.targetEstablished();
    const blocked = report(s, 'f1')!;
    expect(blocked.reasonCode).toBe('POLICY_DENIED');
    expect(s.attest(blocked, { by: 'alice' })).toBe(false);
    expect(s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' })).toBeNull();
  });

  it('should keep the interactive profile by default and refuse an unknown profile', () => {
    expect(report(createSafetySession(), 'f1')?.reasonCode).toBe('NO_VALIDATED_TARGET');
    expect(() => createSafetySession({ profile: 'batch' as never })).toThrow(/options\.profile/);
  });
});
