import { readFileSync } from 'node:fs';
import { createSafetyMachine, type SafetyMachine } from '../createSafetyMachine.js';
import { MachineDefinitionError } from '../MachineDefinition.js';
import type { CliIO } from './Command.js';

/** Reads and validates a machine JSON file; prints a clear message and returns null when it is bad. */
export function loadMachineFile(path: string, io: CliIO): SafetyMachine | null {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    io.err(`${path}: ${(e as Error).message}`);
    return null;
  }
  try {
    return createSafetyMachine(json);
  } catch (e) {
    if (e instanceof MachineDefinitionError) {
      io.err(`${path}: ${e.message}`);
      return null;
    }
    throw e;
  }
}
