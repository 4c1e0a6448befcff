import type { RecordingEntry } from 'assistant-safety';

/*
 * What the app shows: a list of entries that may grow (a live session, the
 * playground) and a version that changes when it does, so React can
 * subscribe without copying a 100,000-entry array on every event.
 */

type TrackSource = 'recording' | 'live' | 'playground';

export interface Track {
  /** Changes when another track replaces this one (a new file, another live session). */
  readonly key: string;
  readonly source: TrackSource;
  readonly title: string;
  readonly entries: readonly RecordingEntry[];
  /** A torn last line skipped while opening, or similar: shown, not fatal. */
  readonly warning?: string;
}

export interface TrackStore {
  getSnapshot(): Track | undefined;
  /** Bumped by `append`: a number React can compare. */
  getVersion(): number;
  subscribe(listener: () => void): () => void;
  replace(track: Track | undefined): void;
  /** Adds entries to the current track (same key). */
  append(entries: readonly RecordingEntry[]): void;
}

let keys = 0;
/** A fresh key for a new track. */
export const newTrackKey = (prefix: string) => `${prefix}:${++keys}`;

/** A track store: one current track, appended to in place. */
export function createTrackStore(): TrackStore {
  let track: Track | undefined;
  let entries: RecordingEntry[] = [];
  let version = 0;
  const listeners = new Set<() => void>();
  const emit = () => {
    version += 1;
    for (const l of listeners) l();
  };
  return {
    getSnapshot: () => track,
    getVersion: () => version,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    replace(next) {
      entries = next ? [...next.entries] : [];
      track = next && { ...next, entries };
      emit();
    },
    append(more) {
      if (!track || more.length === 0) return;
      for (const e of more) entries.push(e);
      emit();
    },
  };
}
