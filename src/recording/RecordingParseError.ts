import type { Issue } from '../core/Issue.js';
import type { RecordingEntry } from '../safety/RecordingEntry.js';

/** Thrown by {@link parseRecording}; `entries` holds every complete, valid line before the bad one. */
export class RecordingParseError extends Error {
  readonly code = 'INVALID_RECORDING' as const;
  constructor(
    message: string,
    /** 1-based line number of the bad line. */
    readonly line: number,
    /** The last line was cut off mid-write (a crash while recording), not corrupted. */
    readonly torn: boolean,
    readonly entries: RecordingEntry[],
    /** What is wrong with the line, as data: zod's issues for an entry of the wrong shape (paths inside the entry). */
    readonly issues: Issue[] = [],
  ) {
    super(message);
    this.name = 'RecordingParseError';
  }
}
