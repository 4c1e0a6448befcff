import type { MachineDefinition } from 'assistant-safety';
import type { AppMachineKind } from '../../model/machineKindOf.js';
import type { MachineCheck } from './checkMachine.js';
import type { DecisionChange } from './decisionChanges.js';

/*
 * The messages between the page and the editor's web worker (structured
 * clone: plain data only).
 */

/** A recording to replay against an edited machine. */
export interface RecordingText {
  name: string;
  text: string;
}

/** What one recording's decisions become under the edited machine. */
export interface RecordingImpact {
  name: string;
  entries: number;
  changes: DecisionChange[];
  /** The recording could not be read. */
  error?: string;
}

export type WorkerRequest =
  | { type: 'check'; definition: unknown; kind?: AppMachineKind }
  | { type: 'replay'; definition: MachineDefinition; recordings: RecordingText[] };

export type WorkerResponse =
  | { type: 'check'; check: MachineCheck }
  | { type: 'replay'; impacts: RecordingImpact[] }
  | { type: 'error'; message: string };
