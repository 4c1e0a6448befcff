import { readFileSync } from 'node:fs';
import type { AnyStateMachine } from 'xstate';
import { createMachineOfKind, definitionOf } from '../core/createMachineOfKind.js';
import { createSafetyMachine, type SafetyMachine } from '../safety/createSafetyMachine.js';
import { MachineDefinitionError, type MachineDefinition } from '../core/MachineDefinition.js';
import { patrolKindTesting } from '../patrol/patrolKindTesting.js';
import type { AnyMachineKindTesting } from '../testing/MachineKindTesting.js';
import { safetyKindTesting } from '../testing/safetyKindTesting.js';
import { UsageError, type CliIO } from './Command.js';
import { jsonSyntaxError } from '../node/jsonSyntaxError.js';

/** Reads and validates a machine JSON file; prints a clear message and returns null when it is bad. */
export function loadMachineFile(path: string, io: CliIO): SafetyMachine | null {
  const json = readJson(path, io);
  if (json === undefined) return null;
  // A machine of another kind would fail on every guard and event name: say what it is instead.
  const other = kindNameOf(json);
  if (other !== 'safety') {
    io.err(
      `${path}: a ${other} machine (its id says so); this command takes safety machines only (check, paths, mutate and export take either)`,
    );
    return null;
  }
  return build(path, io, () => createSafetyMachine(json));
}

/** The kind whose machine ids hold the file's `id`; safety for any other id. */
function kindNameOf(json: unknown): string {
  const id = typeof json === 'object' && json !== null ? (json as { id?: unknown }).id : undefined;
  return Object.keys(MACHINE_KINDS).find((name) => MACHINE_KINDS[name]!.machineIds.includes(String(id))) ?? 'safety';
}

function readJson(path: string, io: CliIO): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    io.err(`${path}: ${(e as Error).message}`);
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    io.err(`${path}: ${jsonSyntaxError(text, e)}`);
    return undefined;
  }
}

function build<T>(path: string, io: CliIO, make: () => T): T | null {
  try {
    return make();
  } catch (e) {
    if (e instanceof MachineDefinitionError) {
      io.err(`${path}: ${e.message}`);
      return null;
    }
    throw e;
  }
}

/** The machine kinds `check`, `paths` and `mutate` know, by `--kind` name. */
const MACHINE_KINDS: Readonly<Record<string, AnyMachineKindTesting>> = {
  safety: safetyKindTesting(),
  patrol: patrolKindTesting,
};

/** The usage text's paragraph on choosing the kind. */
export const KIND_USAGE = `The machine's kind (its guards, actions, events and invariants) is chosen
from the file's "id" (${Object.entries(MACHINE_KINDS)
  .map(([name, t]) => `"${t.machineIds.join('", "')}": ${name}`)
  .join(', ')}); a file with
another id is read as a safety machine unless --kind safety|patrol says otherwise.`;

/** A machine file loaded with its kind. */
export interface KindMachineFile {
  kindName: string;
  testing: AnyMachineKindTesting;
  machine: AnyStateMachine;
  definition: MachineDefinition;
}

/**
 * Reads a machine file of any known kind: `--kind` when given, else the kind whose machine ids
 * hold the file's `id`, else the safety machine. Prints a clear message and returns null when
 * the file is bad.
 */
export function loadKindMachineFile(path: string, io: CliIO, kind: string | undefined): KindMachineFile | null {
  if (kind !== undefined && !Object.hasOwn(MACHINE_KINDS, kind))
    throw new UsageError(`--kind must be ${Object.keys(MACHINE_KINDS).join(' or ')}, got "${kind}"`);
  const json = readJson(path, io);
  if (json === undefined) return null;
  const kindName = kind ?? kindNameOf(json);
  const testing = MACHINE_KINDS[kindName]!;
  const machine = build(path, io, () => createMachineOfKind(testing.kind, json));
  return machine && { kindName, testing, machine, definition: definitionOf(machine)! };
}
