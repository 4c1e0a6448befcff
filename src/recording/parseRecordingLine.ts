import { formatPath, issuesOf, safeParseInput, type Issue } from '../core/Issue.js';
import { RecordingEntry } from '../safety/RecordingEntry.js';
import { quickCheckEntry } from '../safety/quickCheckEntry.js';
import { RecordingParseError } from './RecordingParseError.js';
import { keysOf } from '../core/knownKeys.js';

export interface ParseRecordingOptions {
  /** Return the complete lines before a torn last line instead of throwing. Default false. */
  allowTornTail?: boolean;
  /** Told about a torn last line that `allowTornTail` skipped. */
  onTornTail?: (line: number) => void;
  /** Refuse a line longer than this many characters. Default `MAX_LINE_LENGTH` (1 MiB). */
  maxLineLength?: number;
}

/** The options of parsing a recording: a misspelt one is refused, never a silent default. */
export const PARSE_OPTION_KEYS = keysOf<ParseRecordingOptions>({
  allowTornTail: true,
  onTornTail: true,
  maxLineLength: true,
});

/**
 * Parses one line of a recording.
 *
 * @returns the entry, or a message saying what is wrong with it.
 * @example
 * const result = parseRecordingLine('{"v":1, ...}');
 * if (!result.ok) console.log(result.message); // 'seq: Invalid input: expected number, received string'
 */
export function parseRecordingLine(
  text: string,
): { ok: true; entry: RecordingEntry } | { ok: false; json: boolean; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, json: false, message: notJSON(e) };
  }
  // The hot path: an entry the quick check passes is one zod accepts unchanged (zod still words every error).
  if (quickCheckEntry(value)) return { ok: true, entry: value as RecordingEntry };
  return zodEntry(value);
}

const notJSON = (e: unknown) => `not JSON (${(e as Error).message})`;

/** A parsed line as an entry, by zod, or zod's issues (each with its path) as one message. */
function zodEntry(
  value: unknown,
): { ok: true; entry: RecordingEntry } | { ok: false; json: true; message: string; issues: Issue[] } {
  const parsed = safeParseInput(RecordingEntry, value);
  if (!parsed.success) {
    const issues = issuesOf(parsed.error);
    return {
      ok: false,
      json: true,
      message: issues.map((i) => `${formatPath(i.path) || '(entry)'}: ${i.message}`).join('; '),
      issues,
    };
  }
  return { ok: true, entry: parsed.data };
}

/**
 * The judgement of one non-blank line that every reader shares: the entry;
 * `undefined` for a torn last line that `allowTornTail` skips; or a
 * {@link RecordingParseError} naming the line (`before` entries were valid).
 */
export function readLine(
  raw: string,
  line: number,
  terminated: boolean,
  before: number,
  options: ParseRecordingOptions,
  kept: RecordingEntry[],
): RecordingEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    if (terminated)
      throw new RecordingParseError(`line ${line}: ${notJSON(e)}`, line, false, kept, [
        { code: 'invalid_json', path: [], message: notJSON(e) },
      ]);
    // The last line, cut off with no newline and not JSON: a torn write.
    if (options.allowTornTail) {
      options.onTornTail?.(line);
      return undefined;
    }
    throw new RecordingParseError(
      `line ${line}: incomplete last line (torn write, likely a crash while recording); the ${before} complete lines before it are valid`,
      line,
      true,
      kept,
    );
  }
  // The usual line: nothing is allocated but the entry JSON.parse built.
  if (quickCheckEntry(value)) return value as RecordingEntry;
  const result = zodEntry(value);
  if (result.ok) return result.entry;
  throw new RecordingParseError(`line ${line}: ${result.message}`, line, false, kept, result.issues);
}

/** `raw.trim() === ''` without building a string for the usual line, which starts with `{`. */
export function isBlank(raw: string): boolean {
  return raw.length === 0 || (raw.charCodeAt(0) !== 123 && raw.trim() === '');
}
