import type { SafetyMachineInput } from '../safety/createSafetyMachine.js';
import type { SafetyContext } from '../safety/SafetyContext.js';
import type { SafetyEvent } from '../safety/SafetyEvent.js';
import { safetyMachineKind } from '../safety/safetyMachineKind.js';
import { EQUIVALENT_MUTANTS } from './equivalentMutants.js';
import { safetyExploration, type ExploreOptions } from './exploreMachine.js';
import { invariants as allInvariants, type Invariant } from './invariants.js';
import type { KindInvariant, MachineKindTesting } from './MachineKindTesting.js';
import type { Move } from './Move.js';
import { stepOf, type SafetySnapshotLike, type Step } from './Step.js';

/**
 * The safety invariants as a kind's invariants: step rules over a {@link Step}.
 *
 * @example
 * asKindInvariants(invariants)[0].checkStep!(step); // null, or what went wrong
 */
export function asKindInvariants(list: readonly Invariant[]): KindInvariant<Step>[] {
  return list.map((i) => ({ id: i.id, name: i.name, sentence: i.sentence, checkStep: (step: Step) => i.check(step) }));
}

/**
 * The safety machine's testing data for the generic walkers: its moves as event classes, its
 * invariants (I1...), its equivalent mutants. Options narrow the exploration or the invariants.
 *
 * @example
 * const report = runMutants(safetyMachineDefinition, { testing: safetyKindTesting() });
 */
export function safetyKindTesting(
  explore: ExploreOptions = {},
  invariants: readonly Invariant[] = allInvariants,
): MachineKindTesting<SafetyContext, SafetyEvent, Move, SafetyMachineInput, Step> {
  return {
    kind: safetyMachineKind,
    machineIds: ['assistant-safety'],
    exploration: () => safetyExploration(explore),
    step: (s) => stepOf(s.before as SafetySnapshotLike, s.event, s.after as SafetySnapshotLike),
    invariants: asKindInvariants(invariants),
    equivalentMutants: EQUIVALENT_MUTANTS,
  };
}
