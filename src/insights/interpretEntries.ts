import type { ContextSummary, RecordedBlockCode, RecordingEntry, SessionState, ToolKind } from '../index.js';

/*
 * Reads a stream of recording entries (several sessions, interleaved) and
 * says what each one means for the gate's observability: which tool it is
 * about (an end names only its call id), whether it is a tool-call decision,
 * a final-answer check or a loop block, which earlier blocked calls a success
 * corrected, and when a write landed and was verified. The OpenTelemetry
 * recorder, `stats`, `/metrics` and the app's Insights all read entries
 * through this one interpreter, so they count the same things.
 */

/** A call begun through the lifecycle API and not ended yet. */
export interface OpenCall {
  session: string;
  id: string;
  tool: string;
  kind: ToolKind;
  seq: number;
  at: number;
  /** The state when the call began. */
  state: SessionState;
}

/** A blocked tool call that a later success of the same tool corrected. */
export interface CorrectedBlock {
  reasonCode: RecordedBlockCode;
  tool: string;
  /** The blocked entry's position in its session. */
  seq: number;
  at: number;
}

/** A landed write, and when it was verified. */
export interface WriteLanding {
  /** The write's tool, when the context names it. */
  tool: string | null;
  seq: number;
  at: number;
}

/** What one entry means. Fields are absent when they do not apply. */
export interface EntryFacts {
  entry: RecordingEntry;
  /** The tool the entry is about (for an end: the tool its call began with). */
  tool?: string;
  kind?: ToolKind;
  /** A decision on a tool call by the machine (`canExecuteTool`, `beginToolCall`). */
  toolDecision?: { decision: 'allowed' | 'blocked'; reasonCode?: RecordedBlockCode };
  /** A final-answer check (`canFinalAnswer`). */
  finalAnswer?: { decision: 'allowed' | 'blocked'; reasonCode?: RecordedBlockCode };
  /** The tool loop refused the call before the machine saw it (`recordLoopBlock`). */
  loopBlock?: { reasonCode: RecordedBlockCode };
  /** A lifecycle call began (allowed `beginToolCall`): a span starts here. */
  began?: OpenCall;
  /** A lifecycle call ended; `call` is its begin. */
  ended?: { call: OpenCall; ok: boolean; verified?: boolean };
  /** A call another gateway left orphaned was ended here (as unknown): the holder whose claim ran out. */
  orphaned?: { by: string };
  /** Lifecycle calls dropped without an end (a `reset` clears the calls in flight). */
  dropped: readonly OpenCall[];
  /** A tool call succeeded (`endToolCall` ok, or `onToolSuccess`). */
  succeeded: boolean;
  /** Blocked calls of the same tool, earlier in the session, this success corrected. */
  corrected: readonly CorrectedBlock[];
  /** A write landed at this entry. */
  landed?: WriteLanding;
  /** The session's first entry seen (a restore) already waits for a write's verification: that write. */
  inherited?: WriteLanding;
  /** The write waiting for evidence got it at this entry. */
  verified?: { write: WriteLanding; ms: number };
  /** A write left unverified for good here: another write landed over it, or the session was reset. */
  abandoned?: WriteLanding;
}

interface SessionTrack {
  calls: Map<string, OpenCall>;
  /** Per tool: its blocked calls not yet followed by a success. */
  blocks: Map<string, CorrectedBlock[]>;
  context?: ContextSummary;
  pending?: WriteLanding;
}

export interface EntryInterpreterOptions {
  /**
   * Sessions tracked at once; beyond it the least recently seen is forgotten
   * (its calls in flight and its write waiting for verification come back
   * from {@link EntryInterpreter.evicted}).
   * Default 10,000.
   */
  maxSessions?: number;
}

/** See {@link createEntryInterpreter}. */
export interface EntryInterpreter {
  /** The facts of the next entry. `source` separates sessions of the same id from different files. */
  observe(entry: RecordingEntry, source?: string): EntryFacts;
  /**
   * What the sessions forgotten since the last call left open: their calls in
   * flight (to end their spans) and how many writes they left waiting for
   * verification (to take off a gauge). Clears the list.
   */
  evicted(): { calls: OpenCall[]; unverifiedWrites: number };
  /**
   * Forgets a session that ended (its agent is gone): what it left open, as
   * {@link evicted} says it for a forgotten session. If entries of it come
   * again, it is tracked afresh (a write still waiting counts again).
   */
  end(session: string, source?: string): { calls: OpenCall[]; unverifiedWrites: number };
  /** Sessions tracked now. */
  readonly size: number;
}

const NO_CALLS: readonly OpenCall[] = [];
const NO_BLOCKS: readonly CorrectedBlock[] = [];

/**
 * Creates the interpreter of a stream of entries.
 *
 * @example
 * const interpreter = createEntryInterpreter();
 * for (const entry of parseRecording(text)) {
 *   const facts = interpreter.observe(entry);
 *   if (facts.verified) console.log(`verified after ${facts.verified.ms} ms`);
 * }
 */
export function createEntryInterpreter(options: EntryInterpreterOptions = {}): EntryInterpreter {
  const maxSessions = options.maxSessions ?? 10_000;
  const sessions = new Map<string, SessionTrack>();
  let evictedCalls: OpenCall[] = [];
  let evictedWrites = 0;

  function trackOf(key: string): SessionTrack {
    let track = sessions.get(key);
    if (track) {
      // Re-inserted: the map's order is the eviction order.
      sessions.delete(key);
      sessions.set(key, track);
      return track;
    }
    track = { calls: new Map(), blocks: new Map() };
    sessions.set(key, track);
    while (sessions.size > maxSessions) {
      const [oldest, gone] = sessions.entries().next().value!;
      sessions.delete(oldest);
      evictedCalls.push(...gone.calls.values());
      if (gone.pending) evictedWrites += 1;
    }
    return track;
  }

  const keyOf = (session: string, source: string) => (source === '' ? session : `${source}\u0000${session}`);

  function observe(entry: RecordingEntry, source = ''): EntryFacts {
    const track = trackOf(keyOf(entry.session, source));
    const { call } = entry;
    const facts: EntryFacts = { entry, dropped: NO_CALLS, succeeded: false, corrected: NO_BLOCKS };
    const decided = entry.decision === 'allowed' || entry.decision === 'blocked' ? entry.decision : undefined;
    const reason = entry.reasonCode !== undefined ? { reasonCode: entry.reasonCode } : {};

    switch (call.type) {
      case 'canExecuteTool':
      case 'beginToolCall':
        facts.tool = call.tool;
        facts.kind = call.kind;
        if (decided) facts.toolDecision = { decision: decided, ...reason };
        if (call.type === 'beginToolCall' && decided === 'allowed') {
          const open: OpenCall = {
            session: entry.session,
            id: call.id,
            tool: call.tool,
            kind: call.kind,
            seq: entry.seq,
            at: entry.at,
            state: entry.before,
          };
          track.calls.set(call.id, open);
          facts.began = open;
        }
        break;
      case 'recordLoopBlock':
        facts.tool = call.tool;
        facts.kind = call.kind;
        facts.loopBlock = { reasonCode: entry.reasonCode ?? call.code };
        break;
      case 'canFinalAnswer':
        if (decided) facts.finalAnswer = { decision: decided, ...reason };
        break;
      case 'endToolCall': {
        const open = track.calls.get(call.id);
        // Its begin may be in another process's stream: counted all the same, by tool when known.
        if (call.orphanedBy !== undefined && entry.decision !== 'ignored') facts.orphaned = { by: call.orphanedBy };
        if (open && entry.decision !== 'ignored') {
          track.calls.delete(call.id);
          facts.tool = open.tool;
          facts.kind = open.kind;
          facts.ended = { call: open, ok: call.ok, ...(call.verified !== undefined && { verified: call.verified }) };
          facts.succeeded = call.ok;
        }
        break;
      }
      case 'onToolSuccess':
        facts.tool = call.tool;
        facts.kind = call.kind;
        facts.succeeded = true;
        break;
      case 'reset':
        if (track.calls.size > 0) {
          facts.dropped = [...track.calls.values()];
          track.calls.clear();
        }
        break;
      default:
        break;
    }

    // Self-correction: a blocked call is corrected by a later success of the same tool.
    if (entry.decision === 'blocked' && facts.tool !== undefined && entry.reasonCode !== undefined) {
      const list = track.blocks.get(facts.tool);
      const block: CorrectedBlock = { reasonCode: entry.reasonCode, tool: facts.tool, seq: entry.seq, at: entry.at };
      if (list) list.push(block);
      else track.blocks.set(facts.tool, [block]);
    } else if (facts.succeeded && facts.tool !== undefined) {
      const list = track.blocks.get(facts.tool);
      if (list) {
        track.blocks.delete(facts.tool);
        facts.corrected = list;
      }
    }

    // Writes: the write epoch moves when one lands; readAfterWrite turning on verifies it.
    const before = track.context;
    const after = entry.context;
    if (before === undefined) {
      // The first entry seen (a create, or a restore mid-way): a write already waiting counts from when it landed.
      if (entry.after === 'VERIFYING' && !after.readAfterWrite && after.lastWriteAt !== null) {
        track.pending = { tool: after.lastWriteTool, seq: entry.seq, at: after.lastWriteAt };
        facts.inherited = track.pending;
      }
    } else if (after.writeEpoch > before.writeEpoch) {
      if (track.pending) facts.abandoned = track.pending;
      const landed: WriteLanding = { tool: after.lastWriteTool, seq: entry.seq, at: after.lastWriteAt ?? entry.at };
      facts.landed = landed;
      track.pending = landed;
    } else if (after.writeEpoch < before.writeEpoch && track.pending) {
      // A reset: the write will never be verified.
      facts.abandoned = track.pending;
      track.pending = undefined;
    }
    if (track.pending && after.readAfterWrite) {
      facts.verified = { write: track.pending, ms: Math.max(0, entry.at - track.pending.at) };
      track.pending = undefined;
    }
    track.context = after;
    return facts;
  }

  return {
    observe,
    evicted() {
      const out = { calls: evictedCalls, unverifiedWrites: evictedWrites };
      evictedCalls = [];
      evictedWrites = 0;
      return out;
    },
    end(session, source = '') {
      const key = keyOf(session, source);
      const gone = sessions.get(key);
      if (!gone) return { calls: [], unverifiedWrites: 0 };
      sessions.delete(key);
      return { calls: [...gone.calls.values()], unverifiedWrites: gone.pending ? 1 : 0 };
    },
    get size() {
      return sessions.size;
    },
  };
}
