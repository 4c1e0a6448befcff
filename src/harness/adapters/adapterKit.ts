import { z } from 'zod';
import type { FSMBlockedEnvelope, FSMBlockedError } from '../../safety/FSMBlockedError.js';
import type { SafetySession } from '../../safety/SafetySessionTypes.js';
// The tool loop's own wording for a refused final answer (not part of the root entry's API).
import { verificationConstraint } from '../loop/verificationConstraint.js';

const SESSION_METHODS = ['beginToolCall', 'can', 'endToolCall', 'canFinalAnswer', 'completeVerification'] as const;

/** A session as the adapters use it (from `createSafetySession` or `restoreSafetySession`). */
export const SessionLike = z.custom<SafetySession>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    SESSION_METHODS.every((m) => typeof (v as Record<string, unknown>)[m] === 'function'),
  { message: 'expected a SafetySession (from createSafetySession or restoreSafetySession)' },
);

/** A TypeError naming every bad option, e.g. `guardTools: options.classify: expected a function`. */
export function optionsError(fn: string, error: z.core.$ZodError, root = 'options'): TypeError {
  const issues = error.issues.map((i) => `${[root, ...i.path.map(String)].join('.')}: ${i.message}`);
  return new TypeError(`${fn}: ${issues.join('; ')}`);
}

/** Whether a tool output is a block envelope (`FSMBlockedError.toJSON()`). */
export function isEnvelope(value: unknown): value is FSMBlockedEnvelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { error?: unknown }).error === 'FSM_BLOCKED' &&
    typeof (value as { details?: unknown }).details === 'object'
  );
}

/**
 * The user message that shows the model why its final answer was not passed
 * on: the envelope, then what is missing.
 *
 * @example
 * const refusal = session.canFinalAnswer();
 * if (refusal) messages.push({ role: 'user', content: rePromptText(session, refusal) });
 */
export function rePromptText(session: SafetySession, refusal: FSMBlockedError): string {
  return `${JSON.stringify(refusal.toJSON())}\n${verificationConstraint(session, refusal)}`;
}
