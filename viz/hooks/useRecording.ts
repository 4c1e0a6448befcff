import { useCallback, useEffect, useRef, useState } from 'react';
import { RecordingList, type RecordingFileInfo } from 'assistant-safety/live';
import { apiFetch } from '../model/api.js';
import { loadRecordingStream, loadRecordingText, type LoadOptions, type LoadResult } from '../model/loadRecording.js';
import { newTrackKey, type TrackStore } from '../model/Track.js';

export type RecordingStatus =
  | { kind: 'idle' }
  | { kind: 'loading'; name: string; progress?: number }
  /** `ms`: from the click to every entry validated (download included). */
  | { kind: 'open'; name: string; events: number; ms: number }
  | { kind: 'error'; message: string; line?: number };

/** Shortest time between two progress updates of the status line. */
const PROGRESS_MS = 100;

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

  // Only the latest open wins: a big file still loading is cancelled by one opened after it.
  const current = useRef<AbortController | undefined>(undefined);
  const open = useCallback(
    async (name: string, load: (options: LoadOptions) => Promise<LoadResult>) => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      const mine = () => current.current === controller;
      const start = performance.now();
      let shown = start;
      setStatus({ kind: 'loading', name });
      let result: LoadResult;
      try {
        result = await load({
          signal: controller.signal,
          // Each status change re-renders the page: a few times a second is enough for a percentage.
          onProgress: (progress) => {
            const now = performance.now();
            if (!mine() || now - shown < PROGRESS_MS) return;
            shown = now;
            setStatus({ kind: 'loading', name, progress });
          },
        });
      } catch (e) {
        result = { ok: false, message: `${name}: ${(e as Error).message}` };
      }
      if (!mine()) return;
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

  /** Opens a recording's text (a test, a paste). */
  const openText = useCallback(
    (name: string, text: string) => open(name, (options) => loadRecordingText(name, text, options)),
    [open],
  );

  /** Opens a recording of the server's folder, parsing it as it downloads. */
  const openFromServer = useCallback(
    (name: string) =>
      void open(name, async (options) => {
        const response = await apiFetch(`/api/recordings/${encodeURIComponent(name)}`, options.signal);
        if (!response.body) return loadRecordingText(name, await response.text(), options);
        const total = Number(response.headers.get('content-length'));
        return loadRecordingStream(name, response.body, { ...options, ...(total > 0 && { total }) });
      }),
    [open],
  );

  const openFile = useCallback(
    (file: File) =>
      void open(file.name, async (options) => {
        let text: string;
        try {
          text = await file.text();
        } catch (e) {
          return { ok: false, message: `${file.name}: cannot read the file (${(e as Error).message})` };
        }
        return loadRecordingText(file.name, text, options);
      }),
    [open],
  );

  return { list, listError, status, refresh, openFromServer, openFile, openText };
}
