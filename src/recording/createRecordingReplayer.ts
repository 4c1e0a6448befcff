import type { SafetyMachine } from '../safety/createSafetyMachine.js';
import { summariseContext, type ContextSummary, type RecordingEntry } from '../safety/RecordingEntry.js';
import type { SafetyContext } from '../safety/SafetyContext.js';
import { createSafetySession, restoreSafetySession } from '../safety/SafetySession.js';
import type { SafetySession } from '../safety/SafetySessionTypes.js';
import type { SessionState } from '../safety/toolKind.js';
import { applyCall, type CallOutcome } from './applyCall.js';

/** Where a replay did something other than what was recorded. */
export interface Divergence {
  /** 0-based index of the entry in the replayed list (in a stream: among its entries, blank lines not counted). */
  index: number;
  session: string;
  seq: number;
  field: 'decision' | 'reasonCode' | 'wouldBlock' | 'before' | 'after' | 'result' | 'context' | 'error';
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
  const keep = options.keepDivergences ?? 1000;
  const { machine, onDivergence } = options;
  let clock = 0;
  const now = () => clock;
  const maxLive = Math.max(1, options.maxLiveSessions ?? 1000);
  /**
   * Running sessions, in the order they became live, each with a mark set when replayed since it was
   * last passed over: eviction is second chance (CLOCK), an LRU that needs no move per entry (moving a
   * session to the back of the map on every entry of an interleaved file was a tenth of a replay).
   */
  const live = new Map<string, { session: SafetySession; used: boolean }>();
  /** Sessions parked beyond maxLive: their persisted JSON without the id. */
  const parked = new Map<string, string>();
  /**
   * The snapshots parked lately, each text once: sessions parked in the same state (every
   * session of a file of one-line sessions) share one string instead of holding a copy each.
   */
  const recent = new Map<string, string>();
  const snapshotOf = (session: SafetySession): string => {
    const { id: _id, ...rest } = session.persist();
    const text = JSON.stringify(rest);
    const shared = recent.get(text);
    if (shared !== undefined) return shared;
    recent.set(text, text);
    if (recent.size > 64) recent.delete(recent.keys().next().value!);
    return text;
  };
  /** Every session seen, in order of appearance, with its state when parked. */
  const seen = new Map<string, SessionState>();
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

  const keepLive = (id: string, session: SafetySession) => {
    live.delete(id);
    live.set(id, { session, used: true });
    parked.delete(id);
    if (!seen.has(id)) seen.set(id, session.state);
    while (live.size > maxLive) {
      const [oldId, old] = live.entries().next().value!;
      live.delete(oldId);
      if (old.used) {
        // Replayed since it was last passed over: a second chance, at the back.
        old.used = false;
        live.set(oldId, old);
        continue;
      }
      parked.set(oldId, snapshotOf(old.session));
      seen.set(oldId, old.session.state);
    }
  };
  /**
   * Parks a session just created or restored at once: most recordings continue it at the next
   * entry (one restore), and a file of many short sessions then never holds a thousand running
   * sessions that survive long enough to fill the old generation with garbage.
   */
  const park = (id: string, session: SafetySession) => {
    live.delete(id);
    parked.set(id, snapshotOf(session));
    seen.set(id, session.state);
  };
  /** The running session of `id`: live, or restored from where it was parked. */
  const find = (id: string): SafetySession | undefined => {
    const running = live.get(id);
    if (running !== undefined) {
      running.used = true;
      return running.session;
    }
    const snapshot = parked.get(id);
    if (snapshot === undefined) return undefined;
    const session = restoreSafetySession({ ...(JSON.parse(snapshot) as object), id }, sessionOptions(id));
    keepLive(id, session);
    return session;
  };

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
      keepLive(entry.session, session);
      last = session;
      if (session.state !== entry.after) diverge(entry, 'after', entry.after, session.state);
      park(entry.session, session);
      return;
    }
    let session = find(entry.session);
    if (session === undefined) {
      // A recording that starts mid-session (a cut file): replay from a fresh default session.
      session = createSafetySession(sessionOptions(entry.session));
      keepLive(entry.session, session);
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
    if (outcome.wouldBlock !== entry.wouldBlock) diverge(entry, 'wouldBlock', entry.wouldBlock, outcome.wouldBlock);
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
    get running() {
      return live.size;
    },
    result: () => ({
      final: last?.state ?? 'RESOLVING',
      sessions: Object.fromEntries([...seen].map(([id, state]) => [id, live.get(id)?.session.state ?? state])),
      divergences: [...divergences],
    }),
  };
}
