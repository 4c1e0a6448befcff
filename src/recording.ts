import type { SafetyMachine } from './createSafetyMachine.js';
import { formatPath } from './MachineDefinition.js';
import { RecordingEntry, summariseContext, type RecordedCall, type Decision } from './RecordingEntry.js';
import { createSafetySession, restoreSafetySession, type SafetySession } from './SafetySession.js';
import type { BlockReasonCode, SessionState } from './toolKind.js';

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
    return { ok: false, json: false, message: `not JSON (${(e as Error).message})` };
  }
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
    const result = parseRecordingLine(raw);
    if (result.ok) {
      entries.push(result.entry);
      continue;
    }
    if (!terminated && !result.json) {
      if (options.allowTornTail) {
        options.onTornTail?.(line);
        return entries;
      }
      throw new RecordingParseError(
        `line ${line}: incomplete last line (torn write, likely a crash while recording); the ${entries.length} complete lines before it are valid`,
        line,
        true,
        entries,
      );
    }
    throw new RecordingParseError(`line ${line}: ${result.message}`, line, false, entries);
  }
  return entries;
}

/** Where a replay did something other than what was recorded. */
export interface Divergence {
  /** 0-based index of the entry in the replayed list. */
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
  reasonCode?: BlockReasonCode;
  result?: string;
}

/**
 * Performs one recorded call on a session: the one place that maps a
 * recording's call vocabulary onto the session API (replays, playgrounds).
 */
export function applyCall(session: SafetySession, call: RecordedCall): CallOutcome {
  switch (call.type) {
    case 'canExecuteTool':
    case 'canFinalAnswer':
    case 'beginToolCall': {
      const blocked =
        call.type === 'canExecuteTool'
          ? session.canExecuteTool(call.kind, call.tool)
          : call.type === 'canFinalAnswer'
            ? session.canFinalAnswer()
            : session.beginToolCall({ id: call.id, kind: call.kind, tool: call.tool });
      return blocked ? { decision: 'blocked', reasonCode: blocked.reasonCode } : { decision: 'allowed' };
    }
    case 'endToolCall': {
      const known = Object.hasOwn(session.context.calls, call.id);
      session.endToolCall(
        call.verified === undefined
          ? { id: call.id, ok: call.ok }
          : { id: call.id, ok: call.ok, verified: call.verified },
      );
      return { decision: known ? 'applied' : 'ignored' };
    }
    case 'onToolSuccess':
      session.onToolSuccess(call.kind, call.tool);
      return { decision: 'applied' };
    case 'completeVerification':
      session.completeVerification();
      return { decision: 'applied' };
    case 'targetEstablished':
      session.targetEstablished();
      return { decision: 'applied' };
    case 'reset':
      session.reset();
      return { decision: 'applied' };
    case 'resetKeepProgress':
      session.resetKeepProgress();
      return { decision: 'applied' };
    case 'trackPendingRecovery':
      return { decision: 'applied', result: session.trackPendingRecovery(call.errorCode, call.tool) };
    case 'checkRecoverySuccess': {
      const taken = session.checkRecoverySuccess(call.tool);
      return taken ? { decision: 'applied', result: taken.recoveryId } : { decision: 'applied' };
    }
    case 'create':
    case 'restore':
      throw new Error(`applyCall: "${call.type}" starts a session; it is not a call on one`);
  }
}

const sameJSON = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Runs recorded entries through the current machine (or `options.machine`),
 * one real session per recorded session, with the recorded clock, and lists
 * every divergence: where the recorded decision, reason, state, result or
 * context differs from what the machine does now.
 *
 * @example
 * const { final, divergences } = replayRecording(parseRecording(text));
 * if (divergences.length) console.log('the machine changed behaviour', divergences[0]);
 */
export function replayRecording(entries: RecordingEntry[], options: ReplayOptions = {}): ReplayResult {
  let clock = 0;
  const now = () => clock;
  const sessions = new Map<string, SafetySession>();
  const divergences: Divergence[] = [];
  let last: SafetySession | undefined;

  entries.forEach((entry, index) => {
    clock = entry.at;
    const diverge = (field: Divergence['field'], recorded: unknown, actual: unknown) =>
      divergences.push({ index, session: entry.session, seq: entry.seq, field, recorded, actual });
    const base = { id: entry.session, now, ...(options.machine && { machine: options.machine }) };

    if (entry.call.type === 'create') {
      const session = createSafetySession({ ...base, ...entry.call.config });
      sessions.set(entry.session, session);
      last = session;
      if (session.state !== entry.after) diverge('after', entry.after, session.state);
      return;
    }
    if (entry.call.type === 'restore') {
      try {
        const session = restoreSafetySession(entry.call.snapshot, base);
        sessions.set(entry.session, session);
        last = session;
        if (session.state !== entry.after) diverge('after', entry.after, session.state);
      } catch (e) {
        diverge('error', null, (e as Error).message);
      }
      return;
    }
    let session = sessions.get(entry.session);
    if (!session) {
      // A recording that starts mid-session (a cut file): replay from a fresh default session.
      session = createSafetySession(base);
      sessions.set(entry.session, session);
    }
    last = session;
    if (session.state !== entry.before) diverge('before', entry.before, session.state);
    let outcome: CallOutcome;
    try {
      outcome = applyCall(session, entry.call);
    } catch (e) {
      diverge('error', null, (e as Error).message);
      return;
    }
    if (outcome.decision !== entry.decision) diverge('decision', entry.decision, outcome.decision);
    if (outcome.reasonCode !== entry.reasonCode) diverge('reasonCode', entry.reasonCode, outcome.reasonCode);
    if (outcome.result !== entry.result) diverge('result', entry.result, outcome.result);
    if (session.state !== entry.after) diverge('after', entry.after, session.state);
    const summary = summariseContext(session.context);
    if (!sameJSON(summary, entry.context)) diverge('context', entry.context, summary);
  });

  return {
    final: last?.state ?? 'RESOLVING',
    sessions: Object.fromEntries([...sessions].map(([id, s]) => [id, s.state])),
    divergences,
  };
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
