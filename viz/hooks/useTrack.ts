import { useSyncExternalStore } from 'react';
import type { Track, TrackStore } from '../model/Track.js';

/** The store's current track and its version (which changes as entries are appended). */
export function useTrack(store: TrackStore): { track: Track | undefined; version: number } {
  const version = useSyncExternalStore(store.subscribe, store.getVersion);
  return { track: store.getSnapshot(), version };
}
