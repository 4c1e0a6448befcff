import { isAscii } from 'node:buffer';
import { createReadStream } from 'node:fs';

/** Decodes UTF-8 bytes; pure ASCII (the usual JSON Lines) takes the much faster one-byte path. */
function decode(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * Streams a text file and calls `onLine` for every line (without its `\n` or
 * `\r\n`), in order, holding only one chunk and the partial line after it in
 * memory. `terminated` is false for a last line with no newline after it.
 * Lines are cut on the newline byte, which never occurs inside a multi-byte
 * UTF-8 character, and decoded a chunk at a time. Resolves with the number
 * of lines.
 */
export async function forEachLine(
  path: string,
  onLine: (line: string, lineNumber: number, terminated: boolean) => void,
  { chunkBytes = 1 << 20 } = {},
): Promise<number> {
  const stream = createReadStream(path, { highWaterMark: chunkBytes });
  let pending: Buffer | undefined;
  let n = 0;
  const emit = (text: string, lastTerminated: boolean) => {
    let start = 0;
    for (;;) {
      let end = text.indexOf('\n', start);
      const terminated = end !== -1 || lastTerminated;
      if (end === -1) end = text.length;
      const line = end > start && text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
      onLine(line, ++n, terminated);
      if (end === text.length) return;
      start = end + 1;
    }
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let from = 0;
    if (pending) {
      // Finish the partial line with the bytes up to this chunk's first newline (no copy of the whole chunk).
      const first = chunk.indexOf(10);
      if (first === -1) {
        pending = Buffer.concat([pending, chunk]);
        continue;
      }
      emit(decode(Buffer.concat([pending, chunk.subarray(0, first)])), true);
      pending = undefined;
      from = first + 1;
    }
    const last = chunk.lastIndexOf(10);
    if (last < from) {
      if (from < chunk.length) pending = Buffer.from(chunk.subarray(from));
      continue;
    }
    // Every line up to the chunk's last newline, decoded in one go.
    emit(decode(chunk.subarray(from, last)), true);
    if (last + 1 < chunk.length) pending = Buffer.from(chunk.subarray(last + 1));
  }
  if (pending) emit(decode(pending), false);
  return n;
}
