import { describe, expect, it } from 'vitest';
import { createSafetySession, RECOVERY_TTL_MS } from 'assistant-safety';
import { manualClock } from './clock.js';

describe('pending recoveries', () => {
  it('should default the TTL to ten minutes', () => {
    expect(RECOVERY_TTL_MS).toBe(600_000);
  });

  it('should return unique ids and take the oldest recovery of a tool first', () => {
    const clock = manualClock(1000);
    const s = createSafetySession({ now: clock.now });
    const a = s.trackPendingRecovery('FSM_BLOCKED', 'restart_vm');
    clock.advance(1);
    const b = s.trackPendingRecovery('FSM_BLOCKED', 'restart_vm');
    const c = s.trackPendingRecovery('resource_not_found', 'other');
    expect(new Set([a, b, c]).size).toBe(3);
    expect(s.checkRecoverySuccess('restart_vm')).toMatchObject({
      recoveryId: a,
      errorCode: 'FSM_BLOCKED',
      tool: 'restart_vm',
      createdAt: 1000,
      attempts: 1,
    });
    expect(s.checkRecoverySuccess('restart_vm')?.recoveryId).toBe(b);
    expect(s.checkRecoverySuccess('restart_vm')).toBeUndefined();
    expect(s.pendingRecoveries.map((r) => r.recoveryId)).toEqual([c]);
  });

  it('should drop recoveries older than the TTL, measured on the injected clock', () => {
    const clock = manualClock(0);
    const s = createSafetySession({ now: clock.now, recoveryTtlMs: 100 });
    s.trackPendingRecovery('E', 'tool');
    clock.advance(100);
    expect(s.pendingRecoveries).toHaveLength(1); // exactly the TTL old: still alive
    clock.advance(1);
    expect(s.pendingRecoveries).toHaveLength(0);
    expect(s.checkRecoverySuccess('tool')).toBeUndefined();
    expect(s.context.pendingRecoveries).toHaveLength(0);
  });

  it('should drop expired recoveries when tracking a new one', () => {
    const clock = manualClock(0);
    const s = createSafetySession({ now: clock.now });
    s.trackPendingRecovery('E', 'old');
    clock.advance(RECOVERY_TTL_MS + 1);
    s.trackPendingRecovery('E', 'new');
    expect(s.context.pendingRecoveries.map((r) => r.tool)).toEqual(['new']);
  });

  it('should track a blocked lifecycle call and settle it when the tool later succeeds', () => {
    const clock = manualClock(50);
    const s = createSafetySession({ now: clock.now });
    s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
    s.beginToolCall({ id: 'w2', kind: 'write', tool: 'restart_vm' });
    expect(s.pendingRecoveries).toEqual([
      { recoveryId: expect.any(String), errorCode: 'FSM_BLOCKED', tool: 'restart_vm', createdAt: 50, attempts: 2 },
    ]);
    s.beginToolCall({ id: 'r', kind: 'resolve', tool: 'find' });
    s.endToolCall({ id: 'r', ok: true });
    expect(s.pendingRecoveries).toHaveLength(1);
    s.beginToolCall({ id: 'w3', kind: 'write', tool: 'restart_vm' });
    s.endToolCall({ id: 'w3', ok: false });
    expect(s.pendingRecoveries).toHaveLength(1); // a failure is no recovery
    s.beginToolCall({ id: 'w4', kind: 'write', tool: 'restart_vm' });
    s.endToolCall({ id: 'w4', ok: true });
    expect(s.pendingRecoveries).toEqual([]);
  });

  it('should not settle recoveries through the compatible onToolSuccess (as the reference)', () => {
    const s = createSafetySession();
    s.trackPendingRecovery('FSM_BLOCKED', 'restart_vm');
    s.onToolSuccess('read', 'restart_vm');
    expect(s.pendingRecoveries).toHaveLength(1);
  });
});
