import { parseRecording } from 'assistant-safety';
import { checkMachine } from './checkMachine.js';
import { checkPatrolMachine } from './checkPatrolMachine.js';
import { decisionChanges } from './decisionChanges.js';
import type { RecordingImpact, WorkerRequest, WorkerResponse } from './WorkerMessages.js';

/**
 * What the editor's worker does with one request: check a machine, or
 * replay recordings against it. Pure (no worker API), so it also runs inline
 * where there is no Worker (tests).
 *
 * @example
 * runWorkerRequest({ type: 'check', definition }); // { type: 'check', check: { ok: true, report } }
 */
export function runWorkerRequest(request: WorkerRequest): WorkerResponse {
  try {
    if (request.type === 'check')
      return {
        type: 'check',
        check: request.kind === 'patrol' ? checkPatrolMachine(request.definition) : checkMachine(request.definition),
      };
    const impacts: RecordingImpact[] = request.recordings.map(({ name, text }) => {
      try {
        const entries = parseRecording(text, { allowTornTail: true });
        return { name, entries: entries.length, changes: decisionChanges(entries, request.definition) };
      } catch (e) {
        return { name, entries: 0, changes: [], error: (e as Error).message };
      }
    });
    return { type: 'replay', impacts };
  } catch (e) {
    return { type: 'error', message: (e as Error).message };
  }
}
