import { setup } from 'xstate';
import { createMachineOfKind } from '../core/createMachineOfKind.js';
import { DEFAULT_CONFIG, initialContext, type SafetyContext } from './SafetyContext.js';
import type { SafetyEvent } from './SafetyEvent.js';
import { safetyMachineKind, type SafetyMachineInput } from './safetyMachineKind.js';

export { definitionOf } from '../core/createMachineOfKind.js';

export type { SafetyMachineInput } from './safetyMachineKind.js';

/** Never called: gives the machine its static type (states are data, known only at run time). */
function typedSkeleton() {
  return setup({
    types: { context: {} as SafetyContext, events: {} as SafetyEvent, input: {} as SafetyMachineInput },
  }).createMachine({
    context: ({ input }) => initialContext(input?.config ?? DEFAULT_CONFIG),
    initial: 'RESOLVING',
    states: { RESOLVING: {}, READING: {}, WRITING: {}, VERIFYING: {} },
  });
}

/** The type of every machine built by {@link createSafetyMachine}. */
export type SafetyMachine = ReturnType<typeof typedSkeleton>;

/**
 * Builds the XState machine from a machine definition (the parsed JSON of
 * `machines/*.json`), after validating it against the schema and the guard
 * and action registries: the safety machine's kind given to {@link createMachineOfKind}.
 *
 * @throws {MachineDefinitionError} naming the path and the problem of each issue.
 * @example
 * const machine = createSafetyMachine(JSON.parse(readFileSync('machines/assistant-safety.json', 'utf8')));
 * const session = createSafetySession({ machine });
 */
export function createSafetyMachine(json: unknown): SafetyMachine {
  return createMachineOfKind(safetyMachineKind, json) as unknown as SafetyMachine;
}
