import { setup, type AnyStateMachine } from 'xstate';
import { createMachineOfKind, definitionOf, parseMachineDefinition, type MachineDefinition } from '../index.js';
import { initialPatrolContext, patrolMachineKind, type PatrolContext, type PatrolEvent } from './patrolMachineKind.js';

/**
 * Validates a Patrol machine definition (parsed JSON): the shape every
 * machine file shares, then the names and params against the Patrol kind
 * (the generic loader given {@link patrolMachineKind}).
 *
 * @throws {MachineDefinitionError} listing every problem, each with its path.
 * @example
 * const def = parsePatrolMachineDefinition(JSON.parse(text));
 */
export function parsePatrolMachineDefinition(json: unknown): MachineDefinition {
  return parseMachineDefinition(json, patrolMachineKind);
}

/** Never called: gives the machine its static type (states are data, known only at run time). */
function typedSkeleton() {
  return setup({ types: { context: {} as PatrolContext, events: {} as PatrolEvent } }).createMachine({
    context: initialPatrolContext,
    initial: 'idle',
    states: { idle: {} },
  });
}

/** The type of every machine built by {@link createPatrolMachine}. */
export type PatrolMachine = ReturnType<typeof typedSkeleton>;

/**
 * Builds the XState machine of a Patrol run from its JSON (a
 * `machines/patrol.json` or an edited copy): the generic builder
 * (`createMachineOfKind`) given {@link patrolMachineKind}.
 *
 * @throws {MachineDefinitionError} for a malformed definition.
 * @example
 * const machine = createPatrolMachine(JSON.parse(readFileSync('machines/patrol.json', 'utf8')));
 */
export function createPatrolMachine(json: unknown): PatrolMachine {
  return createMachineOfKind(patrolMachineKind, json) as unknown as PatrolMachine;
}

/**
 * The definition a Patrol machine was built from.
 *
 * @example
 * patrolDefinitionOf(patrolMachine)?.initial; // 'idle'
 */
export function patrolDefinitionOf(machine: AnyStateMachine): MachineDefinition | undefined {
  return definitionOf(machine);
}
