import type { RecordingEntry } from '../safety/RecordingEntry.js';
import { createLineSplitter } from './createLineSplitter.js';
import { refuseUnknownOptions } from '../core/knownKeys.js';
import { isBlank, PARSE_OPTION_KEYS, readLine, type ParseRecordingOptions } from './parseRecordingLine.js';
import { RecordingParseError } from './RecordingParseError.js';

/** One non-blank line of a recording's text. */
export interface RecordingLine {
  /** 1-based line number. */
  line: number;
  /** The line without its newline (and without a trailing `\r`, or a byte-order mark on line 1). */
  raw: string;
  /** False for a last line with no newline: the one a crash can have cut off. */
  terminated: boolean;
  /** Where the next line starts in the text (for progress). */
  end: number;
}

/** A long text goes through the line loop in slices of this many characters, so lines come out as it goes. */
const SLICE = 1 << 16;

/**
 * The non-blank lines of a JSON Lines text, with their numbers, from the line
 * loop every reader of recordings shares.
 *
 * @example
 * for (const { line, raw } of recordingLines(text)) console.log(line, raw.length);
 */
export function* recordingLines(
  text: string,
  options: Pick<ParseRecordingOptions, 'maxLineLength'> = {},
): Generator<RecordingLine> {
  const ready: RecordingLine[] = [];
  let end = 0;
  const splitter = createLineSplitter((raw, line, terminated, width) => {
    end += width;
    if (!isBlank(raw)) ready.push({ line, raw, terminated, end });
  }, options);
  for (let at = 0; at < text.length; at += SLICE) {
    splitter.push(text.slice(at, at + SLICE));
    yield* ready;
    ready.length = 0;
  }
  splitter.end();
  yield* ready;
}

/**
 * Parses a JSON Lines recording, validating every line. Blank lines are
 * skipped, and a byte-order mark at the start; a line longer than
 * `maxLineLength` (default 1 MiB) is refused. A last line without its newline
 * that is not valid JSON is a torn write from a crash: it is reported as such,
 * and with `allowTornTail` the complete lines before it are returned.
 *
 * @throws {RecordingParseError} naming the line number and what is wrong.
 * @example
 * const entries = parseRecording(readFileSync('recordings/two-writes-one-batch.jsonl', 'utf8'));
 */
export function parseRecording(text: string, options: ParseRecordingOptions = {}): RecordingEntry[] {
  if (typeof text !== 'string')
    throw new TypeError(`parseRecording: expected the recording's text, got ${typeof text}`);
  refuseUnknownOptions('parseRecording', options, PARSE_OPTION_KEYS);
  const entries: RecordingEntry[] = [];
  const splitter = createLineSplitter(
    (raw, line, terminated) => {
      if (isBlank(raw)) return;
      const entry = readLine(raw, line, terminated, entries.length, options, entries);
      if (entry === undefined) return false; // a torn tail, skipped as asked
      entries.push(entry);
    },
    options.maxLineLength === undefined ? {} : { maxLineLength: options.maxLineLength },
  );
  try {
    splitter.push(text);
    splitter.end();
  } catch (e) {
    // The splitter's own refusal (a line too long) knows no entries: give the ones before it.
    if (e instanceof RecordingParseError && e.entries !== entries)
      throw new RecordingParseError(e.message, e.line, e.torn, entries, e.issues);
    throw e;
  }
  return entries;
}
