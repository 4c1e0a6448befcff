import definition from '../../machines/patrol.json' with { type: 'json' };
import { createPatrolMachine } from './createPatrolMachine.js';

/** The definition of the shipped Patrol machine (`machines/patrol.json`). */
export const patrolMachineDefinition = definition;

/**
 * The shipped Patrol run machine: `machines/patrol.json` bound to the Patrol
 * kind's guards and actions.
 *
 * @example
 * import { createActor } from 'xstate';
 * createActor(patrolMachine).start().getSnapshot().value; // 'idle'
 */
export const patrolMachine = createPatrolMachine(definition);
