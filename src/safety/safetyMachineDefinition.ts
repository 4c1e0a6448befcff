import type { AnyMachineKind } from '../core/MachineKind.js';
import {
  parseMachineDefinitionOfKind,
  safeParseMachineDefinitionOfKind,
  type MachineDefinition,
  type MachineDefinitionResult,
} from '../core/MachineDefinition.js';
import { safetyMachineKind } from './safetyMachineKind.js';

/*
 * The loader as the root entry offers it: the safety machine's kind unless another is given.
 * The generic loader (MachineDefinition.ts) has no default, so it never imports a kind.
 */

/**
 * Validates a machine definition (parsed JSON) against the schema and against the guard, action
 * and event registries of its kind (the safety machine's by default), without throwing.
 *
 * @example
 * const result = safeParseMachineDefinition(JSON.parse(text));
 * if (!result.success) console.error(result.error.message);
 */
export function safeParseMachineDefinition(
  input: unknown,
  kind: AnyMachineKind = safetyMachineKind,
): MachineDefinitionResult {
  return safeParseMachineDefinitionOfKind(input, kind);
}

/**
 * Like {@link safeParseMachineDefinition}, but throws a `MachineDefinitionError`.
 *
 * @example
 * const definition = parseMachineDefinition(JSON.parse(readFileSync('machines/assistant-safety.json', 'utf8')));
 * const machine = createSafetyMachine(definition);
 */
export function parseMachineDefinition(input: unknown, kind: AnyMachineKind = safetyMachineKind): MachineDefinition {
  return parseMachineDefinitionOfKind(input, kind);
}
