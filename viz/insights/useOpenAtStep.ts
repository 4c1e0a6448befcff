import { useCallback, useEffect, useRef } from 'react';
import type { Track } from '../model/Track.js';

/** A step of a recording: its file, session and position in the session. */
export interface StepRef {
  source: string;
  session: string;
  seq: number;
}

/**
 * Opening a recording at a step: `openAt(ref)` shows the recordings mode and
 * opens the file, and once its track is in, seeks to the entry of that session
 * and seq. Call after `usePlayback` so the seek follows the track's load.
 */
export function useOpenAtStep(
  track: Track | undefined,
  seek: (index: number) => void,
  showRecordings: () => void,
  openRecording: (name: string) => void,
): (ref: StepRef) => void {
  const pending = useRef<{ ref: StepRef; afterKey: string | undefined } | undefined>(undefined);
  const currentKey = useRef<string | undefined>(undefined);
  currentKey.current = track?.key;

  const openAt = useCallback(
    (ref: StepRef) => {
      pending.current = { ref, afterKey: currentKey.current };
      showRecordings();
      openRecording(ref.source);
    },
    [showRecordings, openRecording],
  );

  useEffect(() => {
    const p = pending.current;
    if (!p || !track || track.key === p.afterKey) return;
    if (track.source !== 'recording' || track.title !== p.ref.source) return;
    pending.current = undefined;
    const index = track.entries.findIndex((e) => e.session === p.ref.session && e.seq === p.ref.seq);
    if (index >= 0) seek(index);
  }, [track]);

  return openAt;
}
