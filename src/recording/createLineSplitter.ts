import { RecordingParseError } from './RecordingParseError.js';

/*
 * The one line loop of recordings: `parseRecording` (a string),
 * `replayRecordingStream` (chunks as they arrive) and the app's loader (a
 * download, in slices between frames) all push their text through it.
 */

/** Text of a recording as it arrives: strings, or UTF-8 bytes (a Node `Buffer`, a web stream's `Uint8Array`). */
export type RecordingChunk = string | Uint8Array;

/**
 * The longest line a reader takes by default, in characters (about bytes, for
 * JSON): a recording entry is well under a kilobyte, so a longer line is a
 * damaged or hostile file, refused before it is held whole or parsed.
 */
export const MAX_LINE_LENGTH = 1024 * 1024;

/**
 * Told every line (blank ones too) with its 1-based number, without its `\n`
 * or `\r\n` (and without a byte-order mark at the start of the text);
 * `terminated` is false for a last line with no newline; `width` is the
 * line's length in the text, terminator included. Return `false` to stop.
 */
export type OnLine = (raw: string, line: number, terminated: boolean, width: number) => boolean | void;

export interface LineSplitterOptions {
  /** Refuse a line longer than this many characters. Default {@link MAX_LINE_LENGTH}. */
  maxLineLength?: number;
}

/** Lines out of chunks pushed in: see {@link createLineSplitter}. */
export interface LineSplitter {
  /** Splits the next chunk; false once `onLine` has asked to stop (the rest is ignored). */
  push(chunk: RecordingChunk): boolean;
  /** The text is over: the partial last line (if any) goes out as not terminated. */
  end(): boolean;
  /** Lines told so far. */
  readonly lines: number;
}

/**
 * Splits text arriving in chunks (cut anywhere, even inside a line or a UTF-8
 * character) into lines, holding only the partial line after the last
 * newline. Byte chunks are cut on the newline byte (never part of a
 * multi-byte character) and decoded a run of whole lines at a time. A
 * byte-order mark at the start of the text is dropped. A line longer than
 * `maxLineLength` throws a {@link RecordingParseError} naming it, as soon as
 * that much of it has arrived (a hostile file is never held whole).
 *
 * @example
 * const splitter = createLineSplitter((raw, line) => console.log(line, raw));
 * splitter.push('{"a":1}\n{"b"');
 * splitter.push(':2}\n');
 * splitter.end(); // logs 1 {"a":1}, then 2 {"b":2}
 */
export function createLineSplitter(onLine: OnLine, options: LineSplitterOptions = {}): LineSplitter {
  const max = options.maxLineLength ?? MAX_LINE_LENGTH;
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true }); // the BOM is dropped below, for strings and bytes alike
  let n = 0;
  let stopped = false;
  let atStart = true;
  // The partial line after the last newline, as the pieces it arrived in (joined once its newline comes, so a
  // line longer than a chunk costs one copy, not one per chunk). Only one of the two is ever non-empty.
  let texts: string[] = [];
  let textLength = 0;
  let bytes: Uint8Array[] = [];
  let byteLength = 0;

  const tooLong = (line: number) =>
    new RecordingParseError(
      `line ${line}: longer than ${max} characters (the line length limit); not read`,
      line,
      false,
      [],
    );
  const emit = (raw: string, terminated: boolean, width: number) => {
    n++;
    if (atStart) {
      atStart = false;
      if (raw.charCodeAt(0) === 0xfeff) raw = raw.slice(1);
    }
    if (raw.length > max) throw tooLong(n);
    if (onLine(raw, n, terminated, width) === false) stopped = true;
  };
  // Every line of `text`; the last one only if `final` (otherwise it is returned, to be continued).
  const lines = (text: string, final: boolean): string => {
    let start = 0;
    while (!stopped) {
      const end = text.indexOf('\n', start);
      if (end === -1) {
        if (!final) return text.slice(start);
        if (start < text.length) emit(stripCR(text, start, text.length), false, text.length - start);
        return '';
      }
      emit(stripCR(text, start, end), true, end + 1 - start);
      start = end + 1;
    }
    return '';
  };
  const decode = (b: Uint8Array) =>
    isAscii !== undefined && b instanceof Buffer_ && isAscii(b) ? (b as Buffer).toString('latin1') : utf8.decode(b);
  const pendingText = () => (bytes.length ? decode(concatBytes(bytes)) : texts.join(''));
  const hold = (piece: string | Uint8Array) => {
    if (typeof piece === 'string') {
      texts.push(piece);
      textLength += piece.length;
    } else {
      bytes.push(piece);
      byteLength += piece.length;
    }
    // UTF-8 takes at least one byte a character: more bytes than that are more characters only if ASCII-heavy;
    // checked on the decoded text when the line completes, and here as soon as the bytes alone exceed 4× the limit.
    if (textLength > max || byteLength > 4 * max) throw tooLong(n + 1);
  };
  const clear = () => {
    texts = [];
    bytes = [];
    textLength = 0;
    byteLength = 0;
  };

  const pushString = (chunk: string) => {
    let from = 0;
    if (bytes.length) {
      const text = pendingText();
      clear();
      hold(text);
    }
    if (texts.length) {
      const first = chunk.indexOf('\n');
      if (first === -1) {
        hold(chunk);
        return;
      }
      texts.push(chunk.slice(0, first + 1));
      const joined = texts.join('');
      clear();
      lines(joined, false);
      from = first + 1;
    }
    const rest = lines(from === 0 ? chunk : chunk.slice(from), false);
    if (rest !== '') hold(rest);
  };

  const pushBytes = (chunk: Uint8Array) => {
    let from = 0;
    if (texts.length) {
      const pending = new TextEncoder().encode(texts.join(''));
      clear();
      hold(pending);
    }
    if (bytes.length) {
      // Finish the partial line with the bytes up to this chunk's first newline.
      const first = chunk.indexOf(10);
      if (first === -1) {
        hold(chunk.slice()); // a copy: the source may reuse its buffer
        return;
      }
      bytes.push(chunk.subarray(0, first + 1));
      const joined = decode(concatBytes(bytes));
      clear();
      lines(joined, false);
      from = first + 1;
    }
    const last = chunk.lastIndexOf(10);
    if (last >= from && !stopped) {
      // Every line up to the chunk's last newline, decoded in one go.
      lines(decode(chunk.subarray(from, last + 1)), false);
      from = last + 1;
    }
    if (from < chunk.length && !stopped) hold(chunk.slice(from));
  };

  return {
    push(chunk) {
      if (stopped) return false;
      if (typeof chunk === 'string') pushString(chunk);
      else if (chunk instanceof Uint8Array) pushBytes(chunk);
      else throw new TypeError(`expected the recording's text as strings or bytes, got ${typeof chunk}`);
      return !stopped;
    },
    end() {
      if (stopped) return false;
      const text = pendingText();
      clear();
      lines(text, true);
      return !stopped;
    },
    get lines() {
      return n;
    },
  };
}

/**
 * Calls `onLine` for every line of text arriving in chunks, through
 * {@link createLineSplitter}; resolves with the number of lines.
 *
 * @example
 * const lines = await forEachChunkLine(createReadStream('recordings/two-writes-one-batch.jsonl'), (raw, n) => console.log(n, raw));
 */
export async function forEachChunkLine(
  source: AsyncIterable<RecordingChunk> | Iterable<RecordingChunk>,
  onLine: OnLine,
  options: LineSplitterOptions = {},
): Promise<number> {
  const splitter = createLineSplitter(onLine, options);
  for await (const chunk of source) if (!splitter.push(chunk)) return splitter.lines;
  splitter.end();
  return splitter.lines;
}

// Node's ASCII check and Buffer, when running in Node (this module also runs in the browser app).
const nodeBuffer = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:buffer') as typeof import('node:buffer') | undefined;
const isAscii = nodeBuffer?.isAscii;
const Buffer_ = nodeBuffer?.Buffer ?? Uint8Array;

function stripCR(text: string, start: number, end: number): string {
  return end > start && text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
}

function concatBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
