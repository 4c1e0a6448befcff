import type { RecordedCall } from '../safety/RecordingEntry.js';
import type { CallOutcome, SafetySession } from '../safety/SafetySessionTypes.js';

export type { CallOutcome };

/**
 * Performs one recorded call on a session: the one place that maps a
 * recording's call vocabulary onto the session API (replays, playgrounds,
 * the model-based path tests). The session decides the outcome once and hands
 * the same one to its recorder, so a replay compares like with like.
 *
 * @example
 * applyCall(session, { type: 'beginToolCall', id: 'c1', kind: 'write', tool: 'restart_vm' });
 * // { decision: 'blocked', reasonCode: 'NO_VALIDATED_TARGET', blocked: FSMBlockedError } in RESOLVING
 */
export function applyCall(session: SafetySession, call: RecordedCall): CallOutcome {
  return session.perform(call);
}
