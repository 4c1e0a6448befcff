import type { KindStep, MachineKindTesting } from '../testing/index.js';
import { patrolExploration } from './explorePatrolMachine.js';
import { patrolMachineKind, type PatrolContext, type PatrolEvent } from './patrolMachineKind.js';
import { PATROL_INVARIANTS } from './patrolInvariants.js';
import { PATROL_PROTOCOL_INVARIANTS } from './patrolProtocolInvariants.js';

/**
 * The Patrol kind's testing data for the generic walkers (explorer, invariant checker, path
 * generator, mutants, `assistant-safety check|paths|mutate machines/patrol.json`): its event
 * classes and its invariants: the four rules of a run (P1 to P4) and its protocol (P5, P6).
 *
 * @example
 * runMutants(patrolMachineDefinition, { testing: patrolKindTesting }).survived; // 0
 */
export const patrolKindTesting: MachineKindTesting<
  PatrolContext,
  PatrolEvent,
  PatrolEvent,
  undefined,
  KindStep<PatrolContext, PatrolEvent>
> = {
  kind: patrolMachineKind,
  machineIds: ['patrol'],
  exploration: patrolExploration,
  step: (s) => s,
  invariants: [...PATROL_INVARIANTS, ...PATROL_PROTOCOL_INVARIANTS],
};
