import type { SafetyContext } from '../safety/SafetyContext.js';
import { DECISION_EVENT_TYPES, type SafetyEvent } from '../safety/SafetyEvent.js';

/** The part of a machine snapshot the invariants read: its state and its context. */
export interface SafetySnapshotLike {
  value: unknown;
  context: SafetyContext;
}

/** What a decision event came to; `null` for an event that decides nothing. */
export type StepDecision = 'allowed' | 'blocked' | null;

/**
 * One step of a session: the snapshot before, the event, the snapshot after,
 * and the decision (for `CHECK_TOOL`, `BEGIN_CALL` and `CHECK_FINAL_ANSWER`).
 * Every invariant is a predicate over a step.
 */
export interface Step {
  before: SafetySnapshotLike;
  event: SafetyEvent;
  after: SafetySnapshotLike;
  decision: StepDecision;
}

/**
 * The decision of an event, as the session reads it: a decision event is
 * blocked exactly when the machine counted one more block.
 *
 * @example
 * decisionOf(before, { type: 'CHECK_FINAL_ANSWER', at: 0 }, after); // 'blocked' | 'allowed'
 */
export function decisionOf(before: SafetySnapshotLike, event: SafetyEvent, after: SafetySnapshotLike): StepDecision {
  if (!DECISION_EVENT_TYPES.includes(event.type)) return null;
  return after.context.blockCount > before.context.blockCount ? 'blocked' : 'allowed';
}

/**
 * Builds a step from two snapshots and the event between them.
 *
 * @example
 * const step = stepOf(before, { type: 'CHECK_FINAL_ANSWER', at: 0 }, after);
 * invariantById('I3')!.check(step); // null, or what went wrong
 */
export function stepOf(before: SafetySnapshotLike, event: SafetyEvent, after: SafetySnapshotLike): Step {
  return { before, event, after, decision: decisionOf(before, event, after) };
}
