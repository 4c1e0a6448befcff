import {
  applyCall,
  createMemoryRecorder,
  createSafetySession,
  SafetyInputError,
  type RecordedCall,
} from 'assistant-safety';
import { describe, expect, it } from 'vitest';

/** Issue 11: the session decides each call's outcome once; the recorder and replay get the same one. */
describe('one source of truth for outcomes', () => {
  const calls: RecordedCall[] = [
    { type: 'beginToolCall', id: 'w0', kind: 'write', tool: 'restart_vm' },
    { type: 'trackPendingRecovery', errorCode: 'E', tool: 'restart_vm' },
    { type: 'targetEstablished' },
    { type: 'canExecuteTool', kind: 'write', tool: 'restart_vm' },
    { type: 'beginToolCall', id: 'w1', kind: 'write', tool: 'restart_vm' },
    { type: 'canFinalAnswer' },
    { type: 'endToolCall', id: 'w1', ok: false, unknown: true },
    { type: 'endToolCall', id: 'w1', ok: true },
    { type: 'recordLoopBlock', id: 'q', kind: 'user_input', tool: 'ask', code: 'LOOK_BEFORE_ASKING' },
    { type: 'checkRecoverySuccess', tool: 'restart_vm' },
    { type: 'onToolSuccess', kind: 'read', tool: 'get_vm' },
    { type: 'completeVerification' },
  ];

  it('should return from perform exactly the outcome the recorder receives', () => {
    const recorder = createMemoryRecorder();
    const s = createSafetySession({ recorder, now: () => 1000 });
    for (const call of calls) {
      const outcome = s.perform(call);
      const entry = recorder.entries.at(-1)!;
      expect(entry.call).toEqual(call);
      expect(outcome.decision).toBe(entry.decision);
      expect(outcome.reasonCode).toBe(entry.reasonCode);
      expect(outcome.result).toBe(entry.result);
      expect(outcome.note).toBe(entry.note);
      if (outcome.decision === 'blocked' && call.type !== 'recordLoopBlock') {
        expect(outcome.blocked?.reasonCode).toBe(entry.reasonCode);
      }
    }
    expect(recorder.entries.map((e) => e.decision)).toEqual([
      'applied',
      'blocked',
      'applied',
      'applied',
      'allowed',
      'allowed',
      'blocked',
      'applied',
      'ignored',
      'blocked',
      'applied',
      'applied',
      'applied',
    ]);
  });

  it('should make applyCall the same as perform', () => {
    const a = createSafetySession({ now: () => 5 });
    const b = createSafetySession({ now: () => 5 });
    for (const call of calls) {
      const { blocked: x, ...left } = applyCall(a, call);
      const { blocked: y, ...right } = b.perform(call);
      expect(left).toEqual(right);
      expect(x?.toJSON()).toEqual(y?.toJSON());
    }
  });

  it('should check a performed call against the recording schema, naming the field', () => {
    const s = createSafetySession();
    expect(() => s.perform({ type: 'beginToolCall', id: 'a', kind: 'reed', tool: 'x' } as never)).toThrow(
      /perform: call\.kind: .*resolve.*read.*write.*user_input/,
    );
    expect(() =>
      s.perform({ type: 'create', config: { recoveryTtlMs: 1, failedWriteRequiresVerification: false } }),
    ).toThrow(SafetyInputError);
    expect(() => s.perform({ type: 'nothing' } as never)).toThrow(/perform: call\.type/);
  });
});
