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

/**
 * Why a recording's first line cannot be opened on the kind of machine selected because it is the
 * other kind's: a Patrol run's `patrol-run` header opened with a safety machine, or a safety
 * session's entry opened with the Patrol machine. Undefined for any other line (it is simply bad).
 *
 * @example
 * wrongKindOfRecording('run.jsonl', '{"kind":"patrol-run",…}', 'safety');
 * // 'run.jsonl with a safety machine: it is a Patrol run recording (…): pick the patrol machine to open it'
 */
export function wrongKindOfRecording(name: string, firstLine: string, opening: AppMachineKind): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(firstLine);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const line = value as Record<string, unknown>;
  if (opening === 'safety' && line['kind'] === 'patrol-run') {
    return `${name} with a safety machine: it is a Patrol run recording (its first line is the "patrol-run" header): pick the patrol machine to open it`;
  }
  if (opening === 'patrol' && line['v'] === 1 && typeof line['session'] === 'string' && 'call' in line) {
    return `${name} with the Patrol machine: it is a safety session's recording (its first line is a session's entry): pick a safety machine to open it`;
  }
  return undefined;
}
