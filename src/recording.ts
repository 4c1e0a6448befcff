import type { SafetyMachine } from './createSafetyMachine.js';
import type { FSMBlockedError } from './FSMBlockedError.js';
import { formatPath } from './MachineDefinition.js';
import {
  RecordingEntry,
  summariseContext,
  type ContextSummary,
  type Decision,
  type RecordedBlockCode,
  type RecordedCall,
} from './RecordingEntry.js';
import type { SafetyContext } from './SafetyContext.js';
import { quickCheckEntry } from './quickCheckEntry.js';
import { createSafetySession, restoreSafetySession, type SafetySession } from './SafetySession.js';
import type { SessionState } from './toolKind.js';

/** Thrown by {@link parseRecording}; `entries` holds every complete, valid line before the bad one. */
export class RecordingParseError extends Error {
  readonly code = 'INVALID_RECORDING' as const;
  constructor(
    message: string,
    /** 1-based line number of the bad line. */
    readonly line: number,
    /** The last line was cut off mid-write (a crash while recording), not corrupted. */
    readonly torn: boolean,
    readonly entries: RecordingEntry[],
  ) {
    super(message);
    this.name = 'RecordingParseError';
  }
}

export interface ParseRecordingOptions {
  /** Return the complete lines before a torn last line instead of throwing. Default false. */
  allowTornTail?: boolean;
  /** Told about a torn last line that `allowTornTail` skipped. */
  onTornTail?: (line: number) => void;
}

/**
 * Parses one line of a recording.
 *
 * @returns the entry, or a message saying what is wrong with it.
 */
export function parseRecordingLine(
  text: string,
): { ok: true; entry: RecordingEntry } | { ok: false; json: boolean; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, json: false, message: notJSON(e) };
  }
  // The hot path: an entry the quick check passes is one zod accepts unchanged (zod still words every error).
  if (quickCheckEntry(value)) return { ok: true, entry: value as RecordingEntry };
  return zodEntry(value);
}

const notJSON = (e: unknown) => `not JSON (${(e as Error).message})`;

/** A parsed line as an entry, by zod, or zod's issues (each with its path) as one message. */
function zodEntry(value: unknown): { ok: true; entry: RecordingEntry } | { ok: false; json: true; message: string } {
  const parsed = RecordingEntry.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      json: true,
      message: parsed.error.issues.map((i) => `${formatPath(i.path) || '(entry)'}: ${i.message}`).join('; '),
    };
  }
  return { ok: true, entry: parsed.data };
}

/** One non-blank line of a recording's text. */
export interface RecordingLine {
  /** 1-based line number. */
  line: number;
  /** The line without its newline (and without a trailing `\r`). */
  raw: string;
  /** False for a last line with no newline: the one a crash can have cut off. */
  terminated: boolean;
  /** Where the next line starts in the text (for progress). */
  end: number;
}

/**
 * The non-blank lines of a JSON Lines text, with their numbers: the one line
 * loop that every reader of recordings (here, the app's sliced loader) shares.
 */
export function* recordingLines(text: string): Generator<RecordingLine> {
  let start = 0;
  let line = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    const terminated = end !== -1;
    if (!terminated) end = text.length;
    line += 1;
    const raw = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    if (raw.trim() !== '') yield { line, raw, terminated, end: start };
  }
}

/**
 * Parses a JSON Lines recording, validating every line. Blank lines are
 * skipped. A last line without its newline that is not valid JSON is a torn
 * write from a crash: it is reported as such, and with `allowTornTail` the
 * complete lines before it are returned.
 *
 * @throws {RecordingParseError} naming the line number and what is wrong.
 * @example
 * const entries = parseRecording(readFileSync('recordings/demo.jsonl', 'utf8'));
 */
export function parseRecording(text: string, options: ParseRecordingOptions = {}): RecordingEntry[] {
  if (typeof text !== 'string')
    throw new TypeError(`parseRecording: expected the recording's text, got ${typeof text}`);
  const entries: RecordingEntry[] = [];
  for (const { line, raw, terminated } of recordingLines(text)) {
    const entry = readLine(raw, line, terminated, entries.length, options, entries);
    if (entry === undefined) return entries; // a torn tail, skipped as asked
    entries.push(entry);
  }
  return entries;
}

/**
 * The judgement of one non-blank line that every reader shares: the entry;
 * `undefined` for a torn last line that `allowTornTail` skips; or a
 * {@link RecordingParseError} naming the line (`before` entries were valid).
 */
function readLine(
  raw: string,
  line: number,
  terminated: boolean,
  before: number,
  options: ParseRecordingOptions,
  kept: RecordingEntry[],
): RecordingEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    if (terminated) throw new RecordingParseError(`line ${line}: ${notJSON(e)}`, line, false, kept);
    // The last line, cut off with no newline and not JSON: a torn write.
    if (options.allowTornTail) {
      options.onTornTail?.(line);
      return undefined;
    }
    throw new RecordingParseError(
      `line ${line}: incomplete last line (torn write, likely a crash while recording); the ${before} complete lines before it are valid`,
      line,
      true,
      kept,
    );
  }
  // The usual line: nothing is allocated but the entry JSON.parse built.
  if (quickCheckEntry(value)) return value as RecordingEntry;
  const result = zodEntry(value);
  if (result.ok) return result.entry;
  throw new RecordingParseError(`line ${line}: ${result.message}`, line, false, kept);
}

/** Where a replay did something other than what was recorded. */
export interface Divergence {
  /** 0-based index of the entry in the replayed list (in a stream: among its entries, blank lines not counted). */
  index: number;
  session: string;
  seq: number;
  field: 'decision' | 'reasonCode' | 'before' | 'after' | 'result' | 'context' | 'error';
  recorded: unknown;
  actual: unknown;
}

export interface ReplayResult {
  /** State of the last session replayed (the recording's only session, usually) at its end. */
  final: SessionState;
  /** Final state of every session in the recording. */
  sessions: Record<string, SessionState>;
  divergences: Divergence[];
}

export interface ReplayOptions {
  /** Replay against this machine instead of the shipped one (an edited or mutated machine). */
  machine?: SafetyMachine;
}

/** What a session did with one call, as a recording would say it. */
export interface CallOutcome {
  decision: Decision;
  reasonCode?: RecordedBlockCode;
  result?: string;
  /** The block a check returned (the session's value, with its details). */
  blocked?: FSMBlockedError;
}

/**
 * Performs one recorded call on a session: the one place that maps a
 * recording's call vocabulary onto the session API (replays, playgrounds,
 * the model-based path tests).
 */
export function applyCall(session: SafetySession, call: RecordedCall): CallOutcome {
  // The session decides the outcome once and hands the same one to its recorder.
  return session.perform(call);
}

/**
 * Whether a session's context is what a recorded summary says: the test of
 * `summariseContext(context)` against the summary, field by field, without
 * building the summary (the replay's hot path builds one only on a divergence).
 */
function contextMatches(c: Readonly<SafetyContext>, s: ContextSummary): boolean {
  if (
    c.wroteThisEpisode !== s.wroteThisEpisode ||
    c.readAfterWrite !== s.readAfterWrite ||
    c.consecutiveVerifyBlocks !== s.consecutiveVerifyBlocks ||
    c.writeEpoch !== s.writeEpoch ||
    c.lastWriteTool !== s.lastWriteTool ||
    c.lastWriteAt !== s.lastWriteAt ||
    c.lastReadTool !== s.lastReadTool ||
    c.lastReadAt !== s.lastReadAt ||
    c.pendingRecoveries.length !== s.pendingRecoveries
  )
    return false;
  // inFlight and inFlightWrite, as summariseContext counts and finds them (the first write in the calls' order).
  let inFlight = 0;
  let writeId: string | undefined;
  for (const id in c.calls) {
    inFlight++;
    if (writeId === undefined && c.calls[id]!.kind === 'write') writeId = id;
  }
  if (inFlight !== s.inFlight) return false;
  const w = s.inFlightWrite;
  if (writeId === undefined || w === null) return writeId === undefined && w === null;
  const call = c.calls[writeId]!;
  return w.id === writeId && w.tool === call.tool && w.startedAt === call.startedAt;
}

export interface RecordingReplayerOptions extends ReplayOptions {
  /**
   * How many divergences to keep in the result; every one is counted in
   * `divergenceCount` and passed to `onDivergence`. Default 1000, so memory
   * stays bounded even when every entry diverges.
   */
  keepDivergences?: number;
  /** Told of every divergence as it is found, with the entry it is about. */
  onDivergence?: (divergence: Divergence, entry: RecordingEntry) => void;
}

/** Replays entries one at a time, as they arrive: see {@link createRecordingReplayer}. */
export interface RecordingReplayer {
  /** Replays the next entry. */
  push(entry: RecordingEntry): void;
  /** Entries replayed so far. */
  readonly count: number;
  /** Divergences found so far, all of them (the result keeps the first `keepDivergences`). */
  readonly divergenceCount: number;
  /** The replay so far, as {@link replayRecording} reports it. */
  result(): ReplayResult;
}

/**
 * The replayer behind {@link replayRecording} and
 * {@link replayRecordingStream}, for entries that arrive one at a time (a
 * live feed, a reader of your own): each `push` runs the entry through the
 * current machine (or `options.machine`) with the recorded clock, one real
 * session per recorded session, and notes its divergences. Memory grows with
 * the number of recorded sessions and kept divergences, not with the entries.
 *
 * @example
 * const replayer = createRecordingReplayer({ onDivergence: (d) => console.log(d) });
 * for (const entry of entries) replayer.push(entry);
 * replayer.result().final; // 'RESOLVING'
 */
export function createRecordingReplayer(options: RecordingReplayerOptions = {}): RecordingReplayer {
  const keep = options.keepDivergences ?? 1000;
  const { machine, onDivergence } = options;
  let clock = 0;
  const now = () => clock;
  const sessions = new Map<string, SafetySession>();
  const divergences: Divergence[] = [];
  let divergenceCount = 0;
  let last: SafetySession | undefined;
  let index = -1;

  // Nothing is allocated per entry unless it diverges: this is the loop a million-entry replay runs.
  const diverge = (entry: RecordingEntry, field: Divergence['field'], recorded: unknown, actual: unknown) => {
    divergenceCount++;
    const d: Divergence = { index, session: entry.session, seq: entry.seq, field, recorded, actual };
    if (divergences.length < keep) divergences.push(d);
    onDivergence?.(d, entry);
  };
  const sessionOptions = (id: string) => (machine ? { id, now, machine } : { id, now });

  const push = (entry: RecordingEntry) => {
    index++;
    clock = entry.at;
    const call = entry.call;
    if (call.type === 'create' || call.type === 'restore') {
      let session: SafetySession;
      if (call.type === 'create') session = createSafetySession({ ...sessionOptions(entry.session), ...call.config });
      else {
        try {
          session = restoreSafetySession(call.snapshot, sessionOptions(entry.session));
        } catch (e) {
          diverge(entry, 'error', null, (e as Error).message);
          return;
        }
      }
      sessions.set(entry.session, session);
      last = session;
      if (session.state !== entry.after) diverge(entry, 'after', entry.after, session.state);
      return;
    }
    let session = sessions.get(entry.session);
    if (session === undefined) {
      // A recording that starts mid-session (a cut file): replay from a fresh default session.
      session = createSafetySession(sessionOptions(entry.session));
      sessions.set(entry.session, session);
    }
    last = session;
    if (session.state !== entry.before) diverge(entry, 'before', entry.before, session.state);
    let outcome: CallOutcome;
    try {
      outcome = applyCall(session, call);
    } catch (e) {
      diverge(entry, 'error', null, (e as Error).message);
      return;
    }
    if (outcome.decision !== entry.decision) diverge(entry, 'decision', entry.decision, outcome.decision);
    if (outcome.reasonCode !== entry.reasonCode) diverge(entry, 'reasonCode', entry.reasonCode, outcome.reasonCode);
    if (outcome.result !== entry.result) diverge(entry, 'result', entry.result, outcome.result);
    if (session.state !== entry.after) diverge(entry, 'after', entry.after, session.state);
    if (!contextMatches(session.context, entry.context))
      diverge(entry, 'context', entry.context, summariseContext(session.context));
  };

  return {
    push,
    get count() {
      return index + 1;
    },
    get divergenceCount() {
      return divergenceCount;
    },
    result: () => ({
      final: last?.state ?? 'RESOLVING',
      sessions: Object.fromEntries([...sessions].map(([id, s]) => [id, s.state])),
      divergences: [...divergences],
    }),
  };
}

/**
 * Runs recorded entries through the current machine (or `options.machine`),
 * one real session per recorded session, with the recorded clock, and lists
 * every divergence: where the recorded decision, reason, state, result or
 * context differs from what the machine does now. For a recording too long to
 * hold in memory, stream it with {@link replayRecordingStream}.
 *
 * @example
 * const { final, divergences } = replayRecording(parseRecording(text));
 * if (divergences.length) console.log('the machine changed behaviour', divergences[0]);
 */
export function replayRecording(entries: RecordingEntry[], options: ReplayOptions = {}): ReplayResult {
  const replayer = createRecordingReplayer({ ...options, keepDivergences: Infinity });
  for (const entry of entries) replayer.push(entry);
  return replayer.result();
}

/** Text of a recording as it arrives: strings, or UTF-8 bytes (a Node `Buffer`, a web stream's `Uint8Array`). */
export type RecordingChunk = string | Uint8Array;

/**
 * Calls `onLine` for every line of text arriving in chunks (cut anywhere, even
 * inside a line or a UTF-8 character), with its 1-based number, without its
 * `\n` or `\r\n`; `terminated` is false for a last line with no newline.
 * Holds one chunk and the partial line after it. Byte chunks are cut on the
 * newline byte (never part of a multi-byte character) and decoded a run of
 * whole lines at a time.
 */
export async function forEachChunkLine(
  source: AsyncIterable<RecordingChunk> | Iterable<RecordingChunk>,
  onLine: (raw: string, line: number, terminated: boolean) => void,
): Promise<number> {
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true }); // keep a BOM, as reading the file whole would
  // Pure ASCII (the usual JSON Lines) decodes about three times faster as latin1, where Node offers the check.
  const decode = (bytes: Uint8Array) =>
    isAscii !== undefined && bytes instanceof Buffer_ && isAscii(bytes)
      ? (bytes as Buffer).toString('latin1')
      : utf8.decode(bytes);
  let n = 0;
  // Every line of `text`; the last one only if `final` (otherwise it is returned, to be continued).
  const lines = (text: string, final: boolean): string => {
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      if (end === -1) {
        if (!final) return text.slice(start);
        if (start < text.length) onLine(stripCR(text, start, text.length), ++n, false);
        return '';
      }
      onLine(stripCR(text, start, end), ++n, true);
      start = end + 1;
    }
  };
  // The partial line after the last newline, as the pieces it arrived in (joined once its newline comes, so a
  // line longer than a chunk costs one copy, not one per chunk). Only one of the two is ever non-empty.
  let texts: string[] = [];
  let bytes: Uint8Array[] = [];
  const pendingText = () => (bytes.length ? decode(concatBytes(bytes)) : texts.join(''));
  for await (const chunk of source) {
    if (typeof chunk === 'string') {
      let from = 0;
      if (bytes.length) texts = [pendingText()];
      bytes = [];
      if (texts.length) {
        const first = chunk.indexOf('\n');
        if (first === -1) {
          texts.push(chunk);
          continue;
        }
        texts.push(chunk.slice(0, first + 1));
        lines(texts.join(''), false);
        texts = [];
        from = first + 1;
      }
      const rest = lines(from === 0 ? chunk : chunk.slice(from), false);
      if (rest !== '') texts.push(rest);
      continue;
    }
    if (!(chunk instanceof Uint8Array))
      throw new TypeError(`expected the recording's text as strings or bytes, got ${typeof chunk}`);
    let from = 0;
    if (texts.length) bytes = [new TextEncoder().encode(texts.join(''))];
    texts = [];
    if (bytes.length) {
      // Finish the partial line with the bytes up to this chunk's first newline.
      const first = chunk.indexOf(10);
      if (first === -1) {
        bytes.push(chunk.slice()); // a copy: the source may reuse its buffer
        continue;
      }
      bytes.push(chunk.subarray(0, first + 1));
      lines(decode(concatBytes(bytes)), false);
      bytes = [];
      from = first + 1;
    }
    const last = chunk.lastIndexOf(10);
    if (last >= from) {
      // Every line up to the chunk's last newline, decoded in one go.
      lines(decode(chunk.subarray(from, last + 1)), false);
      from = last + 1;
    }
    if (from < chunk.length) bytes.push(chunk.slice(from));
  }
  lines(pendingText(), true);
  return n;
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
  await forEachChunkLine(source, (raw, line, terminated) => {
    if (isBlank(raw)) return;
    const entry = readLine(raw, line, terminated, replayer.count, parseOptions, none);
    if (entry === undefined) return;
    replayer.push(entry);
    if (onEntry) onEntry(replayer.count);
  });
  const result: ReplayStreamResult = {
    ...replayer.result(),
    count: replayer.count,
    divergenceCount: replayer.divergenceCount,
  };
  if (tornLine !== undefined) result.tornLine = tornLine;
  return result;
}

/** `raw.trim() === ''` without building a string for the usual line, which starts with `{`. */
function isBlank(raw: string): boolean {
  return raw.length === 0 || (raw.charCodeAt(0) !== 123 && raw.trim() === '');
}

/** A recorder that keeps entries in memory. */
export interface MemoryRecorder {
  readonly entries: RecordingEntry[];
  record(entry: RecordingEntry): void;
  /** The entries as JSON Lines text. */
  toJSONL(): string;
}

/**
 * @example
 * const recorder = createMemoryRecorder();
 * const session = createSafetySession({ recorder });
 * session.canFinalAnswer();
 * recorder.entries.length; // 2: create, canFinalAnswer
 */
export function createMemoryRecorder(): MemoryRecorder {
  const entries: RecordingEntry[] = [];
  return {
    entries,
    record: (entry) => void entries.push(entry),
    toJSONL: () => entries.map((e) => JSON.stringify(e) + '\n').join(''),
  };
}
