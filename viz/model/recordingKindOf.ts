import type { AppMachineKind } from './machineKindOf.js';

/**
 * The kind of machine a recording of the server's folder was made on: a
 * Patrol run's recording is named `*.patrol.jsonl`, every other `.jsonl` is a
 * safety session's.
 *
 * @example
 * recordingKindOf('patrol-demo.patrol.jsonl'); // 'patrol'
 */
export function recordingKindOf(name: string): AppMachineKind {
  return name.endsWith('.patrol.jsonl') ? 'patrol' : 'safety';
}
