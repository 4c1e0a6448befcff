import { useCallback, useMemo, useRef, useState } from 'react';
import {
  parsePatrolRecording,
  replayPatrolSteps,
  type PatrolDivergence,
  type PatrolMachine,
  type PatrolRecording,
} from 'assistant-safety/patrol';
import { apiFetch } from '../model/api.js';
import { wrongKindOfRecording } from '../model/recordingKindOf.js';
import type { RecordingStatus } from './useRecording.js';

/** A Patrol recording open in the app, replayed on the machine shown. */
export interface OpenPatrolRun {
  name: string;
  recording: PatrolRecording;
  /** Where the machine shown takes the run another way than recorded; empty when it replays the same. */
  divergences: PatrolDivergence[];
}

/**
 * Opens Patrol recordings (`*.patrol.jsonl`) from the server's folder or a
 * file, and replays each on `machine` (again when the machine changes). A
 * bad file leaves the open run in place and says which line is wrong.
 */
export function usePatrolRecording(machine: PatrolMachine | undefined) {
  const [opened, setOpened] = useState<{ name: string; recording: PatrolRecording } | undefined>(undefined);
  const [status, setStatus] = useState<RecordingStatus>({ kind: 'idle' });
  const latest = useRef(0);

  const openText = useCallback((name: string, text: string, start = performance.now()) => {
    const read = parsePatrolRecording(name, text);
    if (!read.ok) {
      // A safety session's recording: say which machine opens it, not that its first line is no Patrol line.
      const first = text.split('\n').find((row) => row.trim() !== '');
      const other = read.line === 1 && first !== undefined ? wrongKindOfRecording(name, first, 'patrol') : undefined;
      return setStatus({ kind: 'error', message: other ?? read.message, line: read.line });
    }
    setOpened({ name, recording: read.recording });
    setStatus({ kind: 'open', name, events: read.recording.steps.length, ms: performance.now() - start });
  }, []);

  const load = useCallback(
    async (name: string, text: () => Promise<string>) => {
      const mine = ++latest.current;
      const start = performance.now();
      setStatus({ kind: 'loading', name });
      let body: string;
      try {
        body = await text();
      } catch (e) {
        if (mine === latest.current) setStatus({ kind: 'error', message: `${name}: ${(e as Error).message}` });
        return;
      }
      if (mine === latest.current) openText(name, body, start);
    },
    [openText],
  );

  const openFromServer = useCallback(
    (name: string) =>
      void load(name, async () => {
        const response = await apiFetch(`/api/recordings/${encodeURIComponent(name)}`);
        if (!response.ok) throw new Error(`the server answered ${response.status}`);
        return response.text();
      }),
    [load],
  );
  const openFile = useCallback((file: File) => void load(file.name, () => file.text()), [load]);

  const run = useMemo<OpenPatrolRun | undefined>(
    () =>
      opened && machine
        ? { ...opened, divergences: replayPatrolSteps(opened.recording.steps, machine).divergences }
        : undefined,
    [opened, machine],
  );
  return { run, status, openFromServer, openFile, openText };
}
