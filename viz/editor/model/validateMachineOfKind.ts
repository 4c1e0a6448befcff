import { MachineDefinitionError, safeParseMachineDefinition } from 'assistant-safety';
import type { MachineDefinition, MachineIssue } from 'assistant-safety';
import { parsePatrolMachineDefinition } from 'assistant-safety/patrol';
import type { AppMachineKind } from '../../model/machineKindOf.js';

/**
 * Validates a machine JSON with its kind's schema and registries: the safety
 * machine's guards and actions, or the Patrol kind's. Problems are data.
 *
 * @example
 * const v = validateMachineOfKind(json, 'patrol');
 * if (!v.success) show(v.issues);
 */
export function validateMachineOfKind(
  json: unknown,
  kind: AppMachineKind,
): { success: true; data: MachineDefinition } | { success: false; issues: MachineIssue[] } {
  if (kind === 'safety') {
    const parsed = safeParseMachineDefinition(json);
    return parsed.success ? parsed : { success: false, issues: parsed.error.issues };
  }
  try {
    return { success: true, data: parsePatrolMachineDefinition(json) };
  } catch (e) {
    if (e instanceof MachineDefinitionError) return { success: false, issues: e.issues };
    throw e;
  }
}
