/*
 * A hand-written reducer with the safety semantics of SafetySession's
 * lifecycle and compatible APIs: the yardstick the gate benchmark compares
 * SafetySession against. Not product code: it exists so "how much does XState
 * cost?" has an answer measured in the same run. Immutable updates, like any
 * reducer a team would write by hand.
 *
 * "Same semantics" is checked, not claimed: test/bench/baselineReducer.test.ts
 * runs random call sequences through both and compares every decision and the
 * state after it. That covers what the session does for the calls the bench
 * makes: validating the arguments, the four states, the write epoch (a read
 * verifies only if it began after the write landed), calls in flight with
 * their start time, the block with its details (state, tool, kind, streak of
 * consecutive blocks, the evidence required), the verify-block counter, and the
 * recovery the lifecycle API tracks for every blocked call (settled by a
 * later success of the same tool, dropped after its time to live).
 */

type Kind = 'resolve' | 'read' | 'write' | 'user_input';
type State = 'RESOLVING' | 'READING' | 'WRITING' | 'VERIFYING';
type Reason = 'NO_VALIDATED_TARGET' | 'WRITE_IN_FLIGHT' | 'UNVERIFIED_WRITE' | 'FINAL_ANSWER_UNVERIFIED';

const KINDS: readonly string[] = ['resolve', 'read', 'write', 'user_input'];
const RECOVERY_TTL_MS = 10 * 60 * 1000;

interface Call {
  kind: Kind;
  tool: string;
  epoch: number;
  startedAt: number;
}

interface Recovery {
  recoveryId: string;
  errorCode: string;
  tool: string;
  createdAt: number;
  attempts: number;
}

/** What a block returns to the caller, as SafetySession's FSMBlockedError carries it. */
interface Block {
  reasonCode: Reason;
  state: State;
  toolName?: string;
  toolKind?: Kind;
  consecutiveBlocks: number;
  /** What evidence is missing. */
  required: 'validated_target' | 'verification_read' | 'verification_complete' | 'write_result';
}

export interface ReducerState {
  state: State;
  wroteThisEpisode: boolean;
  readAfterWrite: boolean;
  consecutiveVerifyBlocks: number;
  lastWriteTool: string | null;
  lastWriteAt: number | null;
  lastReadTool: string | null;
  lastReadAt: number | null;
  writeEpoch: number;
  calls: Record<string, Call>;
  pendingRecoveries: Recovery[];
  recoverySeq: number;
  blockStreak: number;
  /** The last decision's block, or null when it was allowed (or the last event was not a decision). */
  blocked: Block | null;
}

export type ReducerEvent =
  | { type: 'BEGIN'; id: string; kind: Kind; tool: string; at: number }
  | { type: 'END'; id: string; ok: boolean; verified?: boolean; at: number }
  | { type: 'CHECK'; kind: Kind; tool: string; at?: number }
  | { type: 'SUCCESS'; kind: Kind; tool: string; at: number }
  | { type: 'FINAL'; at?: number }
  | { type: 'COMPLETE'; at?: number };

export const initialReducerState: ReducerState = {
  state: 'RESOLVING',
  wroteThisEpisode: false,
  readAfterWrite: false,
  consecutiveVerifyBlocks: 0,
  lastWriteTool: null,
  lastWriteAt: null,
  lastReadTool: null,
  lastReadAt: null,
  writeEpoch: 0,
  calls: {},
  pendingRecoveries: [],
  recoverySeq: 0,
  blockStreak: 0,
  blocked: null,
};

// The session checks every argument at its boundary; so does the yardstick.
function checkName(name: unknown, what: string): void {
  if (typeof name !== 'string' || name.length === 0) throw new TypeError(`${what}: expected a non-empty string`);
}
function checkKind(kind: unknown): void {
  if (!KINDS.includes(kind as string)) throw new TypeError(`kind: expected one of ${KINDS.join(', ')}`);
}

function writeBlockFor(state: State): Reason | null {
  if (state === 'RESOLVING') return 'NO_VALIDATED_TARGET';
  if (state === 'WRITING') return 'WRITE_IN_FLIGHT';
  if (state === 'VERIFYING') return 'UNVERIFIED_WRITE';
  return null;
}

function live(recoveries: Recovery[], at: number): Recovery[] {
  return recoveries.every((r) => at - r.createdAt <= RECOVERY_TTL_MS)
    ? recoveries
    : recoveries.filter((r) => at - r.createdAt <= RECOVERY_TTL_MS);
}

function block(s: ReducerState, reasonCode: Reason, tool?: string, kind?: Kind): ReducerState {
  const blockStreak = s.blockStreak + 1;
  return {
    ...s,
    consecutiveVerifyBlocks: s.consecutiveVerifyBlocks + (reasonCode === 'UNVERIFIED_WRITE' ? 1 : 0),
    blockStreak,
    blocked: {
      reasonCode,
      state: s.state,
      ...(tool !== undefined && { toolName: tool, toolKind: kind }),
      consecutiveBlocks: blockStreak,
      required:
        reasonCode === 'NO_VALIDATED_TARGET'
          ? 'validated_target'
          : reasonCode === 'WRITE_IN_FLIGHT' || s.state === 'WRITING'
            ? 'write_result'
            : reasonCode === 'UNVERIFIED_WRITE' && s.readAfterWrite
              ? 'verification_complete'
              : 'verification_read',
    },
  };
}

function allow(s: ReducerState): ReducerState {
  return s.blockStreak === 0 && s.blocked === null ? s : { ...s, blockStreak: 0, blocked: null };
}

function trackBlocked(s: ReducerState, tool: string, at: number): ReducerState {
  const recoveries = live(s.pendingRecoveries, at);
  const i = recoveries.findIndex((r) => r.tool === tool && r.errorCode === 'FSM_BLOCKED');
  if (i >= 0) {
    const next = recoveries.slice();
    next[i] = { ...recoveries[i]!, attempts: recoveries[i]!.attempts + 1 };
    return { ...s, pendingRecoveries: next };
  }
  const recovery = {
    recoveryId: `${tool}-${at}-${s.recoverySeq}`,
    errorCode: 'FSM_BLOCKED',
    tool,
    createdAt: at,
    attempts: 1,
  };
  return { ...s, pendingRecoveries: [...recoveries, recovery], recoverySeq: s.recoverySeq + 1 };
}

function landWrite(s: ReducerState, tool: string, at: number, ownId: string | undefined, verified: boolean) {
  // A write in flight stays in flight (the session's recordWrite keeps it): beside one, the state stays WRITING.
  let beside = false;
  for (const id in s.calls) if (id !== ownId && s.calls[id]!.kind === 'write') beside = true;
  if (beside && s.state === 'WRITING') {
    return {
      ...s,
      wroteThisEpisode: true,
      readAfterWrite: false,
      lastWriteTool: tool,
      lastWriteAt: at,
      writeEpoch: s.writeEpoch + 1,
    };
  }
  return {
    ...s,
    state: 'VERIFYING' as const,
    wroteThisEpisode: true,
    readAfterWrite: verified,
    consecutiveVerifyBlocks: verified ? 0 : s.consecutiveVerifyBlocks,
    lastWriteTool: tool,
    lastWriteAt: at,
    writeEpoch: s.writeEpoch + 1,
  };
}

function success(
  s: ReducerState,
  call: { kind: Kind; tool: string; epoch: number },
  at: number,
  id?: string,
  verified = false,
) {
  if (call.kind === 'write') return landWrite(s, call.tool, at, id, verified);
  if (call.kind === 'user_input') return s;
  if (s.state === 'RESOLVING') return { ...s, state: 'READING' as const, lastReadTool: call.tool, lastReadAt: at };
  if (s.state === 'VERIFYING' && call.epoch === s.writeEpoch) {
    return { ...s, readAfterWrite: true, consecutiveVerifyBlocks: 0, lastReadTool: call.tool, lastReadAt: at };
  }
  return { ...s, lastReadTool: call.tool, lastReadAt: at };
}

function without(calls: Record<string, Call>, id: string): Record<string, Call> {
  const rest: Record<string, Call> = {};
  for (const k in calls) if (k !== id) rest[k] = calls[k]!;
  return rest;
}

export function reduce(s: ReducerState, e: ReducerEvent): ReducerState {
  switch (e.type) {
    case 'CHECK': {
      checkKind(e.kind);
      checkName(e.tool, 'tool');
      const reason = e.kind === 'write' ? writeBlockFor(s.state) : null;
      return reason ? block(s, reason, e.tool, e.kind) : allow(s);
    }
    case 'BEGIN': {
      checkName(e.id, 'id');
      checkKind(e.kind);
      checkName(e.tool, 'tool');
      if (Object.hasOwn(s.calls, e.id)) throw new TypeError(`id: call ${e.id} is already in flight`);
      const reason = e.kind === 'write' ? writeBlockFor(s.state) : null;
      if (reason) return trackBlocked(block(s, reason, e.tool, e.kind), e.tool, e.at);
      const calls = { ...s.calls, [e.id]: { kind: e.kind, tool: e.tool, epoch: s.writeEpoch, startedAt: e.at } };
      return { ...allow(s), calls, state: e.kind === 'write' ? 'WRITING' : s.state };
    }
    case 'END': {
      checkName(e.id, 'id');
      if (typeof e.ok !== 'boolean') throw new TypeError('ok: expected a boolean');
      const call = Object.hasOwn(s.calls, e.id) ? s.calls[e.id]! : undefined;
      if (!call) return s;
      if (!e.ok) {
        const next = { ...s, calls: without(s.calls, e.id) };
        if (call.kind !== 'write' || s.state !== 'WRITING') return next;
        // Another write landed while this one was in flight: that one must be verified.
        return { ...next, state: call.epoch < s.writeEpoch ? 'VERIFYING' : 'READING' };
      }
      const next = success(s, call, e.at, e.id, e.verified === true);
      const calls = without(next.calls, e.id);
      // A success of a blocked tool is its recovery: it settles them all.
      const pendingRecoveries =
        next.pendingRecoveries.length === 0
          ? next.pendingRecoveries
          : live(next.pendingRecoveries, e.at).filter((r) => r.tool !== call.tool);
      return { ...next, calls, pendingRecoveries };
    }
    case 'SUCCESS':
      checkKind(e.kind);
      checkName(e.tool, 'tool');
      return success(s, { kind: e.kind, tool: e.tool, epoch: s.writeEpoch }, e.at);
    case 'FINAL': {
      const unverified = s.state === 'WRITING' || (s.state === 'VERIFYING' && !s.readAfterWrite);
      return unverified ? block(s, 'FINAL_ANSWER_UNVERIFIED') : allow(s);
    }
    case 'COMPLETE':
      return s.state === 'VERIFYING' && s.readAfterWrite
        ? { ...s, state: 'READING', readAfterWrite: false, consecutiveVerifyBlocks: 0 }
        : s;
  }
}
