import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createSafetySession,
  restoreSafetySession,
  SafetyInputError,
  type SafetySessionOptions,
} from 'assistant-safety';
import { EXPLORED_CONFIGS } from 'assistant-safety/testing';
import type { SafetyConfig } from '../../src/safety/SafetyContext.js';
import { sessionOptionsOf } from '../../src/testing/runPlan.js';

/*
 * A session's settings are the machine's config: one option per setting of the config's schema,
 * named and typed as the setting is. A setting added to the schema fails type-checking here until
 * the options have it, and a session records exactly the config its options say.
 */

describe('session options and the machine config', () => {
  it('should have an option of the same name and type for every setting of the config', () => {
    expectTypeOf<Required<SafetyConfig>>().toMatchTypeOf<Required<Pick<SafetySessionOptions, keyof SafetyConfig>>>();
  });

  it('should give a session the config its options name, for every explored config', () => {
    for (const config of EXPLORED_CONFIGS) {
      expect(createSafetySession(sessionOptionsOf(config)).context.config).toEqual(config);
    }
  });

  it('should leave a setting out of the recorded config at its default, and name a bad one', () => {
    const session = createSafetySession({ targets: 'ignore', mode: 'enforce', profile: 'interactive' });
    expect(Object.keys(session.context.config).sort()).toEqual(['failedWriteRequiresVerification', 'recoveryTtlMs']);
    expect(() => createSafetySession({ mode: 'loud' as never })).toThrow(SafetyInputError);
    expect(() => createSafetySession({ mode: 'loud' as never })).toThrow(/^options\.mode: /);
  });

  it('should refuse a recorder, callback or machine it could only find wrong on its first call, naming the option', () => {
    const cases: [object, string][] = [
      [{ recorder: {} }, 'options.recorder: expected a recorder, an object with a record(entry) function'],
      [{ recorder: { record: 1 } }, 'options.recorder: expected a recorder'],
      [{ onWarning: 5 }, 'options.onWarning: expected a function, got number'],
      [{ onRecorderError: 'log' }, 'options.onRecorderError: expected a function, got "log"'],
      [{ onListenerError: null }, 'options.onListenerError: expected a function, got null'],
      [
        { machine: {} },
        'options.machine: expected a machine (safetyMachine, or createSafetyMachine(definition)), got object',
      ],
    ];
    // Before, `recorder: {}` was taken, and every call printed "recorder failed" on the console.
    for (const [options, message] of cases) {
      expect(() => createSafetySession(options as never)).toThrow(SafetyInputError);
      expect(() => createSafetySession(options as never)).toThrow(message);
      expect(() => restoreSafetySession(createSafetySession().persist(), options as never)).toThrow(message);
    }
    const entries: unknown[] = [];
    const s = createSafetySession({ recorder: { record: (e) => entries.push(e) }, onWarning: () => undefined });
    s.beginToolCall({ id: 'r', kind: 'read', tool: 'get_vm' });
    expect(entries.length).toBeGreaterThan(0);
  });
});
