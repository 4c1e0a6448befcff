import type { SafetyMachine } from '../safety/createSafetyMachine.js';
import type { SafetyConfig } from '../safety/SafetyContext.js';
import { createSafetySession } from '../safety/SafetySession.js';
import { describeStep } from './describeStep.js';
import type { GraphEdge } from './exploreMachine.js';
import { invariants as allInvariants, type Invariant } from './invariants.js';
import { moveLabel, movesFrom, type MoveOptions } from './Move.js';
import { observeMove, sessionOptionsOf } from './runPlan.js';

/** One command of a random walk: which of the moves possible now, and how long after the last one. */
export interface WalkCommand {
  /** Index into the moves possible now, modulo their number. */
  pick: number;
  /** Milliseconds the clock moves before the call. */
  gap: number;
}

export interface WalkResult {
  ok: boolean;
  /** The steps taken, as sentences. */
  story: string[];
  /** The first broken invariant, at `index` (0-based step). */
  violation?: { index: number; invariant: Invariant; message: string };
}

/**
 * Drives a real session through a sequence of commands, checking every
 * invariant on every step (the invariants as a monitor). Stops at the first
 * violation.
 *
 * @example
 * const result = monitorWalk([{ pick: 3, gap: 0 }, { pick: 7, gap: 1000 }], { config: DEFAULT_CONFIG });
 */
export function monitorWalk(
  commands: WalkCommand[],
  options: { config: SafetyConfig; machine?: SafetyMachine; invariants?: readonly Invariant[]; moves?: MoveOptions },
): WalkResult {
  let now = 1_700_000_000_000;
  const session = createSafetySession({
    id: 'random-walk',
    now: () => now,
    ...sessionOptionsOf(options.config),
    // A walk that only ever writes is not a misconfigured agent: no warning on the console.
    onWarning: () => {},
    ...(options.machine && { machine: options.machine }),
  });
  const invariants = options.invariants ?? allInvariants;
  const story: string[] = [];
  for (let index = 0; index < commands.length; index++) {
    const { pick, gap } = commands[index]!;
    now += gap;
    const moves = movesFrom(session.context, options.moves ?? { maxCallsInFlight: 4, maxCallsPerKind: 3 });
    const move = moves[pick % moves.length]!;
    const observed = observeMove(session, move, now, options.machine);
    const { step } = observed;
    story.push(
      `${index + 1}. ${describeStep({
        label: moveLabel(move),
        move,
        before: step.before,
        after: step.after,
        decision: step.decision,
        ...((observed.actual.reasonCode ?? observed.actual.wouldBlock) !== undefined && {
          reasonCode: observed.actual.reasonCode ?? observed.actual.wouldBlock,
        }),
        ...(observed.steps.length > 1 && { ungated: {} }),
      } as GraphEdge)}${gap ? ` (+${gap} ms)` : ''}`,
    );
    for (const invariant of invariants) {
      for (const machineStep of observed.steps) {
        const message = invariant.check(machineStep);
        if (message !== null) return { ok: false, story, violation: { index, invariant, message } };
      }
    }
  }
  return { ok: true, story };
}
