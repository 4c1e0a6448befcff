import { useCallback, useEffect, useRef, useState } from 'react';
import { RecordingList } from 'assistant-safety/live';
import type { MachineDefinition } from 'assistant-safety';
import { recordingKindOf } from '../../model/recordingKindOf.js';
import { apiFetch } from '../../model/api.js';
import type { RecordingImpact, RecordingText } from '../model/WorkerMessages.js';
import { startWorkerJob, type WorkerJob } from '../startWorkerJob.js';

/** Recordings larger than this are left out of the replay (the page downloads each one). */
const MAX_RECORDING_BYTES = 5_000_000;

/**
 * Replays the server's recordings against an edited machine (in a web worker)
 * on demand: which recorded decisions the edit would change. The answer is
 * dropped when the machine changes again.
 */
export function useReplayImpact(definition: MachineDefinition | undefined): {
  run(): void;
  running: boolean;
  impacts?: RecordingImpact[];
  skipped: string[];
  error?: string;
} {
  const [state, setState] = useState<{
    for?: unknown;
    running: boolean;
    impacts?: RecordingImpact[];
    skipped: string[];
    error?: string;
  }>({ running: false, skipped: [] });
  const job = useRef<WorkerJob | undefined>(undefined);
  useEffect(() => () => job.current?.cancel(), []);
  const run = useCallback(() => {
    if (!definition) return;
    job.current?.cancel();
    setState({ for: definition, running: true, skipped: [] });
    (async () => {
      const list = RecordingList.parse(await (await apiFetch('/api/recordings')).json());
      // Sessions' recordings only: a Patrol run's recording is replayed on a Patrol machine, not here.
      const sessions = list.recordings.filter((r) => recordingKindOf(r.name) === 'safety');
      const small = sessions.filter((r) => r.size <= MAX_RECORDING_BYTES);
      const skipped = sessions.filter((r) => r.size > MAX_RECORDING_BYTES).map((r) => r.name);
      const recordings: RecordingText[] = [];
      for (const r of small) {
        recordings.push({
          name: r.name,
          text: await (await apiFetch(`/api/recordings/${encodeURIComponent(r.name)}`)).text(),
        });
      }
      job.current = startWorkerJob({ type: 'replay', definition, recordings });
      const answer = await job.current.result;
      if (answer.type === 'replay') setState({ for: definition, running: false, impacts: answer.impacts, skipped });
      else
        setState({ for: definition, running: false, skipped, error: answer.type === 'error' ? answer.message : '?' });
    })().catch((e: unknown) => setState({ for: definition, running: false, skipped: [], error: (e as Error).message }));
  }, [definition]);
  const current = state.for === definition;
  return {
    run,
    running: current && state.running,
    skipped: current ? state.skipped : [],
    ...(current && state.impacts && { impacts: state.impacts }),
    ...(current && state.error && { error: state.error }),
  };
}
