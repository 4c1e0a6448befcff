import type { SafetyContext } from '../SafetyContext.js';
import type { BlockReasonCode, SessionState, ToolKind } from '../toolKind.js';
import type { Step } from './Step.js';

/**
 * A safety rule as data and code: an id, a name, the sentence a reviewer
 * reads, and a predicate over one step. The same objects drive the tests, the
 * `check` CLI and the visual editor, so keep this module free of `node:`.
 */
export interface Invariant {
  /** `I1`, `I2`, ... (I1–I8 are the list of docs/behaviour.md; the rest are stated here). */
  id: string;
  name: string;
  sentence: string;
  /** `null` when the step keeps the rule; otherwise what went wrong, in one sentence. */
  check(step: Step): string | null;
}

/** The call a step is about, as docs/behaviour.md defines it (independent of the guards under test). */
interface StepSubject {
  kind: ToolKind;
  tool: string;
  /** The write epoch the call began in (now, for a check or a compatible-API success). */
  epoch: number;
  /** The event ends a call begun through the call-lifecycle API. */
  ended: boolean;
}

function subject({ before, event }: Step): StepSubject | undefined {
  const ctx = before.context;
  switch (event.type) {
    case 'CHECK_TOOL':
    case 'BEGIN_CALL':
      return { kind: event.kind, tool: event.tool, epoch: ctx.writeEpoch, ended: false };
    case 'TOOL_FAILED':
    case 'TOOL_SUCCEEDED': {
      if (event.id !== undefined) {
        const call = Object.hasOwn(ctx.calls, event.id) ? ctx.calls[event.id] : undefined;
        return call && { kind: call.kind, tool: call.tool, epoch: call.epoch, ended: true };
      }
      if (event.type === 'TOOL_SUCCEEDED' && event.kind !== undefined) {
        return { kind: event.kind, tool: event.tool ?? '', epoch: ctx.writeEpoch, ended: false };
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

const stateOf = (s: { value: unknown }) => s.value as SessionState;
const isDiscovery = (kind: ToolKind | undefined) => kind === 'resolve' || kind === 'read';
const isWriteAttempt = (step: Step) =>
  (step.event.type === 'CHECK_TOOL' || step.event.type === 'BEGIN_CALL') && step.event.kind === 'write';
const success = (step: Step) => (step.event.type === 'TOOL_SUCCEEDED' ? subject(step) : undefined);
const reasonOf = (step: Step): BlockReasonCode | undefined =>
  step.decision === 'blocked' ? step.after.context.lastBlock?.reasonCode : undefined;
const writeInFlight = (ctx: SafetyContext) => Object.values(ctx.calls).some((c) => c.kind === 'write');
const callCount = (ctx: SafetyContext) => Object.keys(ctx.calls).length;
const recoveriesOf = (ctx: SafetyContext, tool: string, at?: number) =>
  ctx.pendingRecoveries.filter(
    (r) => r.tool === tool && (at === undefined || at - r.createdAt <= ctx.config.recoveryTtlMs),
  );
const attemptsOf = (ctx: SafetyContext, tool: string, at?: number) =>
  recoveriesOf(ctx, tool, at).reduce((sum, r) => sum + r.attempts, 0);

/** The flags docs/behaviour.md names; `user_input` and checks must leave them alone. */
const FLAG_KEYS = [
  'wroteThisEpisode',
  'readAfterWrite',
  'consecutiveVerifyBlocks',
  'lastWriteTool',
  'lastWriteAt',
  'lastReadTool',
  'lastReadAt',
  'writeEpoch',
] as const satisfies readonly (keyof SafetyContext)[];

function changedFlags(step: Step, keys: readonly (keyof SafetyContext)[] = FLAG_KEYS): string[] {
  return keys.filter((k) => step.before.context[k] !== step.after.context[k]);
}

function describeChange(step: Step, keys: string[]): string {
  const b = step.before.context as unknown as Record<string, unknown>;
  const a = step.after.context as unknown as Record<string, unknown>;
  return keys.map((k) => `${k} ${JSON.stringify(b[k])} → ${JSON.stringify(a[k])}`).join(', ');
}

const moved = (step: Step) => `${stateOf(step.before)} → ${stateOf(step.after)}`;

/** Expects a block with `code` and no change of state; otherwise says what happened. */
function expectBlock(step: Step, what: string, code: BlockReasonCode): string | null {
  if (step.decision !== 'blocked')
    return `${what} was allowed${stateOf(step.after) !== stateOf(step.before) ? ` (${moved(step)})` : ''}`;
  if (reasonOf(step) !== code) return `${what} was blocked with ${reasonOf(step)}, not ${code}`;
  if (stateOf(step.after) !== stateOf(step.before)) return `${what} was blocked but the state moved (${moved(step)})`;
  return null;
}

/**
 * The safety rules of docs/behaviour.md (I1–I8) and the transition rules it writes
 * out (I9–I17), each a predicate over one step.
 *
 * @example
 * import { invariants, stepOf } from 'assistant-safety/testing';
 * const broken = invariants.filter((inv) => inv.check(stepOf(before, event, after)) !== null);
 */
export const invariants: readonly Invariant[] = [
  {
    id: 'I1',
    name: 'No write without a validated target',
    sentence: 'A write attempted in RESOLVING is blocked (NO_VALIDATED_TARGET) and the state does not change.',
    check: (step) =>
      isWriteAttempt(step) && stateOf(step.before) === 'RESOLVING'
        ? expectBlock(step, 'a write attempted in RESOLVING', 'NO_VALIDATED_TARGET')
        : null,
  },
  {
    id: 'I2',
    name: 'No second write before the first is verified',
    sentence:
      'A write attempted in VERIFYING is blocked (UNVERIFIED_WRITE) and one attempted in WRITING is blocked (WRITE_IN_FLIGHT); VERIFYING is left only by completeVerification after evidence, by resetKeepProgress, or by reset.',
    check: (step) => {
      const state = stateOf(step.before);
      if (isWriteAttempt(step) && state === 'VERIFYING')
        return expectBlock(step, 'a write attempted in VERIFYING', 'UNVERIFIED_WRITE');
      if (isWriteAttempt(step) && state === 'WRITING')
        return expectBlock(step, 'a write attempted in WRITING', 'WRITE_IN_FLIGHT');
      if (state === 'VERIFYING' && stateOf(step.after) !== 'VERIFYING' && step.event.type !== 'RESET') {
        const verified = step.event.type === 'COMPLETE_VERIFICATION' && step.before.context.readAfterWrite;
        if (!verified && step.event.type !== 'RESET_KEEP_PROGRESS')
          return `VERIFYING was left for ${stateOf(step.after)} by ${step.event.type} without verification`;
      }
      return null;
    },
  },
  {
    id: 'I3',
    name: 'No final answer about an unverified change',
    sentence:
      'canFinalAnswer is refused (FINAL_ANSWER_UNVERIFIED) in WRITING, and in VERIFYING without readAfterWrite.',
    check: (step) => {
      if (step.event.type !== 'CHECK_FINAL_ANSWER') return null;
      const state = stateOf(step.before);
      if (state === 'WRITING') return expectBlock(step, 'a final answer in WRITING', 'FINAL_ANSWER_UNVERIFIED');
      if (state === 'VERIFYING' && !step.before.context.readAfterWrite)
        return expectBlock(step, 'a final answer in VERIFYING without evidence', 'FINAL_ANSWER_UNVERIFIED');
      return null;
    },
  },
  {
    id: 'I4',
    name: 'Repeated attempts do not wear the gate down',
    sentence:
      'Every blocked write in VERIFYING adds exactly one to consecutiveVerifyBlocks, and no count, however high, waives verification.',
    check: (step) => {
      if (!isWriteAttempt(step) || stateOf(step.before) !== 'VERIFYING') return null;
      const before = step.before.context.consecutiveVerifyBlocks;
      if (step.decision !== 'blocked') return `a write in VERIFYING was allowed after ${before} blocked attempts`;
      const after = step.after.context.consecutiveVerifyBlocks;
      return after === before + 1 ? null : `a blocked write moved consecutiveVerifyBlocks ${before} → ${after}, not +1`;
    },
  },
  {
    id: 'I5',
    name: 'Reads are never blocked',
    sentence: 'No state blocks resolve, read or user_input, whether checked or begun.',
    check: (step) => {
      if (step.event.type !== 'CHECK_TOOL' && step.event.type !== 'BEGIN_CALL') return null;
      if (step.event.kind === 'write' || step.decision !== 'blocked') return null;
      return `a ${step.event.kind} was blocked in ${stateOf(step.before)} (${reasonOf(step)})`;
    },
  },
  {
    id: 'I6',
    name: 'User input changes nothing',
    sentence:
      'Checking, starting, ending or reporting user input does not move the state or touch any flag, not even lastReadTool.',
    check: (step) => {
      if (subject(step)?.kind !== 'user_input') return null;
      if (stateOf(step.after) !== stateOf(step.before)) return `user input moved the state (${moved(step)})`;
      const changed = changedFlags(step);
      return changed.length ? `user input changed ${describeChange(step, changed)}` : null;
    },
  },
  {
    id: 'I7',
    name: 'Causal verification',
    sentence:
      'readAfterWrite becomes true only from a resolve or read that began after the write succeeded (or a self-verified write); one that ran beside the write never satisfies verification, and one that began after it in VERIFYING always does.',
    check: (step) => {
      const s = success(step);
      const selfVerified =
        s?.kind === 'write' && step.event.type === 'TOOL_SUCCEEDED' && step.event.verified === true && s.ended;
      const causal = s !== undefined && isDiscovery(s.kind) && s.epoch === step.before.context.writeEpoch;
      if (!step.before.context.readAfterWrite && step.after.context.readAfterWrite && !selfVerified && !causal) {
        return s && isDiscovery(s.kind)
          ? `a ${s.kind} that began before the write succeeded set readAfterWrite`
          : `${step.event.type} set readAfterWrite without evidence`;
      }
      if (causal && stateOf(step.before) === 'VERIFYING' && !step.after.context.readAfterWrite)
        return `a ${s!.kind} that began after the write succeeded did not set readAfterWrite`;
      return null;
    },
  },
  {
    id: 'I8',
    name: 'Resets do exactly what is written',
    sentence:
      'reset() goes to RESOLVING and clears every flag, time, call in flight and pending recovery; resetKeepProgress() sends VERIFYING to READING, keeps other states, and clears wroteThisEpisode, readAfterWrite and the counter only.',
    check: (step) => {
      const a = step.after.context;
      if (step.event.type === 'RESET') {
        if (stateOf(step.after) !== 'RESOLVING') return `reset() went to ${stateOf(step.after)}, not RESOLVING`;
        const left = [
          a.wroteThisEpisode && 'wroteThisEpisode',
          a.readAfterWrite && 'readAfterWrite',
          a.consecutiveVerifyBlocks !== 0 && 'consecutiveVerifyBlocks',
          a.lastWriteTool !== null && 'lastWriteTool',
          a.lastWriteAt !== null && 'lastWriteAt',
          a.lastReadTool !== null && 'lastReadTool',
          a.lastReadAt !== null && 'lastReadAt',
          callCount(a) !== 0 && 'calls in flight',
          a.pendingRecoveries.length !== 0 && 'pending recoveries',
        ].filter(Boolean);
        return left.length ? `reset() left ${left.join(', ')} set` : null;
      }
      if (step.event.type === 'RESET_KEEP_PROGRESS') {
        const from = stateOf(step.before);
        const to = stateOf(step.after);
        const expected = from === 'VERIFYING' ? 'READING' : from;
        if (to !== expected) return `resetKeepProgress() went ${from} → ${to}, not ${expected}`;
        if (a.wroteThisEpisode || a.readAfterWrite || a.consecutiveVerifyBlocks !== 0)
          return `resetKeepProgress() left ${describeChange(step, ['wroteThisEpisode', 'readAfterWrite', 'consecutiveVerifyBlocks'])}`;
        const kept = changedFlags(step, ['lastWriteTool', 'lastWriteAt', 'lastReadTool', 'lastReadAt', 'writeEpoch']);
        if (kept.length) return `resetKeepProgress() changed ${describeChange(step, kept)}`;
        if (callCount(a) !== callCount(step.before.context)) return 'resetKeepProgress() dropped a call in flight';
      }
      return null;
    },
  },
  {
    id: 'I9',
    name: 'Discovery establishes the target',
    sentence:
      'A successful resolve or read in RESOLVING goes to READING and records lastReadTool; elsewhere it moves no state and records lastReadTool.',
    check: (step) => {
      const s = success(step);
      if (!s || !isDiscovery(s.kind)) return null;
      const from = stateOf(step.before);
      const expected = from === 'RESOLVING' ? 'READING' : from;
      if (stateOf(step.after) !== expected) return `a successful ${s.kind} went ${moved(step)}, not to ${expected}`;
      if (step.after.context.lastReadTool !== s.tool)
        return `a successful ${s.kind} of ${s.tool} left lastReadTool ${JSON.stringify(step.after.context.lastReadTool)}`;
      return null;
    },
  },
  {
    id: 'I10',
    name: 'A landed write must be verified',
    sentence:
      'A successful write, from any state, goes to VERIFYING (or stays in WRITING when it lands beside another write still in flight, reported through the compatible API), sets wroteThisEpisode, records lastWriteTool, advances the write epoch by one, ends its own call and no other, and sets readAfterWrite exactly when its own result is verified.',
    check: (step) => {
      const s = success(step);
      if (s?.kind !== 'write') return null;
      const a = step.after.context;
      const b = step.before.context;
      const verified = step.event.type === 'TOOL_SUCCEEDED' && step.event.verified === true && s.ended;
      const ownId = step.event.type === 'TOOL_SUCCEEDED' ? step.event.id : undefined;
      const beside = Object.entries(b.calls).some(([id, c]) => c.kind === 'write' && id !== ownId);
      const expected = beside ? 'WRITING' : 'VERIFYING';
      if (stateOf(step.after) !== expected) return `a landed write went ${moved(step)}, not to ${expected}`;
      if (!a.wroteThisEpisode) return 'a landed write left wroteThisEpisode false';
      if (a.lastWriteTool !== s.tool) return `a landed write of ${s.tool} left lastWriteTool ${a.lastWriteTool}`;
      if (a.writeEpoch !== b.writeEpoch + 1)
        return `a landed write moved the write epoch ${b.writeEpoch} → ${a.writeEpoch}, not +1`;
      if (writeInFlight(a) !== beside)
        return beside
          ? 'a write landing beside a write in flight ended that write'
          : 'a write is still in flight after a write landed';
      if (a.readAfterWrite !== verified)
        return verified
          ? 'a self-verified write did not count as the read after write'
          : 'a landed write left readAfterWrite set';
      return null;
    },
  },
  {
    id: 'I11',
    name: 'One write in flight, and only through the call lifecycle',
    sentence:
      'The state is WRITING exactly when a write is in flight; an allowed write begun in READING goes to WRITING; a failed write goes back to READING changing no flag, or, when its outcome is unknown (timed out, aborted) or failed writes need verification, to VERIFYING recorded like a landed write (wroteThisEpisode, lastWriteTool, next write epoch, no evidence yet), or, when another write landed while it was in flight, to VERIFYING changing no flag.',
    check: (step) => {
      const a = step.after.context;
      if ((stateOf(step.after) === 'WRITING') !== writeInFlight(a))
        return stateOf(step.after) === 'WRITING'
          ? 'the state is WRITING with no write in flight'
          : `a write is in flight in ${stateOf(step.after)}`;
      const s = subject(step);
      if (step.event.type === 'BEGIN_CALL' && s?.kind === 'write' && stateOf(step.before) === 'READING') {
        if (step.decision !== 'allowed') return `a write begun in READING was blocked (${reasonOf(step)})`;
        if (stateOf(step.after) !== 'WRITING') return `an allowed write went ${moved(step)}, not to WRITING`;
      }
      if (step.event.type === 'TOOL_FAILED' && s?.kind === 'write') {
        const partial = step.before.context.config.failedWriteRequiresVerification || step.event.unknown === true;
        const landedMeanwhile = s.epoch < step.before.context.writeEpoch;
        const expected = partial || landedMeanwhile ? 'VERIFYING' : 'READING';
        if (stateOf(step.after) !== expected) return `a failed write went ${moved(step)}, not to ${expected}`;
        if (!partial) {
          const changed = changedFlags(step);
          if (changed.length) return `a failed write changed ${describeChange(step, changed)}`;
        } else {
          // It may have partly landed: it must be verified like a landed one, by a read begun after it.
          const b = step.before.context;
          if (
            !a.wroteThisEpisode ||
            a.readAfterWrite ||
            a.lastWriteTool !== s.tool ||
            a.writeEpoch !== b.writeEpoch + 1
          )
            return `a failed write that may have partly landed was not recorded as a write (${describeChange(step, ['wroteThisEpisode', 'readAfterWrite', 'lastWriteTool', 'writeEpoch'])})`;
        }
      }
      return null;
    },
  },
  {
    id: 'I12',
    name: 'Verification completes only with evidence',
    sentence:
      'completeVerification() in VERIFYING with readAfterWrite goes to READING and clears readAfterWrite and the counter, keeping wroteThisEpisode; anywhere else it changes nothing.',
    check: (step) => {
      if (step.event.type !== 'COMPLETE_VERIFICATION') return null;
      const b = step.before.context;
      const a = step.after.context;
      if (stateOf(step.before) === 'VERIFYING' && b.readAfterWrite) {
        if (stateOf(step.after) !== 'READING') return `a verified completeVerification went ${moved(step)}`;
        if (a.readAfterWrite || a.consecutiveVerifyBlocks !== 0)
          return 'completeVerification() left readAfterWrite or the counter set';
        if (a.wroteThisEpisode !== b.wroteThisEpisode) return 'completeVerification() changed wroteThisEpisode';
        return null;
      }
      const changed = changedFlags(step);
      if (stateOf(step.after) !== stateOf(step.before) || changed.length)
        return `completeVerification() without evidence changed something (${moved(step)}${changed.length ? `; ${describeChange(step, changed)}` : ''})`;
      return null;
    },
  },
  {
    id: 'I13',
    name: 'An established target is only ever established',
    sentence: 'targetEstablished() sends RESOLVING to READING, leaves every other state alone, and touches no flag.',
    check: (step) => {
      if (step.event.type !== 'TARGET_ESTABLISHED') return null;
      const from = stateOf(step.before);
      const expected = from === 'RESOLVING' ? 'READING' : from;
      if (stateOf(step.after) !== expected) return `targetEstablished() went ${moved(step)}, not to ${expected}`;
      const changed = changedFlags(step);
      return changed.length ? `targetEstablished() changed ${describeChange(step, changed)}` : null;
    },
  },
  {
    id: 'I14',
    name: 'Blocks only where a rule says so',
    sentence:
      'A decision is blocked exactly when I1–I3 require it, with their reason code; a blocked decision moves no state, and checks (canExecuteTool, canFinalAnswer) move no state at all.',
    check: (step) => {
      const { event } = step;
      if (step.decision === null) return null;
      const state = stateOf(step.before);
      let required: BlockReasonCode | null = null;
      if (event.type === 'CHECK_FINAL_ANSWER') {
        if (state === 'WRITING' || (state === 'VERIFYING' && !step.before.context.readAfterWrite))
          required = 'FINAL_ANSWER_UNVERIFIED';
      } else if (isWriteAttempt(step)) {
        required =
          state === 'RESOLVING'
            ? 'NO_VALIDATED_TARGET'
            : state === 'WRITING'
              ? 'WRITE_IN_FLIGHT'
              : state === 'VERIFYING'
                ? 'UNVERIFIED_WRITE'
                : null;
      }
      const what = event.type === 'CHECK_FINAL_ANSWER' ? 'a final answer' : `a ${subject(step)?.kind} attempt`;
      if (required === null && step.decision === 'blocked')
        return `${what} in ${state} was blocked (${reasonOf(step)}) though no rule requires it`;
      if (required !== null && step.decision !== 'blocked') return `${what} in ${state} was allowed`;
      if (required !== null && reasonOf(step) !== required)
        return `${what} in ${state} was blocked with ${reasonOf(step)}, not ${required}`;
      if (step.decision === 'blocked' && stateOf(step.after) !== state)
        return `a blocked decision moved ${moved(step)}`;
      if (event.type !== 'BEGIN_CALL' && stateOf(step.after) !== state)
        return `a check moved the state (${moved(step)})`;
      return null;
    },
  },
  {
    id: 'I15',
    name: 'Calls in flight are tracked exactly',
    sentence:
      'An allowed beginToolCall puts exactly that call in flight with the current write epoch; a blocked one, a check or a compatible-API call adds none; ending a call takes it out of flight.',
    check: (step) => {
      const { event } = step;
      const b = step.before.context;
      const a = step.after.context;
      if (event.type === 'BEGIN_CALL') {
        const call = Object.hasOwn(a.calls, event.id) ? a.calls[event.id] : undefined;
        if (step.decision === 'blocked')
          return call || callCount(a) !== callCount(b) ? `a blocked ${event.kind} was put in flight` : null;
        if (!call) return `an allowed ${event.kind} is not in flight`;
        if (call.kind !== event.kind || call.tool !== event.tool || call.epoch !== b.writeEpoch)
          return `the ${event.kind} in flight was recorded as ${call.kind} ${call.tool} at epoch ${call.epoch}`;
        if (callCount(a) !== callCount(b) + 1) return 'beginning a call changed other calls in flight';
        return null;
      }
      if ((event.type === 'TOOL_SUCCEEDED' || event.type === 'TOOL_FAILED') && event.id !== undefined) {
        if (Object.hasOwn(a.calls, event.id)) return `call ${event.id} is still in flight after it ended`;
        return null;
      }
      if (event.type === 'RESET') return null;
      // Nothing else adds or drops calls: a compatible-API write landing leaves a write in flight in flight (I10).
      const kept = Object.keys(b.calls);
      if (callCount(a) !== kept.length || kept.some((id) => !Object.hasOwn(a.calls, id)))
        return `${event.type} changed the calls in flight`;
      return null;
    },
  },
  {
    id: 'I16',
    name: 'Pending recoveries follow blocks and successes',
    sentence:
      'A blocked beginToolCall tracks its tool as a pending recovery (one more attempt, or a new one); a successful end of a call settles its tool; trackPendingRecovery adds one; checkRecoverySuccess removes the oldest of that tool if any (after dropping those past their TTL); none of them moves state or flags.',
    check: (step) => {
      const { event } = step;
      const b = step.before.context;
      const a = step.after.context;
      if (event.type === 'BEGIN_CALL' && step.decision === 'blocked') {
        // Recoveries past their TTL (on the event's clock) are dropped first.
        return attemptsOf(a, event.tool) === attemptsOf(b, event.tool, event.at) + 1
          ? null
          : `a blocked ${event.tool} was not tracked as a pending recovery`;
      }
      if (event.type === 'TOOL_SUCCEEDED' && event.id !== undefined) {
        const s = subject(step);
        return s && recoveriesOf(a, s.tool).length ? `a success of ${s.tool} left its recoveries pending` : null;
      }
      if (event.type === 'TRACK_RECOVERY' || event.type === 'CHECK_RECOVERY') {
        const changed = changedFlags(step);
        if (stateOf(step.after) !== stateOf(step.before) || changed.length)
          return `${event.type} moved state or flags (${moved(step)}${changed.length ? `; ${describeChange(step, changed)}` : ''})`;
        const live = recoveriesOf(b, event.tool, event.at).length;
        const delta = recoveriesOf(a, event.tool).length - live;
        if (event.type === 'TRACK_RECOVERY' && delta !== 1) return `trackPendingRecovery added ${delta} recoveries`;
        const expected = live ? -1 : 0;
        if (event.type === 'CHECK_RECOVERY' && delta !== expected)
          return `checkRecoverySuccess changed the pending recoveries of ${event.tool} by ${delta}, not ${expected}`;
        if (event.type === 'CHECK_RECOVERY' && live) {
          const kept = new Set(recoveriesOf(a, event.tool).map((r) => r.recoveryId));
          const taken = recoveriesOf(b, event.tool, event.at).find((r) => !kept.has(r.recoveryId));
          const oldest = Math.min(...recoveriesOf(b, event.tool, event.at).map((r) => r.createdAt));
          if (taken && taken.createdAt !== oldest) return `checkRecoverySuccess took a recovery that is not the oldest`;
        }
      }
      return null;
    },
  },
  {
    id: 'I17',
    name: 'The verify-block counter is telemetry',
    sentence:
      'consecutiveVerifyBlocks goes up only by a blocked write in VERIFYING and goes down only to 0, by evidence, completeVerification or a reset.',
    check: (step) => {
      const before = step.before.context.consecutiveVerifyBlocks;
      const after = step.after.context.consecutiveVerifyBlocks;
      if (after === before) return null;
      if (after > before && !(isWriteAttempt(step) && stateOf(step.before) === 'VERIFYING'))
        return `${step.event.type} in ${stateOf(step.before)} raised consecutiveVerifyBlocks ${before} → ${after}`;
      if (after < before && after !== 0) return `consecutiveVerifyBlocks went down ${before} → ${after}, not to 0`;
      if (after < before && !step.after.context.readAfterWrite && !/RESET|COMPLETE_VERIFICATION/.test(step.event.type))
        return `${step.event.type} cleared consecutiveVerifyBlocks without evidence`;
      return null;
    },
  },
];

/**
 * An invariant by id.
 *
 * @example
 * invariantById('I3')?.name; // 'No final answer about an unverified change'
 */
export function invariantById(id: string): Invariant | undefined {
  return invariants.find((i) => i.id === id);
}
