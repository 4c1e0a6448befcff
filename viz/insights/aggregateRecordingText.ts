import { parseRecordingLine, recordingLines, RecordingParseError, type RecordingEntry } from 'assistant-safety';
import type { Insights } from 'assistant-safety/insights';
import { yieldToPage } from '../model/yieldToPage.js';

/*
 * One recording's text into the Insights aggregates without freezing the page:
 * lines are parsed, then entries added, a bounded number at a time, with a
 * pause (a task boundary: the page handles input and paints) between. A file
 * with a bad line is left out whole, as `stats` refuses it: nothing of it is
 * added.
 */

/** Lines parsed, or entries added, between two pauses. */
export const ENTRIES_PER_SLICE = 2000;

export interface AggregateOptions {
  /** Awaited between slices. Default: the next task. */
  pause?: () => Promise<void>;
  /** Lines (and entries) per slice. Default {@link ENTRIES_PER_SLICE}. */
  perSlice?: number;
  /** Stops early (resolves `aborted`) once aborted. */
  signal?: AbortSignal;
}

export type AggregateResult =
  { status: 'added'; entries: number } | { status: 'refused'; line: number } | { status: 'aborted' };

/**
 * Adds the entries of `text` to `insights` under `source`, a slice at a time.
 * A torn last line (a crash mid-write) is skipped, as `parseRecording` with
 * `allowTornTail` does.
 */
export async function aggregateRecordingText(
  insights: Insights,
  text: string,
  source: string,
  options: AggregateOptions = {},
): Promise<AggregateResult> {
  const pause = options.pause ?? yieldToPage;
  const perSlice = options.perSlice ?? ENTRIES_PER_SLICE;
  const entries: RecordingEntry[] = [];
  let inSlice = 0;
  const step = async () => {
    if (++inSlice < perSlice) return false;
    inSlice = 0;
    await pause();
    return options.signal?.aborted === true;
  };
  try {
    for (const { raw, line, terminated } of recordingLines(text)) {
      const parsed = parseRecordingLine(raw);
      if (!parsed.ok) {
        if (!terminated && !parsed.json) break; // a torn last line
        return { status: 'refused', line };
      }
      entries.push(parsed.entry);
      if (await step()) return { status: 'aborted' };
    }
  } catch (e) {
    if (e instanceof RecordingParseError) return { status: 'refused', line: e.line };
    throw e;
  }
  for (const entry of entries) {
    insights.add(entry, source);
    if (await step()) return { status: 'aborted' };
  }
  return { status: 'added', entries: entries.length };
}
