import { bindingInvariants, provenanceInvariants } from './bindingInvariants.js';
import {
  approvedFor,
  binds,
  isWorldWrite,
  attemptsOf,
  callCount,
  changedFlags,
  describeChange,
  expectBlock,
  FLAG_KEYS,
  isDiscovery,
  isStateOnlyAttempt,
  isWriteAttempt,
  moved,
  reasonOf,
  recoveriesOf,
  requiredBlock,
  sameSet,
  stateOf,
  subject,
  success,
  worldSuccess,
  writeInFlight,
  causalRead,
  fileEditEnd,
  isCodingStateOnly,
  type Invariant,
} from './stepFacts.js';
import { codingInvariants } from './codingInvariants.js';

export type { Invariant } from './stepFacts.js';

/**
 * The safety rules of docs/behaviour.md (I1–I8), the transition rules it writes
 * out (I9–I17), and the rules of target binding, human evidence, state-only
 * writes, execution profiles, shadow mode, provenance and the coding profile (I18–I30), each a predicate over one step.
 *
 * @example
 * import { invariants, stepOf } from 'assistant-safety/testing';
 * const broken = invariants.filter((inv) => inv.check(stepOf(before, event, after)) !== null);
 */
export const invariants: readonly Invariant[] = [
  {
    id: 'I1',
    name: 'No write without a validated target',
    sentence:
      'A write attempted in RESOLVING is blocked (NO_VALIDATED_TARGET) and the state does not change; only a state-only write under the detection profile may begin there (and the investigation profile refuses one first, I23).',
    check: (step) =>
      isWriteAttempt(step) && stateOf(step.before) === 'RESOLVING' && requiredBlock(step) === 'NO_VALIDATED_TARGET'
        ? expectBlock(step, 'a write attempted in RESOLVING', 'NO_VALIDATED_TARGET')
        : null,
  },
  {
    id: 'I2',
    name: 'No second write before the first is verified',
    sentence:
      'A write attempted in VERIFYING is blocked (UNVERIFIED_WRITE), unless a person approved that very call (I27), and one attempted in WRITING is blocked (WRITE_IN_FLIGHT), state-only writes too; VERIFYING is left only by completeVerification after evidence, by a verification a person attested for the final answer, by the write a person approved, by resetKeepProgress, or by reset.',
    check: (step) => {
      const state = stateOf(step.before);
      const required = requiredBlock(step);
      if (isWriteAttempt(step) && state === 'VERIFYING' && required === 'UNVERIFIED_WRITE')
        return expectBlock(step, 'a write attempted in VERIFYING', 'UNVERIFIED_WRITE');
      if (isWriteAttempt(step) && state === 'WRITING' && required === 'WRITE_IN_FLIGHT')
        return expectBlock(step, 'a write attempted in WRITING', 'WRITE_IN_FLIGHT');
      if (state === 'VERIFYING' && stateOf(step.after) !== 'VERIFYING' && step.event.type !== 'RESET') {
        const verified =
          (step.event.type === 'COMPLETE_VERIFICATION' && step.before.context.readAfterWrite) ||
          (step.event.type === 'ATTEST' &&
            step.event.evidence === 'verification' &&
            step.event.reasonCode === 'FINAL_ANSWER_UNVERIFIED') ||
          approvedFor(step, 'UNVERIFIED_WRITE');
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
      'canFinalAnswer is refused (FINAL_ANSWER_UNVERIFIED) in WRITING, in VERIFYING without readAfterWrite, and under the coding profile while an edited file is unchecked (I28, I29).',
    check: (step) => {
      if (step.event.type !== 'CHECK_FINAL_ANSWER') return null;
      const state = stateOf(step.before);
      if (step.before.context.editedFiles.length > 0)
        return expectBlock(step, 'a final answer with an edited file unchecked', 'FINAL_ANSWER_UNVERIFIED');
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
      'Every write refused in VERIFYING for want of verification adds exactly one to consecutiveVerifyBlocks, and no count, however high, waives verification (only a person’s approval of that very call does, I27).',
    check: (step) => {
      if (!isWriteAttempt(step) || stateOf(step.before) !== 'VERIFYING' || approvedFor(step, 'UNVERIFIED_WRITE'))
        return null;
      if (isCodingStateOnly(step)) return null; // the coding profile's todo list never waits (I23)
      const before = step.before.context.consecutiveVerifyBlocks;
      if (step.decision !== 'blocked') return `a write in VERIFYING was allowed after ${before} blocked attempts`;
      if (reasonOf(step) !== 'UNVERIFIED_WRITE') return null;
      const after = step.after.context.consecutiveVerifyBlocks;
      return after === before + 1 ? null : `a blocked write moved consecutiveVerifyBlocks ${before} → ${after}, not +1`;
    },
  },
  {
    id: 'I5',
    name: 'Reads are never blocked',
    sentence:
      'No state, setting or profile blocks resolve, read or user_input, whether checked or begun, but an egress read to an unvalidated destination under target binding (I26).',
    check: (step) => {
      if (step.event.type !== 'CHECK_TOOL' && step.event.type !== 'BEGIN_CALL') return null;
      if (step.event.kind === 'write' || step.decision !== 'blocked') return null;
      if (requiredBlock(step) === 'EGRESS_NOT_VALIDATED') return null;
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
      'readAfterWrite becomes true only from a resolve or read that began after the write succeeded (or a self-verified write); one that ran beside the write never satisfies verification, and one that began after it in VERIFYING always does when the write named no targets to cover (I20).',
    check: (step) => {
      const s = success(step);
      const selfVerified =
        s?.kind === 'write' && step.event.type === 'TOOL_SUCCEEDED' && step.event.verified === true && s.ended;
      const causal = causalRead(step);
      if (!step.before.context.readAfterWrite && step.after.context.readAfterWrite && !selfVerified && !causal) {
        return s && isDiscovery(s.kind)
          ? `a ${s.kind} that began before the write succeeded set readAfterWrite`
          : `${step.event.type} set readAfterWrite without evidence`;
      }
      if (
        causal &&
        stateOf(step.before) === 'VERIFYING' &&
        step.before.context.uncoveredTargets.length === 0 &&
        !step.after.context.readAfterWrite
      )
        return `a ${causal.kind} that began after the write succeeded did not set readAfterWrite`;
      return null;
    },
  },
  {
    id: 'I8',
    name: 'Resets do exactly what is written',
    sentence:
      'reset() goes to RESOLVING and clears every flag, time, call in flight or running ungated, validated target and pending recovery; resetKeepProgress() sends VERIFYING to READING, keeps other states, and clears wroteThisEpisode, readAfterWrite, the counter and the targets left to cover only.',
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
          Object.keys(a.shadowCalls).length !== 0 && 'calls running ungated',
          a.validatedTargets.length !== 0 && 'validated targets',
          a.uncoveredTargets.length !== 0 && 'targets to cover',
          a.pendingRecoveries.length !== 0 && 'pending recoveries',
        ].filter(Boolean);
        return left.length ? `reset() left ${left.join(', ')} set` : null;
      }
      if (step.event.type === 'RESET_KEEP_PROGRESS') {
        const from = stateOf(step.before);
        const to = stateOf(step.after);
        const expected = from === 'VERIFYING' ? 'READING' : from;
        if (to !== expected) return `resetKeepProgress() went ${from} → ${to}, not ${expected}`;
        if (a.wroteThisEpisode || a.readAfterWrite || a.consecutiveVerifyBlocks !== 0 || a.uncoveredTargets.length)
          return `resetKeepProgress() left ${describeChange(step, ['wroteThisEpisode', 'readAfterWrite', 'consecutiveVerifyBlocks', 'uncoveredTargets'])}`;
        const kept = changedFlags(step, [
          'lastWriteTool',
          'lastWriteAt',
          'lastReadTool',
          'lastReadAt',
          'writeEpoch',
          'validatedTargets',
        ]);
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
      'A successful resolve or read in RESOLVING goes to READING and records lastReadTool, unless binding is on and its tool is untrusted (then it stays in RESOLVING); elsewhere it moves no state and records lastReadTool.',
    check: (step) => {
      const s = success(step);
      if (!s || !isDiscovery(s.kind)) return null;
      const from = stateOf(step.before);
      const establishes = !(binds(step.before.context) && s.untrusted);
      const expected = from === 'RESOLVING' && establishes ? 'READING' : from;
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
      'A successful write on the world (not state-only), from any state, goes to VERIFYING (or stays in WRITING when it lands beside another write still in flight, reported through the compatible API or run ungated), sets wroteThisEpisode, records lastWriteTool, advances the write epoch by one, ends its own call and no other, and sets readAfterWrite exactly when its own result is verified.',
    check: (step) => {
      const s = worldSuccess(step);
      if (s?.kind !== 'write' || fileEditEnd(step)) return null; // a file edit: I28
      const a = step.after.context;
      const b = step.before.context;
      const verified = step.event.type === 'TOOL_SUCCEEDED' && step.event.verified === true && s.ended;
      const ownId = step.event.type === 'TOOL_SUCCEEDED' ? step.event.id : undefined;
      const beside = Object.entries(b.calls).some(([id, c]) => isWorldWrite(c) && id !== ownId);
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
      'The state is WRITING exactly when a write on the world is in flight (a state-only write never makes it WRITING); an allowed write begun in READING goes to WRITING; a failed write goes back to READING changing no flag, or, when its outcome is unknown (timed out, aborted) or failed writes need verification, to VERIFYING recorded like a landed write (wroteThisEpisode, lastWriteTool, next write epoch, no evidence yet), or, when another write landed while it was in flight, to VERIFYING changing no flag.',
    check: (step) => {
      const a = step.after.context;
      if ((stateOf(step.after) === 'WRITING') !== writeInFlight(a))
        return stateOf(step.after) === 'WRITING'
          ? 'the state is WRITING with no write in flight'
          : `a write is in flight in ${stateOf(step.after)}`;
      const s = subject(step);
      if (
        step.event.type === 'BEGIN_CALL' &&
        s?.kind === 'write' &&
        stateOf(step.before) === 'READING' &&
        requiredBlock(step) === null
      ) {
        if (step.decision !== 'allowed') return `a write begun in READING was blocked (${reasonOf(step)})`;
        const expected = s.stateOnly ? 'READING' : 'WRITING';
        if (stateOf(step.after) !== expected) return `an allowed write went ${moved(step)}, not to ${expected}`;
      }
      if (step.event.type === 'TOOL_FAILED' && s && isWorldWrite(s) && !s.ungated) {
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
    sentence:
      'targetEstablished() sends RESOLVING to READING, leaves every other state alone, and touches no flag (the targets it names are validated, I19).',
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
      'A decision is blocked exactly when I1–I3, I18, I23 or I26 require it (a creating write with an unvalidated recipient is TARGET_NOT_VALIDATED in RESOLVING too), with their reason code, in shadow mode as in enforce mode; a blocked decision moves no state, and checks (canExecuteTool, canFinalAnswer) move no state at all.',
    check: (step) => {
      const { event } = step;
      if (step.decision === null) return null;
      const state = stateOf(step.before);
      const required = requiredBlock(step);
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
      'An allowed beginToolCall puts exactly that call in flight with the current write epoch and what it said of itself (targets, state-only, untrusted); a blocked one, a check or a compatible-API call adds none; ending a call takes it out of flight.',
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
        if (
          !sameSet(call.targets ?? [], event.targets ?? []) ||
          call.stateOnly !== event.stateOnly ||
          call.untrusted !== event.untrusted
        )
          return `the ${event.kind} in flight lost what it said of itself`;
        if (callCount(a) !== callCount(b) + 1) return 'beginning a call changed other calls in flight';
        return null;
      }
      if ((event.type === 'TOOL_SUCCEEDED' || event.type === 'TOOL_FAILED') && event.id !== undefined) {
        if (Object.hasOwn(a.calls, event.id)) return `call ${event.id} is still in flight after it ended`;
        if (Object.hasOwn(a.shadowCalls, event.id)) return `ungated call ${event.id} is still running after it ended`;
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
      'consecutiveVerifyBlocks goes up only by a write refused in VERIFYING for want of verification and goes down only to 0, by evidence, completeVerification, an attested verification or a reset.',
    check: (step) => {
      const before = step.before.context.consecutiveVerifyBlocks;
      const after = step.after.context.consecutiveVerifyBlocks;
      if (after === before) return null;
      if (after > before && reasonOf(step) !== 'UNVERIFIED_WRITE')
        return `${step.event.type} in ${stateOf(step.before)} raised consecutiveVerifyBlocks ${before} → ${after}`;
      if (after < before && after !== 0) return `consecutiveVerifyBlocks went down ${before} → ${after}, not to 0`;
      const attested = step.event.type === 'ATTEST' && step.event.evidence === 'verification';
      if (
        after < before &&
        !step.after.context.readAfterWrite &&
        !attested &&
        !/RESET|COMPLETE_VERIFICATION/.test(step.event.type)
      )
        return `${step.event.type} cleared consecutiveVerifyBlocks without evidence`;
      return null;
    },
  },
  ...bindingInvariants,
  {
    id: 'I22',
    name: 'A state-only write touches only the agent’s own records',
    sentence:
      'A state-only write is a write for the gate before it runs (I1, I2, I14), but once allowed it never makes the state WRITING, and its end, whatever the outcome, moves no state and changes no flag, target or evidence: it only leaves flight (and its success settles its tool’s recoveries).',
    check: (step) => {
      const s = subject(step);
      if (!s || s.kind !== 'write' || !s.stateOnly) return null;
      if (step.event.type === 'BEGIN_CALL') {
        if (step.decision === 'allowed' && stateOf(step.after) !== stateOf(step.before))
          return `an allowed state-only write went ${moved(step)}`;
        return null;
      }
      if (!s.ended) return null;
      if (stateOf(step.after) !== stateOf(step.before)) return `a state-only write’s end went ${moved(step)}`;
      const changed = changedFlags(step, [...FLAG_KEYS, 'validatedTargets', 'uncoveredTargets']);
      return changed.length ? `a state-only write’s end changed ${describeChange(step, changed)}` : null;
    },
  },
  {
    id: 'I23',
    name: 'Execution profiles decide state-only writes, and only those',
    sentence:
      'Under the investigation profile every state-only write is refused (POLICY_DENIED) in every state, before any other rule; under the detection profile a state-only write may begin in RESOLVING without a validated target, and under the coding profile in RESOLVING and VERIFYING; a write on the world is decided as without a profile, but for the coding profile’s file edits (I28).',
    check: (step) => {
      if (!isWriteAttempt(step)) return null;
      const profile = step.before.context.config.profile;
      const stateOnly = isStateOnlyAttempt(step);
      if (stateOnly && profile === 'investigation')
        return expectBlock(step, 'a state-only write under investigation', 'POLICY_DENIED');
      if (stateOnly && profile === 'detection' && stateOf(step.before) === 'RESOLVING')
        return step.decision === 'allowed'
          ? null
          : `a state-only write under detection was refused in RESOLVING (${reasonOf(step)})`;
      if (stateOnly && profile === 'coding' && ['RESOLVING', 'VERIFYING'].includes(stateOf(step.before)))
        return step.decision === 'allowed'
          ? null
          : `a state-only write under the coding profile was refused in ${stateOf(step.before)} (${reasonOf(step)})`;
      return reasonOf(step) === 'POLICY_DENIED' ? `a write that is not state-only was refused by the profile` : null;
    },
  },
  {
    id: 'I24',
    name: 'Shadow mode decides as enforce mode and lets the call run',
    sentence:
      'In shadow mode the gate decides as in enforce mode (I14); a call it would have blocked runs ungated: it is tracked as such with what it said of itself, changing nothing else, and when it ends its success is applied as the compatible API applies an ungated call’s (I9, I10) while its failure changes nothing but its leaving.',
    check: (step) => {
      const { event } = step;
      const b = step.before.context;
      const a = step.after.context;
      if (event.type === 'RUN_UNGATED') {
        const call = Object.hasOwn(a.shadowCalls, event.id) ? a.shadowCalls[event.id] : undefined;
        if (!call) return `the ${event.kind} run ungated is not tracked`;
        if (call.kind !== event.kind || call.tool !== event.tool || call.epoch !== b.writeEpoch)
          return `the ${event.kind} run ungated was tracked as ${call.kind} ${call.tool} at epoch ${call.epoch}`;
        if (!sameSet(call.targets ?? [], event.targets ?? []) || call.stateOnly !== event.stateOnly)
          return `the ${event.kind} run ungated lost what it said of itself`;
        if (Object.keys(a.shadowCalls).length !== Object.keys(b.shadowCalls).length + 1)
          return 'running a call ungated changed other ungated calls';
        const changed = changedFlags(step, [...FLAG_KEYS, 'validatedTargets', 'uncoveredTargets']);
        if (stateOf(step.after) !== stateOf(step.before) || changed.length || callCount(a) !== callCount(b))
          return `running a call ungated changed something else (${moved(step)}${changed.length ? `; ${describeChange(step, changed)}` : ''})`;
        return null;
      }
      const s = subject(step);
      if (event.type === 'TOOL_FAILED' && s?.ungated) {
        const changed = changedFlags(step, [...FLAG_KEYS, 'validatedTargets', 'uncoveredTargets']);
        if (stateOf(step.after) !== stateOf(step.before) || changed.length)
          return `an ungated call’s failure changed something (${moved(step)}${changed.length ? `; ${describeChange(step, changed)}` : ''})`;
      }
      if (Object.keys(a.shadowCalls).some((id) => !Object.hasOwn(b.shadowCalls, id)))
        return `${event.type} started an ungated call`;
      return null;
    },
  },
  ...provenanceInvariants,
  ...codingInvariants,
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
