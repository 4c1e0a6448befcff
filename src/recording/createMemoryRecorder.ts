import type { RecordingEntry } from '../safety/RecordingEntry.js';

/** A recorder that keeps entries in memory. */
export interface MemoryRecorder {
  readonly entries: RecordingEntry[];
  record(entry: RecordingEntry): void;
  /** The entries as JSON Lines text. */
  toJSONL(): string;
}

/**
 * @example
 * const recorder = createMemoryRecorder();
 * const session = createSafetySession({ recorder });
 * session.canFinalAnswer();
 * recorder.entries.length; // 2: create, canFinalAnswer
 */
export function createMemoryRecorder(): MemoryRecorder {
  const entries: RecordingEntry[] = [];
  return {
    entries,
    record: (entry) => void entries.push(entry),
    toJSONL: () => entries.map((e) => JSON.stringify(e) + '\n').join(''),
  };
}
