import type { RecordingEntry } from '../safety/RecordingEntry.js';
import { forEachChunkLine, type RecordingChunk } from './createLineSplitter.js';
import {
  createRecordingReplayer,
  type RecordingReplayerOptions,
  type ReplayResult,
} from './createRecordingReplayer.js';
import { isBlank, readLine, type ParseRecordingOptions } from './parseRecordingLine.js';

export interface ReplayStreamOptions extends RecordingReplayerOptions, ParseRecordingOptions {
  /** Called after each entry is replayed, with the count so far (progress). */
  onEntry?: (count: number) => void;
}

/** What {@link replayRecordingStream} found. */
export interface ReplayStreamResult extends ReplayResult {
  /** Entries replayed. */
  count: number;
  /** Every divergence found (`divergences` keeps the first `keepDivergences`). */
  divergenceCount: number;
  /** 1-based number of the torn last line that `allowTornTail` skipped. */
  tornLine?: number;
}

/**
 * Replays a JSON Lines recording as it streams in: a file read stream, stdin,
 * a `fetch` body, or any (async) iterable of chunks of its text, strings or
 * UTF-8 bytes, cut anywhere (chunks, not lines). Each line is validated as
 * {@link parseRecording} does and replayed as {@link replayRecording} does,
 * then dropped, so memory stays flat however long the recording is (it grows
 * with the number of recorded sessions, and the kept divergences). Blank
 * lines are skipped; a torn last line throws, or with `allowTornTail` is
 * skipped and reported in `tornLine`.
 *
 * @throws {RecordingParseError} naming the line number and the field for a
 * malformed line (its `entries` is empty: a stream keeps none); the entries
 * before it have been replayed.
 * @example
 * import { createReadStream } from 'node:fs';
 * const result = await replayRecordingStream(createReadStream('recordings/demo.jsonl'));
 * console.log(`${result.count} entries, ${result.divergenceCount} divergences`);
 */
export async function replayRecordingStream(
  source: AsyncIterable<RecordingChunk> | Iterable<RecordingChunk>,
  options: ReplayStreamOptions = {},
): Promise<ReplayStreamResult> {
  const replayer = createRecordingReplayer(options);
  const { onEntry } = options;
  let tornLine: number | undefined;
  const parseOptions: ParseRecordingOptions = {
    allowTornTail: options.allowTornTail ?? false,
    onTornTail: (line) => {
      tornLine = line;
      options.onTornTail?.(line);
    },
  };
  const none: RecordingEntry[] = [];
  await forEachChunkLine(
    source,
    (raw, line, terminated) => {
      if (isBlank(raw)) return;
      const entry = readLine(raw, line, terminated, replayer.count, parseOptions, none);
      if (entry === undefined) return;
      replayer.push(entry);
      if (onEntry) onEntry(replayer.count);
    },
    options.maxLineLength === undefined ? {} : { maxLineLength: options.maxLineLength },
  );
  const result: ReplayStreamResult = {
    ...replayer.result(),
    count: replayer.count,
    divergenceCount: replayer.divergenceCount,
  };
  if (tornLine !== undefined) result.tornLine = tornLine;
  return result;
}
