import definition from '../../machines/assistant-safety.json' with { type: 'json' };
import { createSafetyMachine } from './createSafetyMachine.js';

/** The validated definition of the shipped machine (`machines/assistant-safety.json`). */
export const safetyMachineDefinition = definition;

/**
 * The shipped safety statechart: `machines/assistant-safety.json` bound to the
 * guards and actions of `src/` with XState's `setup()`.
 *
 * @example
 * import { createActor } from 'xstate';
 * const actor = createActor(safetyMachine).start();
 * actor.getSnapshot().value; // 'RESOLVING'
 */
export const safetyMachine = createSafetyMachine(definition);
