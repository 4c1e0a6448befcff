import { parseRecording, RecordingParseError } from '../../src/recording.js';
import type { RecordingEntry } from '../../src/RecordingEntry.js';

/** A recording opened, or why not: never an exception, so the page always has something to say. */
export type LoadResult =
  { ok: true; entries: RecordingEntry[]; warning?: string } | { ok: false; message: string; line?: number };

/**
 * Parses a recording's text for the app: a torn last line (a crash while
 * recording) opens with a warning; anything else bad is a message naming
 * the line.
 *
 * @example
 * const result = loadRecordingText('demo.jsonl', text);
 * if (!result.ok) show(result.message); // 'demo.jsonl, line 3: not JSON (...)'
 */
export function loadRecordingText(name: string, text: string): LoadResult {
  let torn: number | undefined;
  try {
    const entries = parseRecording(text, { allowTornTail: true, onTornTail: (line) => (torn = line) });
    if (entries.length === 0) return { ok: false, message: `${name}: the recording is empty (no entries)` };
    return torn === undefined
      ? { ok: true, entries }
      : {
          ok: true,
          entries,
          warning: `${name}: line ${torn} is torn (cut off mid-write); showing the ${entries.length} complete entries before it`,
        };
  } catch (e) {
    if (e instanceof RecordingParseError) {
      // The core's message starts with "line N: ".
      return { ok: false, message: `${name}, ${e.message}`, line: e.line };
    }
    return { ok: false, message: `${name}: ${(e as Error).message}` };
  }
}
