import { useCallback, useEffect, useRef } from 'react';
import { LIVE_SOURCE } from 'assistant-safety/insights';
import type { Track } from '../model/Track.js';

/** A step of a recording: its file, session and position in the session. */
export interface StepRef {
  source: string;
  session: string;
  seq: number;
  /** The entry's time: tells apart two entries of one seq (a session shared by workers starts over at each restore). */
  at?: number;
}

/** How the app shows a recording or a live session. */
export interface StepOpeners {
  seek: (index: number) => void;
  /** Shows the recordings mode and opens the server's recording `name`. */
  openRecording: (name: string) => void;
  /** Shows the live mode following `session`. */
  followLive: (session: string) => void;
}

/**
 * Opening a step: `openAt(ref)` opens the recording (or follows the live
 * session, for a ref whose source is `live`), and once its track holds the
 * entry of that session and seq, seeks to it. Call after `usePlayback` so the
 * seek follows the track's load.
 */
export function useOpenAtStep(
  track: Track | undefined,
  version: number,
  { seek, openRecording, followLive }: StepOpeners,
): (ref: StepRef) => void {
  const pending = useRef<{ ref: StepRef; afterKey: string | undefined } | undefined>(undefined);
  const currentKey = useRef<string | undefined>(undefined);
  currentKey.current = track?.key;

  // The openers may change on every render: the latest are used.
  const openers = useRef({ openRecording, followLive });
  openers.current = { openRecording, followLive };
  const openAt = useCallback((ref: StepRef) => {
    pending.current = { ref, afterKey: currentKey.current };
    if (ref.source === LIVE_SOURCE) openers.current.followLive(ref.session);
    else openers.current.openRecording(ref.source);
  }, []);

  useEffect(() => {
    const p = pending.current;
    if (!p || !track || track.key === p.afterKey) return;
    const live = p.ref.source === LIVE_SOURCE;
    if (live ? track.source !== 'live' : track.source !== 'recording' || track.title !== p.ref.source) return;
    const { session, seq, at } = p.ref;
    const exact = track.entries.findIndex((e) => e.session === session && e.seq === seq && e.at === at);
    const index = exact >= 0 ? exact : track.entries.findIndex((e) => e.session === session && e.seq === seq);
    // A live session's entries may still be arriving: wait for the step.
    if (index < 0 && live) return;
    pending.current = undefined;
    if (index >= 0) seek(index);
  }, [track, version]);

  return openAt;
}
