import { useMachine } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { playbackMachine } from '../machines/playbackMachine.js';
import type { Track } from '../model/Track.js';

/** Playback over the track: loads at the start of a recording, at the end of a live or playground track. */
export function usePlayback(track: Track | undefined, version: number) {
  const [snapshot, send] = useMachine(playbackMachine);
  const loaded = useRef<string | undefined>(undefined);
  const length = track?.entries.length ?? 0;
  useEffect(() => {
    if (track?.key !== loaded.current) {
      loaded.current = track?.key;
      send({ type: 'LOAD', length, at: track?.source === 'recording' ? 'start' : 'end' });
    } else if (length !== snapshot.context.length) {
      send({ type: 'GROW', length });
    }
  }, [track, version, length]);
  return { ...snapshot.context, playing: snapshot.matches('playing'), send };
}
