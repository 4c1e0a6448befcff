import { describe, expect, it } from 'vitest';
import {
  createKindSession,
  createSafetySession,
  KindSessionError,
  restoreKindSession,
  restoreSafetySession,
  SafetyInputError,
} from 'assistant-safety';
import { tallyKind, tallyMachine } from '../kind/counterMachine.js';
import { refusal } from '../core/refusal.js';

/*
 * A field or option the session does not have is refused and named, with the one it looks like: a
 * misspelt `targets` would leave a write unbound, a misspelt `trust` would let open-world output
 * validate targets, a misspelt `mode` would give another gate than the one asked for. Nothing is
 * applied or recorded when a call is refused.
 */

const refused = (run: () => unknown) => refusal(SafetyInputError, run);

describe('misspelt fields and options', () => {
  it('should refuse a write whose targets are misspelt, and leave the session as it was', () => {
    const s = createSafetySession({ targets: 'bind' });
    s.targetEstablished({ targets: ['vm:1'] });
    const before = JSON.stringify(s.persist());
    const e = refused(() => s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm', targts: ['vm:2'] } as never));
    expect(e.path).toBe('beginToolCall: call.targts');
    expect(e.message).toBe('beginToolCall: call.targts: unknown field (did you mean targets?)');
    expect(JSON.stringify(s.persist())).toBe(before);
    // Spelt right, the same write is bound and refused for its unvalidated target.
    expect(s.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm', targets: ['vm:2'] })?.reasonCode).toBe(
      'TARGET_NOT_VALIDATED',
    );
  });

  it('should refuse an untrusted read marked with a field the session does not have', () => {
    const s = createSafetySession({ targets: 'bind' });
    const e = refused(() => s.beginToolCall({ id: 'r', kind: 'read', tool: 'read_inbox', untrusted: true } as never));
    expect(e.message).toBe("beginToolCall: call.untrusted: unknown field (did you mean trust: 'untrusted'?)");
    expect(s.context.calls).toEqual({});
  });

  it('should name the field it looks like in every method that takes an object', () => {
    const s = createSafetySession();
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'get_vm' });
    expect(refused(() => s.endToolCall({ id: 'r', ok: true, verfied: true } as never)).message).toBe(
      'endToolCall: result.verfied: unknown field (did you mean verified?)',
    );
    expect(refused(() => s.targetEstablished({ target: ['vm:1'] } as never)).message).toBe(
      'targetEstablished: options.target: unknown field (did you mean targets?)',
    );
    expect(refused(() => s.userMessage('restart vm-1', { sorce: 'system' } as never)).message).toBe(
      'userMessage: options.sorce: unknown field (did you mean source?)',
    );
    expect(
      refused(() =>
        s.recordLoopBlock({ id: 'x', kind: 'write', tool: 't', code: 'LOOP_DETECTED', reason: 'x' } as never),
      ).message,
    ).toBe('recordLoopBlock: block.reason: unknown field');
    // The read is still in flight, nothing else changed.
    expect(s.state).toBe('RESOLVING');
    expect(Object.keys(s.context.calls)).toEqual(['r']);
  });

  it('should refuse a misspelt session option when creating and when restoring', () => {
    expect(refused(() => createSafetySession({ modee: 'shadow' } as never)).message).toBe(
      'options.modee: unknown field (did you mean mode?)',
    );
    const saved = JSON.stringify(createSafetySession().persist());
    expect(refused(() => restoreSafetySession(saved, { nw: () => 0 } as never)).message).toBe(
      'options.nw: unknown field (did you mean now?)',
    );
    expect(refused(() => createSafetySession({ retryBudget: 3 } as never)).message).toBe(
      'options.retryBudget: unknown field',
    );
  });

  it('should refuse a call whose fields throw when read, with the session error', () => {
    const s = createSafetySession();
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    expect(refused(() => s.beginToolCall(hostile as never)).message).toBe(
      'beginToolCall: call: could not be read (a getter or Proxy threw)',
    );
    expect(refused(() => s.endToolCall(hostile as never)).message).toBe(
      'endToolCall: result: could not be read (a getter or Proxy threw)',
    );
    expect(s.state).toBe('RESOLVING');
  });

  it('should refuse a misspelt kind session option, with the issue as data', () => {
    const saved = createKindSession(tallyKind, tallyMachine).persist();
    for (const run of [
      () => createKindSession(tallyKind, tallyMachine, undefined, { recoder: { record() {} } } as never),
      () => restoreKindSession(tallyKind, tallyMachine, saved, { recoder: { record() {} } } as never),
    ]) {
      const error = refusal(KindSessionError, run);
      expect(error.message).toBe('options.recoder: unknown field (did you mean recorder?)');
      expect(error.issues).toEqual([
        {
          code: 'unrecognized_keys',
          path: ['options', 'recoder'],
          message: 'unknown field (did you mean recorder?)',
        },
      ]);
    }
  });
});
