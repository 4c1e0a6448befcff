import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RecordingEntry, SessionRecorder } from '../RecordingEntry.js';

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
  close(): void;
}

/**
 * Appends one entry a line to `path` (created with its folder if missing).
 * Each line is written whole with one synchronous write before `record`
 * returns, so a crash loses at most the line being written, which
 * `parseRecording` then reports as a torn last line.
 *
 * @example
 * const recorder = createFileRecorder('recordings/session.jsonl');
 * const session = createSafetySession({ recorder });
 * // ... at the end
 * recorder.close();
 */
export function createFileRecorder(path: string, options: FileRecorderOptions = {}): FileRecorder {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number | undefined = openSync(path, 'a');
  return {
    path,
    record(entry: RecordingEntry) {
      if (fd === undefined) throw new Error(`recorder for ${path} is closed`);
      const buf = Buffer.from(JSON.stringify(entry) + '\n', 'utf8');
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
