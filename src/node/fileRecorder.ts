import { createHash } from 'node:crypto';
import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RecordingEntry, SessionRecorder } from '../safety/RecordingEntry.js';
import { MAX_LINE_LENGTH } from '../recording/createLineSplitter.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';

/** A string in an entry longer than this many characters is written shortened (see {@link shortenLongString}). */
const MAX_RECORDED_STRING = 64 * 1024;

/**
 * How a string over {@link MAX_RECORDED_STRING} characters is written: its first 64 characters,
 * its length and a SHA-256 prefix of it. Equal strings stay equal and different ones different,
 * so the recording replays exactly (replay compares tool names and ids, never reads them).
 */
const shortenLongString = (text: string) =>
  `${text.slice(0, 64)}…[${text.length} characters, sha256 ${createHash('sha256').update(text).digest('hex').slice(0, 16)}]`;

const shortenLong = (_key: string, value: unknown) =>
  typeof value === 'string' && value.length > MAX_RECORDED_STRING ? shortenLongString(value) : value;

/**
 * The entry as one line replay takes: strings over {@link MAX_RECORDED_STRING} shortened, or
 * undefined when the line would still be over {@link MAX_LINE_LENGTH}.
 */
function lineOf(entry: RecordingEntry): string | undefined {
  let line = JSON.stringify(entry);
  // A line shorter than the string limit cannot hold a longer string: the usual entry stops here.
  if (line.length > MAX_RECORDED_STRING) line = JSON.stringify(entry, shortenLong);
  return line.length > MAX_LINE_LENGTH ? undefined : line;
}

export interface FileRecorderOptions {
  /**
   * fsync after every line, so a machine crash (not only a process crash)
   * loses at most the line being written. Slower; default false.
   */
  fsync?: boolean;
}

/** A JSON Lines recorder appending to a file. */
export interface FileRecorder extends SessionRecorder {
  readonly path: string;
  /**
   * What opening did to a last line without its newline (a crash mid-write):
   * `cut` when it was not JSON (the torn fragment is removed), `ended` when it
   * was whole JSON (its newline is added); undefined when the file ended clean.
   */
  readonly repairedTail?: 'cut' | 'ended';
  /** Entries not written because their line would be over `MAX_LINE_LENGTH` even shortened. */
  readonly refused: number;
  close(): void;
}

/**
 * Makes an existing file end at a line boundary before appending to it, so the
 * first new line is not glued to a torn one: a last line that is not JSON is
 * cut off, one that is whole JSON gets its newline.
 */
function repairTail(fd: number): 'cut' | 'ended' | undefined {
  const size = fstatSync(fd).size;
  if (size === 0) return undefined;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 10) return undefined;
  // Find the start of the last line, reading backwards in blocks.
  const block = Buffer.alloc(64 * 1024);
  let start = 0;
  for (let end = size; end > 0;) {
    const from = Math.max(0, end - block.length);
    const n = readSync(fd, block, 0, end - from, from);
    const at = block.subarray(0, n).lastIndexOf(10);
    if (at !== -1) {
      start = from + at + 1;
      break;
    }
    end = from;
  }
  const tail = Buffer.alloc(size - start);
  readSync(fd, tail, 0, tail.length, start);
  try {
    JSON.parse(tail.toString('utf8'));
  } catch {
    ftruncateSync(fd, start);
    return 'cut';
  }
  writeSync(fd, '\n');
  return 'ended';
}

/**
 * Appends one entry a line to `path` (created with its folder if missing).
 * Every line it writes replays: a string over 65,536 characters (a tool name,
 * a call id) is written shortened to its start, its length and a hash (equal
 * strings stay equal, so the replay is exact), and an entry whose line would
 * still be over `MAX_LINE_LENGTH` is not written: `record` throws, which the
 * session reports (`onRecorderError`), and `refused` counts it.
 * Each line is written whole with one synchronous write before `record`
 * returns, so a crash loses at most the line being written, which
 * `parseRecording` then reports as a torn last line. Reopening a file whose
 * last line was torn cuts that fragment off first (or ends a last line that is
 * whole JSON), so a restarted session appends lines that replay
 * (`repairedTail` says which).
 *
 * @example
 * const recorder = createFileRecorder('recordings/session.jsonl');
 * const session = createSafetySession({ recorder });
 * // ... at the end
 * recorder.close();
 */
export function createFileRecorder(path: string, options: FileRecorderOptions = {}): FileRecorder {
  refuseUnknownOptions('createFileRecorder', options, keysOf<FileRecorderOptions>({ fsync: true }));
  mkdirSync(dirname(path), { recursive: true });
  let fd: number | undefined = openSync(path, 'a+');
  const repairedTail = repairTail(fd);
  let refused = 0;
  return {
    path,
    get refused() {
      return refused;
    },
    ...(repairedTail && { repairedTail }),
    record(entry: RecordingEntry) {
      if (fd === undefined) throw new Error(`recorder for ${path} is closed`);
      const line = lineOf(entry);
      if (line === undefined) {
        refused++;
        throw new Error(
          `recorder for ${path}: entry ${entry.seq} of session ${JSON.stringify(entry.session.slice(0, 64))} not written: its line would be over ${MAX_LINE_LENGTH} characters, which replay refuses (${refused} refused so far)`,
        );
      }
      const buf = Buffer.from(line + '\n', 'utf8');
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      if (options.fsync) fsyncSync(fd);
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
