import type { RecordingEntry } from '../../src/index.js';
import { blockedRecording } from './fixtures.js';

/** {@link blockedRecording} with tool names of two-, three- and four-byte UTF-8 characters. */
export function multibyteRecording(): RecordingEntry[] {
  return blockedRecording().map((e) =>
    'tool' in e.call ? { ...e, call: { ...e.call, tool: `${e.call.tool}_redémarré_日本_🚀` } } : e,
  ) as RecordingEntry[];
}

/** `bytes` cut at random places (inside lines and inside characters), `cuts` pieces at most. */
export function cutBytes(bytes: Uint8Array, rnd: () => number, cuts: number): Uint8Array[] {
  const at = [...new Set(Array.from({ length: cuts }, () => Math.floor(rnd() * bytes.length)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to > from) pieces.push(bytes.slice(from, to));
    from = to;
  }
  return pieces;
}

export interface TestStream {
  stream: ReadableStream<Uint8Array>;
  /** Chunks the reader has taken. */
  readonly pulled: number;
  /** Whether the reader cancelled the stream. */
  readonly cancelled: boolean;
}

/** A body stream that hands out `chunks` one per read, as a fetch body does, and notes a cancel. */
export function testStream(chunks: Uint8Array[], failAt?: number): TestStream {
  let i = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (failAt !== undefined && i === failAt) return controller.error(new Error('connection reset'));
        if (i < chunks.length) controller.enqueue(chunks[i++]!);
        else controller.close();
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    get pulled() {
      return i;
    },
    get cancelled() {
      return cancelled;
    },
  };
}
