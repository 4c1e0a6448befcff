import { createActor } from 'xstate';
import type { PatrolMachine } from './createPatrolMachine.js';
import { patrolMachine } from './patrolMachine.js';
import { projectPatrolSnapshot, type PatrolProjection } from './patrolMachineKind.js';
import type { PatrolStep } from './runPatrolTypes.js';

/** A step whose replay did not give the recorded projection. */
export interface PatrolDivergence {
  step: number;
  event: string;
  recorded: PatrolProjection;
  replayed: PatrolProjection;
}

/**
 * Replays a recorded run (the steps `runPatrol` reported through `onStep`, or
 * returned) on a fresh actor of a Patrol machine, comparing each step's
 * projection with the recorded one: what a viewer or a CI check needs to tell
 * whether an edited machine still takes a recorded run the same way.
 *
 * @example
 * const { divergences } = replayPatrolSteps(result.steps); // [] on the machine that ran it
 */
export function replayPatrolSteps(
  steps: readonly PatrolStep[],
  machine: PatrolMachine = patrolMachine,
): { final: PatrolProjection; divergences: PatrolDivergence[] } {
  const actor = createActor(machine).start();
  const divergences: PatrolDivergence[] = [];
  steps.forEach((step, i) => {
    actor.send(step.event);
    const replayed = projectPatrolSnapshot(actor.getSnapshot());
    if (JSON.stringify(replayed) !== JSON.stringify(step.after))
      divergences.push({ step: i, event: step.event.type, recorded: step.after, replayed });
  });
  return { final: projectPatrolSnapshot(actor.getSnapshot()), divergences };
}
