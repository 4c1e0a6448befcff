import { eventOfCall } from '../eventOfCall.js';
import { applyCall } from '../index.js';
import type { RecordedCall } from '../RecordingEntry.js';
import type { SafetyContext } from '../SafetyContext.js';
import type { SafetyEvent } from '../SafetyEvent.js';
import type { FSMBlockedError } from '../FSMBlockedError.js';
import type { SafetySession } from '../SafetySession.js';
import { TOOL_KINDS, type ToolKind } from '../toolKind.js';

/*
 * A move is what a test does to a session, independent of call ids and
 * clock readings: "begin a read", "the read that began before the write
 * ends ok". The same move becomes a machine event (for the graph) or a
 * session API call (for the system under test), picking the concrete call id
 * from the context it is applied to.
 */

/** Whether an in-flight call began at the current write epoch or before the last write landed. */
type Epoch = 'now' | 'stale';

export type Move =
  | { type: 'check'; kind: ToolKind }
  | { type: 'begin'; kind: ToolKind }
  | { type: 'end'; kind: ToolKind; epoch: Epoch; ok: boolean; verified?: boolean; unknown?: boolean }
  | { type: 'succeed'; kind: ToolKind }
  | { type: 'finalAnswer' }
  | { type: 'completeVerification' }
  | { type: 'targetEstablished' }
  | { type: 'reset' }
  | { type: 'resetKeepProgress' }
  | { type: 'trackRecovery' }
  | { type: 'checkRecovery' };

/** One tool per kind, so paths read like a session. */
const TOOL_OF: Record<ToolKind, string> = {
  resolve: 'find_vm',
  read: 'get_logs',
  write: 'restart_vm',
  user_input: 'ask_user',
};

/** The error code a hand-tracked recovery carries in generated paths. */
const TRACKED_ERROR_CODE = 'TOOL_ERROR';

const KIND_WORD: Record<ToolKind, string> = {
  resolve: 'resolve',
  read: 'read',
  write: 'write',
  user_input: 'user input',
};

/**
 * A short readable label, unique per move: `begin write`, `read ok (began before the write)`.
 *
 * @example
 * moveLabel({ type: 'begin', kind: 'write' }); // 'begin write'
 */
export function moveLabel(move: Move): string {
  switch (move.type) {
    case 'check':
      return `check ${KIND_WORD[move.kind]}`;
    case 'begin':
      return `begin ${KIND_WORD[move.kind]}`;
    case 'end': {
      const outcome = move.ok
        ? move.verified
          ? 'ok, self-verified'
          : 'ok'
        : move.unknown
          ? 'outcome unknown'
          : 'fails';
      return `${KIND_WORD[move.kind]} ${outcome}${move.epoch === 'stale' ? ' (began before the write)' : ''}`;
    }
    case 'succeed':
      return `onToolSuccess ${KIND_WORD[move.kind]}`;
    case 'finalAnswer':
      return 'final answer';
    case 'completeVerification':
      return 'complete verification';
    case 'targetEstablished':
      return 'target established';
    case 'reset':
      return 'reset';
    case 'resetKeepProgress':
      return 'reset keeping progress';
    case 'trackRecovery':
      return 'track recovery';
    case 'checkRecovery':
      return 'check recovery';
  }
}

const epochOf = (context: SafetyContext, callEpoch: number): Epoch =>
  callEpoch === context.writeEpoch ? 'now' : 'stale';

/** The id of an in-flight call matching an `end` move, the first in begin order. */
function callIdFor(context: SafetyContext, move: Extract<Move, { type: 'end' }>): string | undefined {
  for (const id in context.calls) {
    const call = context.calls[id]!;
    if (call.kind === move.kind && epochOf(context, call.epoch) === move.epoch) return id;
  }
  return undefined;
}

/** A call id not in flight: `c1`, `c2`, ... */
function freshCallId(context: SafetyContext): string {
  for (let n = 1; ; n++) if (!Object.hasOwn(context.calls, `c${n}`)) return `c${n}`;
}

/** The in-flight calls by shape (`read@now`, `read@stale`, ...), counted. */
export function callShapes(context: SafetyContext): Map<string, number> {
  const shapes = new Map<string, number>();
  for (const id in context.calls) {
    const call = context.calls[id]!;
    const key = `${call.kind}@${epochOf(context, call.epoch)}`;
    shapes.set(key, (shapes.get(key) ?? 0) + 1);
  }
  return shapes;
}

export interface MoveOptions {
  /** Most calls of one kind in flight at once that exploration begins. Default 2. */
  maxCallsPerKind?: number;
  /** Most calls in flight at once that exploration begins. Default 2. */
  maxCallsInFlight?: number;
}

/**
 * Every move worth trying from a context: every event type, every tool kind,
 * an end (ok, failed, and self-verified for writes) for each shape of call in
 * flight, resets and recoveries.
 *
 * @example
 * movesFrom(initialContext()).map(moveLabel); // ['check resolve', 'check read', 'check write', ...]
 */
export function movesFrom(context: SafetyContext, options: MoveOptions = {}): Move[] {
  const perKind = options.maxCallsPerKind ?? 2;
  const total = options.maxCallsInFlight ?? 2;
  const moves: Move[] = [];
  const inFlight = Object.values(context.calls);
  for (const kind of TOOL_KINDS) moves.push({ type: 'check', kind });
  for (const kind of TOOL_KINDS) {
    if (inFlight.length < total && inFlight.filter((c) => c.kind === kind).length < perKind)
      moves.push({ type: 'begin', kind });
  }
  const seen = new Set<string>();
  for (const call of inFlight) {
    const epoch = epochOf(context, call.epoch);
    const key = `${call.kind}@${epoch}`;
    if (seen.has(key)) continue;
    seen.add(key);
    moves.push({ type: 'end', kind: call.kind, epoch, ok: true });
    if (call.kind === 'write') moves.push({ type: 'end', kind: call.kind, epoch, ok: true, verified: true });
    moves.push({ type: 'end', kind: call.kind, epoch, ok: false });
    // A timed-out or aborted write: its tool may have acted.
    if (call.kind === 'write') moves.push({ type: 'end', kind: call.kind, epoch, ok: false, unknown: true });
  }
  for (const kind of TOOL_KINDS) moves.push({ type: 'succeed', kind });
  moves.push(
    { type: 'finalAnswer' },
    { type: 'completeVerification' },
    { type: 'targetEstablished' },
    { type: 'reset' },
    { type: 'resetKeepProgress' },
    { type: 'trackRecovery' },
    { type: 'checkRecovery' },
  );
  return moves;
}

/**
 * The session API call a move stands for in a context, with the concrete call
 * id it picks; undefined for an end with no matching call in flight.
 */
function callOfMove(move: Move, context: SafetyContext): RecordedCall | undefined {
  switch (move.type) {
    case 'check':
      return { type: 'canExecuteTool', kind: move.kind, tool: TOOL_OF[move.kind] };
    case 'begin':
      return { type: 'beginToolCall', id: freshCallId(context), kind: move.kind, tool: TOOL_OF[move.kind] };
    case 'end': {
      const id = callIdFor(context, move);
      if (id === undefined) return undefined;
      return move.verified
        ? { type: 'endToolCall', id, ok: move.ok, verified: true }
        : move.unknown
          ? { type: 'endToolCall', id, ok: move.ok, unknown: true }
          : { type: 'endToolCall', id, ok: move.ok };
    }
    case 'succeed':
      return { type: 'onToolSuccess', kind: move.kind, tool: TOOL_OF[move.kind] };
    case 'finalAnswer':
      return { type: 'canFinalAnswer' };
    case 'completeVerification':
    case 'targetEstablished':
    case 'reset':
    case 'resetKeepProgress':
      return { type: move.type };
    case 'trackRecovery':
      return { type: 'trackPendingRecovery', errorCode: TRACKED_ERROR_CODE, tool: TOOL_OF.write };
    case 'checkRecovery':
      return { type: 'checkRecoverySuccess', tool: TOOL_OF.write };
  }
}

/**
 * The machine event a move stands for in a context, or undefined (an end with no matching call).
 *
 * @example
 * moveToEvent({ type: 'begin', kind: 'write' }, initialContext(), 5);
 * // { type: 'BEGIN_CALL', id: 'c1', kind: 'write', tool: 'restart_vm', at: 5 }
 */
export function moveToEvent(move: Move, context: SafetyContext, at: number): SafetyEvent | undefined {
  const call = callOfMove(move, context);
  return call && eventOfCall(call, at, context);
}

/** What a session API call returned, as far as a path test compares it. */
export interface MoveResult {
  /** The session method called, with its arguments. */
  call: string;
  /** For checks: null when allowed, else the block. */
  blocked?: FSMBlockedError | null;
}

/** A call as a failure message shows it: `beginToolCall(c1, write, restart_vm)`, `endToolCall(c1, ok: true)`. */
function describeCall(call: RecordedCall): string {
  const args = Object.entries(call)
    .filter(([key]) => key !== 'type')
    .map(([key, value]) => (typeof value === 'boolean' ? `${key}: ${value}` : String(value)));
  return `${call.type}(${args.join(', ')})`;
}

/**
 * Applies a move to a real session through its public API (the system under
 * test), with the same call mapping a replay uses ({@link applyCall}): checks
 * through `canExecuteTool`/`canFinalAnswer`, calls through
 * `beginToolCall`/`endToolCall`, successes through `onToolSuccess`.
 *
 * @example
 * const session = createSafetySession();
 * applyMove(session, { type: 'begin', kind: 'write' }).blocked?.reasonCode; // 'NO_VALIDATED_TARGET'
 */
export function applyMove(session: SafetySession, move: Move): MoveResult {
  const call = callOfMove(move, session.context);
  if (!call) throw new Error(`no call in flight matches "${moveLabel(move)}"`);
  const outcome = applyCall(session, call);
  const decides = call.type === 'canExecuteTool' || call.type === 'canFinalAnswer' || call.type === 'beginToolCall';
  return decides ? { call: describeCall(call), blocked: outcome.blocked ?? null } : { call: describeCall(call) };
}
