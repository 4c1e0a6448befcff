import { createLineSplitter, parseRecordingLine, RecordingParseError } from 'assistant-safety';
import type { RecordingEntry } from 'assistant-safety';
import { wrongKindOfRecording } from './recordingKindOf.js';
import { yieldToPage } from './yieldToPage.js';

/** A recording opened, or why not: never an exception, so the page always has something to say. */
export type LoadResult =
  { ok: true; entries: RecordingEntry[]; warning?: string } | { ok: false; message: string; line?: number };

export interface LoadOptions {
  /** Told the share of the text parsed so far (0..1) between slices. */
  onProgress?: (done: number) => void;
  /** Parse this long, then give the page a frame. Default 8 ms. */
  sliceMs?: number;
  /**
   * How long the whole text is, in the chunks' units (bytes for byte chunks,
   * characters for strings): what progress is a share of. Unknown: no progress
   * until the end.
   */
  total?: number;
  /** Stops reading (and cancels a stream) when aborted: another recording was opened. */
  signal?: AbortSignal;
}

/** A recording's text as it arrives: strings, or UTF-8 bytes cut anywhere (a `fetch` body). */
type RecordingChunks = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

/**
 * Parses a recording's text for the app, in slices between frames so a
 * 100,000-event file never freezes the page. See {@link loadRecordingChunks}.
 *
 * @example
 * const result = await loadRecordingText('demo.jsonl', text);
 * if (!result.ok) show(result.message); // 'demo.jsonl, line 3: not JSON (...)'
 */
export function loadRecordingText(name: string, text: string, options: LoadOptions = {}): Promise<LoadResult> {
  return loadRecordingChunks(name, [text], { total: text.length, ...options });
}

/**
 * Parses a recording as its body downloads (`response.body`), so parsing
 * overlaps the transfer instead of waiting for the last byte. The stream is
 * cancelled as soon as a line is bad, or when `options.signal` aborts.
 *
 * @example
 * const response = await fetch('/api/recordings/demo.jsonl');
 * const result = await loadRecordingStream('demo.jsonl', response.body!, { total: 46_000_000 });
 */
export function loadRecordingStream(
  name: string,
  body: ReadableStream<Uint8Array>,
  options: LoadOptions = {},
): Promise<LoadResult> {
  return loadRecordingChunks(name, streamChunks(body), options);
}

/** A stream's chunks; leaving the loop early (a bad line, an abort) cancels the stream. */
async function* streamChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

/**
 * Parses a recording's text, arriving in chunks cut anywhere (inside a line,
 * inside a UTF-8 character), in slices between frames, through the core's
 * line loop (`createLineSplitter`). Each line is
 * validated by the core's `parseRecordingLine`, with `parseRecording`'s rules
 * and line numbers (tests hold them to the same answers, however the text is
 * cut): blank lines are skipped; a last line without its newline that is not
 * JSON is a torn write, which opens with a warning; anything else bad is a
 * message naming the line (and the field, for a line that breaks the
 * schema), and no entries. Every entry is validated before the result says
 * `ok`: nothing is shown half-loaded.
 */
async function loadRecordingChunks(
  name: string,
  source: RecordingChunks,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const sliceMs = options.sliceMs ?? 8;
  const { signal, onProgress, total } = options;
  const entries: RecordingEntry[] = [];
  const cancelled = (): LoadResult => ({ ok: false, message: `${name}: opening was cancelled` });
  // Units (bytes or characters) of the chunks so far.
  let before = 0;
  let sliceStart = performance.now();

  // The library's line loop; each line's verdict: undefined to go on, or the result of the whole load.
  let verdict: LoadResult | undefined;
  const splitter = createLineSplitter((raw, line, terminated) => {
    if (isBlankLine(raw)) return;
    const result = parseRecordingLine(raw);
    if (result.ok) {
      entries.push(result.entry);
      return;
    }
    if (!terminated && !result.json) {
      verdict =
        entries.length === 0
          ? empty(name)
          : {
              ok: true,
              entries,
              warning: `${name}: line ${line} is torn (cut off mid-write); showing the ${entries.length} complete entries before it`,
            };
    } else {
      // The first entry is the other kind's (a Patrol run's header): say so, not every field it lacks.
      const other = entries.length === 0 ? wrongKindOfRecording(name, raw, 'safety') : undefined;
      verdict = { ok: false, message: other ?? `${name}, line ${line}: ${result.message}`, line };
    }
    return false;
  });
  const feed = (piece: string | Uint8Array | undefined): LoadResult | undefined => {
    try {
      if (piece === undefined) splitter.end();
      else splitter.push(piece);
    } catch (e) {
      if (e instanceof RecordingParseError) return { ok: false, message: `${name}, ${e.message}`, line: e.line };
      throw e;
    }
    return verdict;
  };

  const chunks: AsyncIterator<string | Uint8Array> | Iterator<string | Uint8Array> =
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  let finished = false;
  try {
    for (;;) {
      let next: IteratorResult<string | Uint8Array>;
      try {
        next = await chunks.next();
      } catch (e) {
        finished = true; // the source failed: nothing to cancel
        return { ok: false, message: `${name}: reading the recording failed (${(e as Error).message})` };
      }
      if (next.done) {
        finished = true;
        break;
      }
      if (signal?.aborted) return cancelled();
      const chunk = next.value;
      const size = typeof chunk === 'string' ? chunk.length : chunk.byteLength;
      // In slices, so a frame comes between them however big the chunk (a whole file as one string).
      for (let at = 0; at < size; at += SLICE) {
        const piece = typeof chunk === 'string' ? chunk.slice(at, at + SLICE) : chunk.subarray(at, at + SLICE);
        const stop = feed(piece);
        if (stop) return stop;
        if (performance.now() - sliceStart > sliceMs) {
          if (onProgress && total) onProgress(Math.min(1, (before + Math.min(size, at + SLICE)) / total));
          await yieldToPage();
          if (signal?.aborted) return cancelled();
          sliceStart = performance.now();
        }
      }
      before += size;
    }
  } finally {
    // Stopped early (a bad line, an abort): let the source go (a stream cancels its download).
    if (!finished) await chunks.return?.();
  }
  const stop = feed(undefined);
  if (stop) return stop;
  onProgress?.(1);
  if (entries.length === 0) return empty(name);
  return { ok: true, entries };
}

/** Characters (or bytes) handed to the line loop between checks of the clock. */
const SLICE = 1 << 16;

/** Entries start with `{`: only another line can be blank. */
const isBlankLine = (raw: string) => raw.length === 0 || (raw.charCodeAt(0) !== 123 && raw.trim() === '');

const empty = (name: string): LoadResult => ({ ok: false, message: `${name}: the recording is empty (no entries)` });
