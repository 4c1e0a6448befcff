import { parseRecordingLine } from 'assistant-safety';
import type { RecordingEntry } from 'assistant-safety';
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
export type RecordingChunks = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

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
 * inside a UTF-8 character), in slices between frames. Each line is
 * validated by the core's `parseRecordingLine`, with `parseRecording`'s rules
 * and line numbers (tests hold them to the same answers, however the text is
 * cut): blank lines are skipped; a last line without its newline that is not
 * JSON is a torn write, which opens with a warning; anything else bad is a
 * message naming the line (and the field, for a line that breaks the
 * schema), and no entries. Every entry is validated before the result says
 * `ok`: nothing is shown half-loaded.
 */
export async function loadRecordingChunks(
  name: string,
  source: RecordingChunks,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const sliceMs = options.sliceMs ?? 8;
  const { signal, onProgress, total } = options;
  const entries: RecordingEntry[] = [];
  const decoder = new TextDecoder();
  const cancelled = (): LoadResult => ({ ok: false, message: `${name}: opening was cancelled` });
  let line = 0;
  let count = 0;
  // Units (bytes or characters) of the chunks so far.
  let before = 0;
  let sliceStart = performance.now();

  // One line's verdict: undefined to go on, or the result of the whole load.
  const take = (text: string, start: number, end: number, terminated: boolean): LoadResult | undefined => {
    line += 1;
    if (end > start && text.charCodeAt(end - 1) === 13) end -= 1; // CRLF
    // Entries start with `{`: only another line can be blank.
    if (text.charCodeAt(start) !== 123 && text.slice(start, end).trim() === '') return undefined;
    const result = parseRecordingLine(text.slice(start, end));
    if (result.ok) {
      entries.push(result.entry);
      return undefined;
    }
    if (!terminated && !result.json) {
      if (entries.length === 0) return empty(name);
      return {
        ok: true,
        entries,
        warning: `${name}: line ${line} is torn (cut off mid-write); showing the ${entries.length} complete entries before it`,
      };
    }
    return { ok: false, message: `${name}, line ${line}: ${result.message}`, line };
  };

  // The start of a line that later chunks finish (a long line can span several).
  let pending: string[] = [];
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
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      before += size;
      let start = 0;
      if (pending.length > 0) {
        // The line begun in earlier chunks, finished on its own: the chunk itself is not copied.
        const end = text.indexOf('\n');
        if (end === -1) {
          pending.push(text);
          continue;
        }
        pending.push(text.slice(0, end));
        const joined = pending.join('');
        pending = [];
        const verdict = take(joined, 0, joined.length, true);
        if (verdict) return verdict;
        start = end + 1;
      }
      for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
        const verdict = take(text, start, end, true);
        start = end + 1;
        if (verdict) return verdict;
        if (++count % 256 === 0 && performance.now() - sliceStart > sliceMs) {
          if (onProgress && total) onProgress(Math.min(1, (before - size + (size * start) / text.length) / total));
          await yieldToPage();
          if (signal?.aborted) return cancelled();
          sliceStart = performance.now();
        }
      }
      if (start < text.length) pending.push(text.slice(start));
    }
  } finally {
    // Stopped early (a bad line, an abort): let the source go (a stream cancels its download).
    if (!finished) await chunks.return?.();
  }
  const last = pending.join('') + decoder.decode();
  if (last !== '') {
    const verdict = take(last, 0, last.length, false);
    if (verdict) return verdict;
  }
  onProgress?.(1);
  if (entries.length === 0) return empty(name);
  return { ok: true, entries };
}

const empty = (name: string): LoadResult => ({ ok: false, message: `${name}: the recording is empty (no entries)` });
