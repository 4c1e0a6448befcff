import type { SafetyMachine } from '../safety/createSafetyMachine.js';
import { summariseContext, type ContextSummary, type RecordingEntry } from '../safety/RecordingEntry.js';
import type { SafetyContext } from '../safety/SafetyContext.js';
import { createSafetySession, restoreSafetySession } from '../safety/SafetySession.js';
import type { SafetySession } from '../safety/SafetySessionTypes.js';
import type { SessionState } from '../safety/toolKind.js';
import { applyCall } from './applyCall.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import { createReplayer, type ReplayDivergence, type ReplayProtocol } from '../core/createReplayer.js';

/**
 * Where a replay did something other than what was recorded: `index` is the entry's 0-based place in
 * the replayed list (in a stream: among its entries, blank lines not counted).
 */
export type Divergence = ReplayDivergence<
  'decision' | 'reasonCode' | 'wouldBlock' | 'before' | 'after' | 'result' | 'context' | 'error'
>;

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
  /**
   * Sessions kept running at once; the one least recently replayed beyond it
   * is parked as its persisted JSON (a few hundred bytes) and restored when its
   * next entry comes. Bounds the memory of a file of many sessions. Default 1000.
   */
  maxLiveSessions?: number;
}

/** The options each replay takes: a misspelt one is refused, never a silent default. */
export const REPLAYER_OPTION_KEYS = keysOf<RecordingReplayerOptions>({
  machine: true,
  keepDivergences: true,
  onDivergence: true,
  maxLiveSessions: true,
});

/** Replays entries one at a time, as they arrive: see {@link createRecordingReplayer}. */
export interface RecordingReplayer {
  /** Replays the next entry. */
  push(entry: RecordingEntry): void;
  /** Entries replayed so far. */
  readonly count: number;
  /** Divergences found so far, all of them (the result keeps the first `keepDivergences`). */
  readonly divergenceCount: number;
  /** Sessions running now (at most `maxLiveSessions`; the others are parked as snapshots). */
  readonly running: number;
  /** The replay so far, as {@link replayRecording} reports it. */
  result(): ReplayResult;
}

/** How a safety recording replays: its entries are the session's API calls, each performed again. */
function safetyReplay(
  machine: SafetyMachine | undefined,
): ReplayProtocol<SafetySession, RecordingEntry, Divergence['field']> {
  // A replay re-decides what was recorded: advice for the live caller (onWarning) is not for it.
  const quiet = () => {};
  const optionsOf = (o: { id: string; now: () => number }) =>
    machine ? { ...o, machine, onWarning: quiet } : { ...o, onWarning: quiet };
  return {
    start: (entry, o) => {
      const call = entry.call;
      if (call.type === 'create') return createSafetySession({ ...optionsOf(o), ...call.config });
      if (call.type === 'restore') return restoreSafetySession(call.snapshot, optionsOf(o));
      return undefined;
    },
    // A recording that starts mid-session (a cut file): replay from a fresh default session.
    orphan: (_entry, o) => createSafetySession(optionsOf(o)),
    step: (session, entry, diverge) => {
      const outcome = applyCall(session, entry.call);
      if (outcome.decision !== entry.decision) diverge('decision', entry.decision, outcome.decision);
      if (outcome.reasonCode !== entry.reasonCode) diverge('reasonCode', entry.reasonCode, outcome.reasonCode);
      if (outcome.result !== entry.result) diverge('result', entry.result, outcome.result);
      if (outcome.wouldBlock !== entry.wouldBlock) diverge('wouldBlock', entry.wouldBlock, outcome.wouldBlock);
    },
    contextMatches: (session, entry) => contextMatches(session.context, entry.context),
    summary: (session) => summariseContext(session.context),
    persist: (session) => session.persist(),
    restore: (snapshot, o) => restoreSafetySession(snapshot, optionsOf(o)),
  };
}

/**
 * The replayer behind {@link replayRecording} and
 * {@link replayRecordingStream}, for entries that arrive one at a time (a
 * live feed, a reader of your own): each `push` runs the entry through the
 * current machine (or `options.machine`) with the recorded clock, one real
 * session per recorded session, and notes its divergences. Memory grows with
 * the number of recorded sessions (a parked snapshot each beyond
 * `maxLiveSessions` running ones) and kept divergences, not with the entries.
 *
 * @example
 * const replayer = createRecordingReplayer({ onDivergence: (d) => console.log(d) });
 * for (const entry of entries) replayer.push(entry);
 * replayer.result().final; // 'RESOLVING'
 */
export function createRecordingReplayer(options: RecordingReplayerOptions = {}): RecordingReplayer {
  refuseUnknownOptions('createRecordingReplayer', options, REPLAYER_OPTION_KEYS);
  const replayer = createReplayer(safetyReplay(options.machine), options);
  return Object.assign(replayer, {
    result: (): ReplayResult => ({
      final: (replayer.last?.state ?? 'RESOLVING') as SessionState,
      sessions: replayer.sessions() as Record<string, SessionState>,
      divergences: replayer.divergences(),
    }),
  });
}
