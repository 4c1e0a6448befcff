import {
  approvedFor,
  binds,
  callCount,
  changedFlags,
  describeChange,
  evidenceOf,
  expectBlock,
  FLAG_KEYS,
  isDiscovery,
  isEgressAttempt,
  isWorldWrite,
  isWriteAttempt,
  list,
  moved,
  sameSet,
  stateOf,
  subject,
  success,
  causalRead,
  endsDelegation,
  fileEditEnd,
  unvalidatedOf,
  without,
  type Invariant,
} from './stepFacts.js';
import { normaliseWords } from '../safety/userWords.js';
import { FILE_TARGET_PREFIX } from '../safety/SafetyContext.js';

/**
 * The rules of target binding and human evidence (I18–I21), each a predicate
 * over one step; {@link invariants} lists them with the rest.
 */
export const bindingInvariants: readonly Invariant[] = [
  {
    id: 'I18',
    name: 'No write to an unvalidated target',
    sentence:
      'With target binding, a write checked or begun in READING that names a target nothing has validated (no evidence, not the user’s words) is blocked (TARGET_NOT_VALIDATED) and the block names exactly those targets; no write on the world ever begins with a target that is not validated, but for the resource a creating write creates.',
    check: (step) => {
      const a = step.after.context;
      // Checked as a call begins: a subagent's end may later take a file's validation away from an
      // edit already running (I30), which is not a write beginning unvalidated.
      if (binds(a))
        for (const id in a.calls) {
          if (id in step.before.context.calls) continue;
          const call = a.calls[id]!;
          const missing = (call.targets ?? []).filter(
            (t) => !a.validatedTargets.includes(t) && !(call.created?.includes(t) ?? false),
          );
          if (isWorldWrite(call) && missing.length)
            return `a write to ${list(missing)} is in flight, not validated (validated: ${list(a.validatedTargets)})`;
        }
      if (stateOf(step.before) !== 'READING' || !isWriteAttempt(step)) return null;
      const missing = unvalidatedOf(step);
      if (missing.length === 0) return null;
      const wrong = expectBlock(step, `a write to unvalidated ${list(missing)}`, 'TARGET_NOT_VALIDATED');
      if (wrong) return wrong;
      const named = a.lastBlock?.targets ?? [];
      return sameSet(named, missing) ? null : `the block named ${list(named)}, not the unvalidated ${list(missing)}`;
    },
  },
  {
    id: 'I19',
    name: 'Targets are validated only by evidence',
    sentence:
      'With target binding, the validated targets grow exactly by evidence: the targets a successful resolve or read carried and those a result revealed (of an untrusted tool only identifier fields a rule declares, never a state-only write’s), the resources a creating write created once it lands, the targets of a call allowed to begin that stand in the user’s words, those targetEstablished() names, and those a person attested as a target (an attested verification validates none); nothing but reset() removes one, but that a subagent’s end under the coding profile removes the files (I30). Without binding none is kept.',
    check: (step) => {
      const b = step.before.context;
      const a = step.after.context;
      if (!binds(b))
        return a.validatedTargets.length || a.uncoveredTargets.length
          ? `without binding the session kept targets (${describeChange(step, ['validatedTargets', 'uncoveredTargets'])})`
          : null;
      if (step.event.type === 'RESET') return null;
      const evidence = evidenceOf(step);
      // A subagent's end under the coding profile forgets the files (I30 says exactly which).
      const dropped = without(b.validatedTargets, a.validatedTargets).filter(
        (t) => !(endsDelegation(step) && t.startsWith(FILE_TARGET_PREFIX)),
      );
      if (dropped.length) return `${step.event.type} dropped the validated ${list(dropped)}`;
      const added = without(a.validatedTargets, b.validatedTargets);
      const unfounded = without(added, evidence);
      if (unfounded.length)
        return `${step.event.type} validated ${list(unfounded)} without evidence${success(step)?.untrusted ? ' (an untrusted tool)' : ''}`;
      // Evidence that must count: a discovery's success, what a gated write's result revealed, the
      // user's targets, a person's attested target.
      const s = success(step);
      const counts =
        (s !== undefined && (isDiscovery(s.kind) || (isWorldWrite(s) && s.ended && !s.ungated))) ||
        step.event.type === 'TARGET_ESTABLISHED' ||
        step.event.type === 'ATTEST' ||
        step.event.type === 'BEGIN_CALL';
      const ignored = counts ? without(evidence, a.validatedTargets) : [];
      return ignored.length ? `${step.event.type} did not validate ${list(ignored)}` : null;
    },
  },
  {
    id: 'I20',
    name: 'A targeted write is verified only by a covering read begun after it',
    sentence:
      'With target binding, a write that names targets leaves them all to be covered; only a trusted resolve or read begun after it landed covers the targets it carried or revealed, and readAfterWrite becomes true exactly when such reads together cover every one (a read without targets covers none); nothing else covers a target.',
    check: (step) => {
      const b = step.before.context;
      const a = step.after.context;
      if (!binds(b)) return null;
      if (a.writeEpoch === b.writeEpoch + 1 && fileEditEnd(step)) {
        // The coding profile's file edit: its files wait on their own (I28); nothing else is to cover.
        return sameSet(a.uncoveredTargets, b.uncoveredTargets)
          ? null
          : `a file edit changed the targets to cover ${list(b.uncoveredTargets)} → ${list(a.uncoveredTargets)}`;
      }
      if (a.writeEpoch === b.writeEpoch + 1) {
        // A write was recorded: its targets (a self-verified one's none) are now to be covered.
        const s = subject(step);
        const selfVerified = a.readAfterWrite;
        const expected = selfVerified ? [] : (s?.targets ?? []);
        return sameSet(a.uncoveredTargets, expected)
          ? null
          : `a landed write to ${list(s?.targets ?? [])} left ${list(a.uncoveredTargets)} to cover, not ${list(expected)}`;
      }
      const grown = without(a.uncoveredTargets, b.uncoveredTargets);
      if (grown.length) return `${step.event.type} added ${list(grown)} to the targets to cover`;
      const causal = causalRead(step);
      const verifying = stateOf(step.before) === 'VERIFYING';
      const evidence = causal && verifying ? evidenceOf(step) : [];
      const left = without(b.uncoveredTargets, evidence);
      if (!b.readAfterWrite && a.readAfterWrite && !step.event.type.startsWith('RESET')) {
        if (left.length) return `a read of ${list(evidence)} set readAfterWrite with ${list(left)} not covered`;
        return null;
      }
      if (causal && verifying && !b.readAfterWrite) {
        if (left.length === 0 && !a.readAfterWrite)
          return `a read began after the write covered every target (${list(b.uncoveredTargets)}) and did not verify it`;
        if (!sameSet(a.uncoveredTargets, left))
          return `after a read of ${list(evidence)} the targets to cover are ${list(a.uncoveredTargets)}, not ${list(left)}`;
        return null;
      }
      // Nothing but a covering read shrinks them while the write is unverified.
      const leftVerifying = stateOf(step.after) !== 'VERIFYING' || a.readAfterWrite;
      const covered = without(b.uncoveredTargets, a.uncoveredTargets);
      if (covered.length && !leftVerifying)
        return `${step.event.type} covered ${list(covered)} without a read begun after the write`;
      return null;
    },
  },
  {
    id: 'I21',
    name: 'Attestation is evidence for one call, never a bypass',
    sentence:
      'A person’s attestation decides nothing and starts no call. Attested targets send RESOLVING to READING and elsewhere move no state (they are validated, I19); a verification attested for the final answer, in VERIFYING, goes to READING like completeVerification after evidence (readAfterWrite, the counter and the targets to cover cleared, wroteThisEpisode kept); an approval of one blocked call (its digest) only waits for that call (I27); anything else changes nothing: a write in flight cannot be attested.',
    check: (step) => {
      const { event } = step;
      if (event.type !== 'ATTEST') return null;
      const b = step.before.context;
      const a = step.after.context;
      const from = stateOf(step.before);
      if (a.blockCount !== b.blockCount || callCount(a) !== callCount(b)) return 'an attestation decided a call';
      if (event.evidence === 'target' && (event.targets?.length ?? 0) > 0) {
        const expected = from === 'RESOLVING' ? 'READING' : from;
        if (stateOf(step.after) !== expected) return `an attested target went ${moved(step)}, not to ${expected}`;
        const changed = changedFlags(step);
        return changed.length ? `an attested target changed ${describeChange(step, changed)}` : null;
      }
      if (event.evidence === 'verification' && event.reasonCode === 'FINAL_ANSWER_UNVERIFIED' && from === 'VERIFYING') {
        if (stateOf(step.after) !== 'READING') return `an attested verification went ${moved(step)}, not to READING`;
        if (a.readAfterWrite || a.consecutiveVerifyBlocks !== 0 || a.uncoveredTargets.length)
          return `an attested verification left ${describeChange(step, ['readAfterWrite', 'consecutiveVerifyBlocks', 'uncoveredTargets'])}`;
        if (a.wroteThisEpisode !== b.wroteThisEpisode || a.validatedTargets !== b.validatedTargets)
          return `an attested verification changed ${describeChange(step, ['wroteThisEpisode', 'validatedTargets'])}`;
        return null;
      }
      const changed = changedFlags(step, [...FLAG_KEYS, 'validatedTargets', 'uncoveredTargets']);
      if (stateOf(step.after) !== from || changed.length)
        return `an attestation (${event.evidence}, ${event.reasonCode}) in ${from} changed something (${moved(step)}${changed.length ? `; ${describeChange(step, changed)}` : ''})`;
      return null;
    },
  },
];

/**
 * The rules of provenance (I25–I27): the user's words, egress, approvals bound to one call.
 */
export const provenanceInvariants: readonly Invariant[] = [
  {
    id: 'I25',
    name: 'The user’s words come only from the user',
    sentence:
      'What the user or the engineer said is kept from every user or system message, and only from those (cleared only by reset()); no tool call, result, check or attestation adds to it, so no tool output can validate a target as the user’s words.',
    check: (step) => {
      const { event } = step;
      if (event.type === 'RESET') return null;
      if (event.type === 'USER_MESSAGE') {
        const words = normaliseWords(event.text);
        return words === '' || step.after.context.userWords.includes(words)
          ? null
          : `a ${event.source} message was not kept`;
      }
      const b = step.before.context.userWords;
      const a = step.after.context.userWords;
      return a.length === b.length && a.every((w, i) => w === b[i]) ? null : `${event.type} changed the user’s words`;
    },
  },
  {
    id: 'I26',
    name: 'No egress to an unvalidated destination',
    sentence:
      'With target binding, an egress read begun with a destination nothing has validated is blocked (EGRESS_NOT_VALIDATED) naming exactly those destinations, in every state; one allowed has every destination validated.',
    check: (step) => {
      if (!isEgressAttempt(step) || !binds(step.before.context)) return null;
      const missing = unvalidatedOf(step);
      if (missing.length === 0)
        return step.decision === 'blocked' ? `an egress read to validated destinations was blocked` : null;
      const wrong = expectBlock(step, `an egress read to unvalidated ${list(missing)}`, 'EGRESS_NOT_VALIDATED');
      if (wrong) return wrong;
      const named = step.after.context.lastBlock?.targets ?? [];
      return sameSet(named, missing) ? null : `the block named ${list(named)}, not the unvalidated ${list(missing)}`;
    },
  },
  {
    id: 'I27',
    name: 'An approval is for the call the person saw, once',
    sentence:
      'A person’s approval is kept by an attestation that carries the blocked call’s digest (for NO_VALIDATED_TARGET in RESOLVING, UNVERIFIED_WRITE in VERIFYING), and only so and only for that digest; a write begins past a block only with an approval of its own digest for that block, within its time, and that approval is then used up; nothing else adds or uses one (reset() clears them).',
    check: (step) => {
      const { event } = step;
      const b = step.before.context.approvals;
      const a = step.after.context.approvals;
      if (event.type === 'RESET') return null;
      const added = a.filter((x) => !b.some((y) => y.digest === x.digest && y.at === x.at));
      // A person's answer to the block that asks for an approval is kept, for that call.
      const asks =
        event.type === 'ATTEST' &&
        event.digest !== undefined &&
        ((stateOf(step.before) === 'RESOLVING' &&
          event.reasonCode === 'NO_VALIDATED_TARGET' &&
          (event.targets?.length ?? 0) === 0) ||
          (stateOf(step.before) === 'VERIFYING' && event.reasonCode === 'UNVERIFIED_WRITE'));
      if (asks && !a.some((x) => x.digest === event.digest && x.reasonCode === event.reasonCode))
        return `the approval of ${event.digest} (${event.reasonCode}) was not kept`;
      if (added.length > 0) {
        if (!asks || added.length > 1 || added[0]!.digest !== event.digest)
          return `${event.type} kept an approval for ${added.map((x) => x.digest).join(', ')}`;
      }
      const approvedWrite =
        event.type === 'BEGIN_CALL' &&
        step.decision === 'allowed' &&
        ((stateOf(step.before) === 'VERIFYING' && event.kind === 'write' && !event.stateOnly) ||
          (stateOf(step.before) === 'RESOLVING' && approvedFor(step, 'NO_VALIDATED_TARGET')));
      const used = b.filter((x) => !a.some((y) => y.digest === x.digest && y.at === x.at));
      if (approvedWrite) {
        const digest = subject(step)?.digest;
        if (stateOf(step.before) === 'VERIFYING' && !approvedFor(step, 'UNVERIFIED_WRITE'))
          return 'a write began in VERIFYING with no approval of its own';
        return used.length === 1 && used[0]!.digest === digest
          ? null
          : 'an approved write did not use its approval, once';
      }
      if (used.length > 0 && event.type !== 'ATTEST')
        return `${event.type} used the approval for ${used.map((x) => x.digest).join(', ')}`;
      return null;
    },
  },
];
