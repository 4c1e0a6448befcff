import { describe, expect, it } from 'vitest';
import { createSafetySession, safetyMachine, SafetyInputError } from 'assistant-safety';

/*
 * The compiled decision table is built from the machine's JSON and the kind's named
 * implementations. A machine changed with XState's `.provide()` carries functions the table
 * cannot read: it runs on XState, and the session says so (once per machine), or refuses when
 * the compiled table was asked for by name.
 */

const clock = () => 1_700_000_000_000;
/** The suite also runs with XState as every session's default executor: there is nothing to say then. */
const told = process.env['ASSISTANT_SAFETY_EXECUTOR'] === 'xstate' ? 0 : 1;

describe('a machine changed with .provide()', () => {
  it('should run on XState and say why, once per machine', () => {
    const provided = safetyMachine.provide({});
    const warnings: string[] = [];
    const sessions = [0, 1].map(() =>
      createSafetySession({ machine: provided, now: clock, onWarning: (m) => warnings.push(m) }),
    );
    expect(warnings).toHaveLength(told);
    if (told) expect(warnings[0]).toMatch(/changed with \.provide\(\).*runs on XState instead/);
    // It decides as the default machine does.
    const plain = createSafetySession({ now: clock, onWarning: (m) => warnings.push(m) });
    for (const session of [...sessions, plain]) {
      expect(session.beginToolCall({ id: 'w', kind: 'write', tool: 'restart_vm' })?.reasonCode).toBe(
        'NO_VALIDATED_TARGET',
      );
    }
    expect(warnings).toHaveLength(told);
  });

  it('should be refused when the compiled table is asked for by name, naming the option', () => {
    const provided = safetyMachine.provide({});
    expect(() => createSafetySession({ machine: provided, executor: 'compiled' })).toThrow(SafetyInputError);
    expect(() => createSafetySession({ machine: provided, executor: 'compiled' })).toThrow(
      /^options\.executor: "compiled" cannot run this machine: the machine was changed with \.provide\(\)/,
    );
    expect(() => createSafetySession({ machine: provided, executor: 'xstate', onWarning: () => {} })).not.toThrow();
  });
});
