import { MachineDefinitionError, type MachineDefinition, type MachineIssue } from '../core/MachineDefinition.js';
import { safeParseMachineDefinition } from '../safety/safetyMachineDefinition.js';
import { parsePatrolMachineDefinition } from '../patrol/createPatrolMachine.js';

/** A Patrol run machine's file name (without `.json`): `patrol`, `patrol-…`, `patrol_…`. */
const PATROL_NAME = /^patrol([-_].*)?$/;

/**
 * Validates the definition of machine file `name` (without `.json`) with its
 * kind's registries: a Patrol run machine (`patrol.json`, `patrol-….json`)
 * against the Patrol kind's guards, actions and events, any other against
 * the safety machine's.
 *
 * @example
 * const v = validateMachineFile('patrol', json);
 * if (!v.success) throw new MachineFileError('INVALID_MACHINE', v.message, v.issues);
 */
export function validateMachineFile(
  name: string,
  json: unknown,
): { success: true; data: MachineDefinition } | { success: false; message: string; issues: MachineIssue[] } {
  if (!PATROL_NAME.test(name)) {
    const parsed = safeParseMachineDefinition(json);
    return parsed.success
      ? { success: true, data: parsed.data }
      : { success: false, message: parsed.error.message, issues: parsed.error.issues };
  }
  try {
    return { success: true, data: parsePatrolMachineDefinition(json) };
  } catch (e) {
    if (e instanceof MachineDefinitionError) return { success: false, message: e.message, issues: e.issues };
    throw e;
  }
}
