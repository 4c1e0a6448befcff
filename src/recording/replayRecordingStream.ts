import type { RecordingEntry } from '../safety/RecordingEntry.js';
import { forEachChunkLine, type RecordingChunk } from './createLineSplitter.js';
import {
  createRecordingReplayer,
  REPLAYER_OPTION_KEYS,
  type RecordingReplayerOptions,
  type ReplayResult,
} from './createRecordingReplayer.js';
import { refuseUnknownOptions } from '../core/knownKeys.js';
import { isBlank, PARSE_OPTION_KEYS, readLine, type ParseRecordingOptions } from './parseRecordingLine.js';

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
 * const result = await replayRecordingStream(createReadStream('recordings/two-writes-one-batch.jsonl'));
 * console.log(`${result.count} entries, ${result.divergenceCount} divergences`);
 */
export async function replayRecordingStream(
  source: AsyncIterable<RecordingChunk> | Iterable<RecordingChunk>,
  options: ReplayStreamOptions = {},
): Promise<ReplayStreamResult> {
  refuseUnknownOptions(
    'replayRecordingStream',
    options,
    new Set([...REPLAYER_OPTION_KEYS, ...PARSE_OPTION_KEYS, 'onEntry']),
  );
  const { onEntry, allowTornTail, onTornTail, maxLineLength, ...replayerOptions } = options;
  const replayer = createRecordingReplayer(replayerOptions);
  let tornLine: number | undefined;
  const parseOptions: ParseRecordingOptions = {
    allowTornTail: allowTornTail ?? false,
    onTornTail: (line) => {
      tornLine = line;
      onTornTail?.(line);
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
    maxLineLength === undefined ? {} : { maxLineLength },
  );
  const result: ReplayStreamResult = {
    ...replayer.result(),
    count: replayer.count,
    divergenceCount: replayer.divergenceCount,
  };
  if (tornLine !== undefined) result.tornLine = tornLine;
  return result;
}
