import { createReadStream } from 'node:fs';
import { forEachChunkLine } from '../src/index.js';

/**
 * Streams a text file and calls `onLine` for every line (without its `\n` or
 * `\r\n`), in order, holding only one chunk and the partial line after it in
 * memory: the same line loop `replayRecordingStream` runs (so the bare
 * `JSON.parse` baseline reads its lines exactly as the replayer does).
 * `terminated` is false for a last line with no newline after it. Resolves
 * with the number of lines.
 */
export function forEachLine(
  path: string,
  onLine: (line: string, lineNumber: number, terminated: boolean) => void,
  { chunkBytes = 1 << 20 } = {},
): Promise<number> {
  return forEachChunkLine(createReadStream(path, { highWaterMark: chunkBytes }), onLine);
}
