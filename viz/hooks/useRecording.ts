import { useCallback, useEffect, useRef, useState } from 'react';
import { RecordingList, type RecordingFileInfo } from '../../src/live/protocol.js';
import { apiFetch } from '../model/api.js';
import { loadRecordingText } from '../model/loadRecording.js';
import { newTrackKey, type TrackStore } from '../model/Track.js';

export type RecordingStatus =
  | { kind: 'idle' }
  | { kind: 'loading'; name: string; progress?: number }
  | { kind: 'open'; name: string; events: number; ms: number }
  | { kind: 'error'; message: string; line?: number };

/**
 * Opens recordings into the track store: from the server's list, or from a
 * file dropped or picked. A bad file leaves the previous track in place and
 * an error message naming the line.
 */
export function useRecording(store: TrackStore, fromServer: boolean) {
  const [list, setList] = useState<RecordingFileInfo[] | undefined>(undefined);
  const [listError, setListError] = useState<string | undefined>(undefined);
  const [status, setStatus] = useState<RecordingStatus>({ kind: 'idle' });

  const refresh = useCallback(() => {
    if (!fromServer) return;
    apiFetch('/api/recordings')
      .then((r) => r.json())
      .then((body: unknown) => {
        const parsed = RecordingList.safeParse(body);
        if (parsed.success) setList(parsed.data.recordings);
        else setListError('the server sent a recording list the page does not understand');
      })
      .catch((e: unknown) => setListError((e as Error).message));
  }, [fromServer]);
  useEffect(refresh, [refresh]);

  // Only the latest open wins: a big file still parsing must not replace one opened after it.
  const generation = useRef(0);
  const openText = useCallback(
    async (name: string, text: string) => {
      const mine = ++generation.current;
      const start = performance.now();
      const result = await loadRecordingText(name, text, {
        onProgress: (progress) => mine === generation.current && setStatus({ kind: 'loading', name, progress }),
      });
      if (mine !== generation.current) return;
      if (!result.ok) {
        setStatus({ kind: 'error', message: result.message, ...(result.line !== undefined && { line: result.line }) });
        return;
      }
      store.replace({
        key: newTrackKey('recording'),
        source: 'recording',
        title: name,
        entries: result.entries,
        ...(result.warning !== undefined && { warning: result.warning }),
      });
      setStatus({ kind: 'open', name, events: result.entries.length, ms: performance.now() - start });
    },
    [store],
  );

  const openFromServer = useCallback(
    (name: string) => {
      setStatus({ kind: 'loading', name });
      apiFetch(`/api/recordings/${encodeURIComponent(name)}`)
        .then((r) => r.text())
        .then((text) => openText(name, text))
        .catch((e: unknown) => setStatus({ kind: 'error', message: `${name}: ${(e as Error).message}` }));
    },
    [openText],
  );

  const openFile = useCallback(
    (file: File) => {
      setStatus({ kind: 'loading', name: file.name });
      file.text().then(
        (text) => openText(file.name, text),
        (e: unknown) =>
          setStatus({ kind: 'error', message: `${file.name}: cannot read the file (${(e as Error).message})` }),
      );
    },
    [openText],
  );

  return { list, listError, status, refresh, openFromServer, openFile, openText };
}
