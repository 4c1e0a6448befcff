import { parseRecordingLine, recordingLines } from '../../src/recording.js';
import type { RecordingEntry } from '../../src/RecordingEntry.js';
import { yieldToPage } from './yieldToPage.js';

/** A recording opened, or why not: never an exception, so the page always has something to say. */
export type LoadResult =
  { ok: true; entries: RecordingEntry[]; warning?: string } | { ok: false; message: string; line?: number };

export interface LoadOptions {
  /** Told the share of the text parsed so far (0..1) between slices. */
  onProgress?: (done: number) => void;
  /** Parse this long, then give the page a frame. Default 8 ms. */
  sliceMs?: number;
}

/**
 * Parses a recording's text for the app, in slices between frames so a
 * 100,000-event file never freezes the page. Each line is validated by the
 * core's `parseRecordingLine`, with `parseRecording`'s rules (a test holds
 * them to the same answers): blank lines are skipped; a last line without
 * its newline that is not JSON is a torn write, which opens with a warning;
 * anything else bad is a message naming the line.
 *
 * @example
 * const result = await loadRecordingText('demo.jsonl', text);
 * if (!result.ok) show(result.message); // 'demo.jsonl, line 3: not JSON (...)'
 */
export async function loadRecordingText(name: string, text: string, options: LoadOptions = {}): Promise<LoadResult> {
  const sliceMs = options.sliceMs ?? 8;
  const entries: RecordingEntry[] = [];
  let count = 0;
  let sliceStart = performance.now();
  for (const { line, raw, terminated, end } of recordingLines(text)) {
    if (++count % 256 === 0 && performance.now() - sliceStart > sliceMs) {
      options.onProgress?.(end / text.length);
      await yieldToPage();
      sliceStart = performance.now();
    }
    const result = parseRecordingLine(raw);
    if (result.ok) {
      entries.push(result.entry);
      continue;
    }
    if (!terminated && !result.json) {
      if (entries.length === 0) break;
      return {
        ok: true,
        entries,
        warning: `${name}: line ${line} is torn (cut off mid-write); showing the ${entries.length} complete entries before it`,
      };
    }
    return { ok: false, message: `${name}, line ${line}: ${result.message}`, line };
  }
  options.onProgress?.(1);
  if (entries.length === 0) return { ok: false, message: `${name}: the recording is empty (no entries)` };
  return { ok: true, entries };
}
