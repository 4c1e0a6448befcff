import { describe, expect, expectTypeOf, it } from 'vitest';
import { createSafetySession, SafetyInputError, type SafetySessionOptions } from 'assistant-safety';
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
});
