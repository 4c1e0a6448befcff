import type { ContextSummary, RecordingEntry } from '../src/RecordingEntry.js';
import { summariseContext } from '../src/RecordingEntry.js';
import {
  applyCall,
  parseRecordingLine,
  type CallOutcome,
  type Divergence,
  type ReplayOptions,
  type ReplayResult,
} from '../src/recording.js';
import { createSafetySession, restoreSafetySession, type SafetySession } from '../src/SafetySession.js';
import type { SessionState } from '../src/toolKind.js';
import { forEachLine } from './forEachLine.js';

/*
 * A streaming replayer: the same checks as `replayRecording` (src/recording.ts),
 * one entry at a time, so a recording of any length replays in flat memory
 * (one live session per recorded session, the first divergences kept).
 * `replayRecording` takes the whole array; this lives in the benchmark until
 * the library has a streaming entry point of its own.
 */

export interface StreamReplayer {
  /** Replays the next entry. */
  push(entry: RecordingEntry): void;
  /** Entries replayed so far. */
  readonly count: number;
  /** Divergences found so far (all of them are counted; the first `keepDivergences` are kept). */
  readonly divergenceCount: number;
  result(): ReplayResult;
}

export interface StreamReplayOptions extends ReplayOptions {
  /** How many divergences to keep in the result. Default 1000. */
  keepDivergences?: number;
  /** Called after each entry replayed, with the count so far (progress, memory sampling). */
  onEntry?: (count: number) => void;
}

/** The same test as `replayRecording`'s JSON comparison of summaries, field by field (no strings built). */
function sameSummary(a: ContextSummary, b: ContextSummary): boolean {
  const aw = a.inFlightWrite;
  const bw = b.inFlightWrite;
  return (
    a.wroteThisEpisode === b.wroteThisEpisode &&
    a.readAfterWrite === b.readAfterWrite &&
    a.consecutiveVerifyBlocks === b.consecutiveVerifyBlocks &&
    a.writeEpoch === b.writeEpoch &&
    a.inFlight === b.inFlight &&
    (aw === bw ||
      (aw !== null && bw !== null && aw.id === bw.id && aw.tool === bw.tool && aw.startedAt === bw.startedAt)) &&
    a.lastWriteTool === b.lastWriteTool &&
    a.lastWriteAt === b.lastWriteAt &&
    a.lastReadTool === b.lastReadTool &&
    a.lastReadAt === b.lastReadAt &&
    a.pendingRecoveries === b.pendingRecoveries
  );
}

/**
 * Creates a replayer that runs entries, as they arrive, through the current
 * machine (or `options.machine`) with the recorded clock, one real session
 * per recorded session, and notes every divergence exactly as
 * `replayRecording` does.
 */
export function createStreamReplayer(options: StreamReplayOptions = {}): StreamReplayer {
  const keep = options.keepDivergences ?? 1000;
  let clock = 0;
  const now = () => clock;
  const sessions = new Map<string, SafetySession>();
  const divergences: Divergence[] = [];
  let divergenceCount = 0;
  let last: SafetySession | undefined;
  let index = -1;

  // No closure is created per entry: this runs a million times a second if the session allows it.
  const diverge = (entry: RecordingEntry, field: Divergence['field'], recorded: unknown, actual: unknown) => {
    divergenceCount++;
    if (divergences.length < keep) {
      divergences.push({ index, session: entry.session, seq: entry.seq, field, recorded, actual });
    }
  };
  const options_ = (id: string) => ({ id, now, ...(options.machine && { machine: options.machine }) });

  const push = (entry: RecordingEntry) => {
    index++;
    clock = entry.at;
    const call = entry.call;
    if (call.type === 'create' || call.type === 'restore') {
      let session: SafetySession;
      try {
        session =
          call.type === 'create'
            ? createSafetySession({ ...options_(entry.session), ...call.config })
            : restoreSafetySession(call.snapshot, options_(entry.session));
      } catch (e) {
        if (call.type === 'create') throw e;
        diverge(entry, 'error', null, (e as Error).message);
        return;
      }
      sessions.set(entry.session, session);
      last = session;
      if (session.state !== entry.after) diverge(entry, 'after', entry.after, session.state);
      return;
    }
    let session = sessions.get(entry.session);
    if (!session) {
      // A recording that starts mid-session (a cut file): replay from a fresh default session.
      session = createSafetySession(options_(entry.session));
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
    const summary = summariseContext(session.context);
    if (!sameSummary(summary, entry.context)) diverge(entry, 'context', entry.context, summary);
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
      final: (last?.state ?? 'RESOLVING') as SessionState,
      sessions: Object.fromEntries([...sessions].map(([id, s]) => [id, s.state])),
      divergences: [...divergences],
    }),
  };
}

export interface FileReplayResult extends ReplayResult {
  events: number;
  divergenceCount: number;
  /** 1-based number of a torn (unterminated, not JSON) last line that was skipped. */
  tornLine?: number;
}

/**
 * Replays a JSON Lines recording file, streamed line by line through
 * `parseRecordingLine` and {@link createStreamReplayer}: memory stays flat
 * whatever the file's length. Blank lines are skipped; a torn last line is
 * skipped and reported; any other bad line throws, naming its number.
 */
export async function replayRecordingFile(path: string, options: StreamReplayOptions = {}): Promise<FileReplayResult> {
  const replayer = createStreamReplayer(options);
  let tornLine: number | undefined;
  await forEachLine(path, (line, n, terminated) => {
    if (line.length === 0 || line.trim() === '') return;
    const parsed = parseRecordingLine(line);
    if (parsed.ok) {
      replayer.push(parsed.entry);
      options.onEntry?.(replayer.count);
      return;
    }
    if (!terminated && !parsed.json) tornLine = n;
    else throw new Error(`${path}: line ${n}: ${parsed.message}`);
  });
  return {
    ...replayer.result(),
    events: replayer.count,
    divergenceCount: replayer.divergenceCount,
    ...(tornLine !== undefined && { tornLine }),
  };
}
