import { SAFETY_EVENT_TYPES } from 'assistant-safety';
import { PATROL_EVENT_TYPES } from 'assistant-safety/patrol';
import type { AppMachineKind } from '../../model/machineKindOf.js';

/**
 * The events a machine of this kind may handle: what the editor's event
 * pickers offer.
 *
 * @example
 * eventTypesOf('patrol').includes('RECONCILED'); // true
 */
export function eventTypesOf(kind: AppMachineKind): readonly string[] {
  return kind === 'patrol' ? PATROL_EVENT_TYPES : SAFETY_EVENT_TYPES;
}
