import type { SafetySession } from 'assistant-safety';
import type { manualClock } from './clock.js';

/** Drives one session through every kind of call the API has. */
export function driveEverything(s: SafetySession, clock: ReturnType<typeof manualClock>) {
  s.recordLoopBlock({ id: 'q0', kind: 'user_input', tool: 'ask', code: 'LOOK_BEFORE_ASKING' });
  s.canExecuteTool('write', 'restart_vm');
  s.beginToolCall({ id: 'b0', kind: 'write', tool: 'restart_vm' });
  s.trackPendingRecovery('resource_not_found', 'find_vm');
  clock.advance(10);
  s.checkRecoverySuccess('find_vm');
  s.beginToolCall({ id: 'r1', kind: 'resolve', tool: 'find_vm' });
  s.endToolCall({ id: 'r1', ok: true });
  s.beginToolCall({ id: 'w1', kind: 'write', tool: 'restart_vm' });
  s.beginToolCall({ id: 'w2', kind: 'write', tool: 'stop_vm' });
  s.beginToolCall({ id: 'r2', kind: 'read', tool: 'vm_status' });
  clock.advance(10);
  s.endToolCall({ id: 'w1', ok: true });
  s.endToolCall({ id: 'w2', ok: true });
  s.endToolCall({ id: 'r2', ok: true });
  s.canFinalAnswer();
  s.onToolSuccess('read', 'vm_status');
  s.completeVerification();
  s.onToolSuccess('user_input', 'ask');
  s.resetKeepProgress();
  s.targetEstablished();
  s.reset();
}
