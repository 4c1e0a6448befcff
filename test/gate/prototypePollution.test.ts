import { afterEach, describe, expect, it } from 'vitest';
import {
  createKindSession,
  createSafetySession,
  createToolLoop,
  KindSessionError,
  restoreSafetySession,
  SafetyInputError,
} from 'assistant-safety';
import { tallyKind, tallyMachine } from '../kind/counterMachine.js';
import { refusal } from '../core/refusal.js';

/*
 * Prototype pollution (an enumerable key on Object.prototype, say from a deep merge of attacker JSON)
 * makes every object seem to carry that key. A read of a field the caller left out (`verified` on a
 * call, `mode` in the options) would then find the attacker's value, so the gate fails closed: it
 * refuses, names the key, and works again once the key is gone.
 */

const proto = Object.prototype as Record<string, unknown>;
const added: string[] = [];

function pollute(key: string, value: unknown): void {
  Object.defineProperty(Object.prototype, key, { value, enumerable: true, configurable: true, writable: true });
  added.push(key);
}

afterEach(() => {
  for (const key of added.splice(0)) delete proto[key];
});

const polluted = (key: string) => new RegExp(`Object\\.prototype has an enumerable property "${key}"`);

describe('a polluted Object.prototype', () => {
  for (const [key, value] of [
    ['verified', true],
    ['stateOnly', true],
    ['mode', 'shadow'],
    ['somethingElse', 1],
  ] as const) {
    it(`should refuse to create or restore a session while ${key} is on it`, () => {
      const saved = JSON.stringify(createSafetySession().persist());
      pollute(key, value);
      expect(() => createSafetySession()).toThrow(SafetyInputError);
      expect(() => createSafetySession()).toThrow(polluted(key));
      expect(() => restoreSafetySession(saved)).toThrow(polluted(key));
    });
  }

  it('should refuse a write whose missing fields the prototype would fill, and decide again once it is gone', () => {
    const s = createSafetySession();
    pollute('verified', true);
    const error = refusal(SafetyInputError, () => s.beginToolCall({ id: 'w', kind: 'write', tool: 'delete_vm' }));
    expect(error.message).toMatch(polluted('verified'));
    expect(() => s.canFinalAnswer()).toThrow(polluted('verified'));
    expect(() => s.endToolCall({ id: 'w', ok: true })).toThrow(polluted('verified'));
    // Nothing was half-applied: the session is where it was.
    expect(s.state).toBe('RESOLVING');
    expect(s.context.calls).toEqual({});

    delete proto.verified;
    added.length = 0;
    expect(s.beginToolCall({ id: 'w', kind: 'write', tool: 'delete_vm' })?.reasonCode).toBe('NO_VALIDATED_TARGET');
  });

  it('should not run a tool the loop is asked to call', async () => {
    const session = createSafetySession();
    session.targetEstablished();
    const ran: string[] = [];
    const loop = createToolLoop({
      session,
      execute: async (call) => {
        ran.push(call.id);
        return 'done';
      },
      classify: () => 'write',
    });
    pollute('stateOnly', true);
    const outcomes = await loop.runBatch([{ id: 'w', name: 'restart_vm' }]).then(
      (o) => o,
      (e: unknown) => e,
    );
    expect(ran).toEqual([]);
    const text = JSON.stringify(outcomes instanceof Error ? outcomes.message : outcomes);
    expect(text).toMatch(/prototype pollution/);
  });

  it('should refuse a kind session, naming the key', () => {
    const session = createKindSession(tallyKind, tallyMachine);
    pollute('n', 5);
    expect(() => createKindSession(tallyKind, tallyMachine)).toThrow(KindSessionError);
    expect(() => createKindSession(tallyKind, tallyMachine)).toThrow(polluted('n'));
    expect(() => session.send({ type: 'ADD' })).toThrow(polluted('n'));
  });
});
