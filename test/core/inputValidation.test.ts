import { describe, expect, it } from 'vitest';
import { createSafetySession, SafetyInputError } from 'assistant-safety';

describe('bad arguments to the session', () => {
  it('should throw a SafetyInputError naming the argument and change nothing', () => {
    const s = createSafetySession();
    s.targetEstablished();
    const before = s.persist();
    const bad: [() => unknown, string][] = [
      [() => s.canExecuteTool('wrte' as never, 'x'), 'canExecuteTool: kind'],
      [() => s.canExecuteTool('write', ''), 'canExecuteTool: toolName'],
      [() => s.onToolSuccess('read', 5 as never), 'onToolSuccess: toolName'],
      [() => s.beginToolCall(null as never), 'beginToolCall: call'],
      [() => s.beginToolCall({ id: '', kind: 'read', tool: 'x' }), 'beginToolCall: call.id'],
      [() => s.beginToolCall({ id: 'a', kind: 'mutate' as never, tool: 'x' }), 'beginToolCall: call.kind'],
      [() => s.beginToolCall({ id: 'a', kind: 'write', tool: undefined as never }), 'beginToolCall: call.tool'],
      [() => s.endToolCall({ id: 'a', ok: 'yes' as never }), 'endToolCall: result.ok'],
      [() => s.endToolCall({ id: 'a', ok: true, verified: 1 as never }), 'endToolCall: result.verified'],
      [() => s.trackPendingRecovery(3 as never, 'x'), 'trackPendingRecovery: errorCode'],
      [() => s.checkRecoverySuccess('' as never), 'checkRecoverySuccess: toolName'],
    ];
    for (const [call, path] of bad) {
      expect(call).toThrow(SafetyInputError);
      expect(call).toThrow(path);
    }
    expect(s.persist()).toEqual(before);
  });

  it('should say a missing field is missing, and word a wrong type once', () => {
    const s = createSafetySession();
    // Before: "Invalid input: expected string, received undefined, got undefined".
    expect(() => s.beginToolCall({ kind: 'read', tool: 'x' } as never)).toThrow(
      new SafetyInputError('beginToolCall: call.id', 'missing: expected string'),
    );
    expect(() => s.beginToolCall({ id: 5, kind: 'read', tool: 'x' } as never)).toThrow(
      new SafetyInputError('beginToolCall: call.id', 'Invalid input: expected string, received number'),
    );
    expect(() => s.beginToolCall({ id: 'a', kind: 'wrte', tool: 'x' } as never)).toThrow(
      'beginToolCall: call.kind: Invalid option: expected one of "resolve"|"read"|"write"|"user_input", got "wrte"',
    );
  });

  it('should refuse a call id already in flight', () => {
    const s = createSafetySession();
    s.beginToolCall({ id: 'c', kind: 'read', tool: 'logs' });
    expect(() => s.beginToolCall({ id: 'c', kind: 'write', tool: 'x' })).toThrow(/"c" is already in flight/);
    expect(Object.keys(s.context.calls)).toEqual(['c']);
  });

  it('should refuse bad options', () => {
    expect(() => createSafetySession({ recoveryTtlMs: -1 })).toThrow('options.recoveryTtlMs');
    expect(() => createSafetySession({ failedWriteRequiresVerification: 'yes' as never })).toThrow(
      'options.failedWriteRequiresVerification',
    );
    expect(() => createSafetySession({ id: '' })).toThrow('options.id');
  });
});

describe('subscribe', () => {
  it('should call listeners after every handled call until unsubscribed', () => {
    const s = createSafetySession();
    const seen: string[] = [];
    const off = s.subscribe((session) => seen.push(session.state));
    s.onToolSuccess('read', 'logs');
    s.canExecuteTool('write', 'x');
    s.beginToolCall({ id: 'w', kind: 'write', tool: 'x' });
    s.endToolCall({ id: 'never-begun', ok: true }); // ignored, but still an event a UI follows
    off();
    s.endToolCall({ id: 'w', ok: true });
    expect(seen).toEqual(['READING', 'READING', 'WRITING', 'WRITING']);
  });
});
