import type { SafetyContext } from './SafetyContext.js';
import type { SafetyEvent } from './SafetyEvent.js';
import { isDiscoveryKind, type ToolKind } from './toolKind.js';
import { APPROVAL_TTL_MS, FILE_TARGET_PREFIX, MAX_EDITED_FILES } from './SafetyContext.js';
import { callDigest, userWordsFor } from './userWords.js';

/** A guard implementation: a pure predicate over the context and the event. */
export type GuardImpl = (context: SafetyContext, event: SafetyEvent) => boolean;

/** The call an event is about: its kind, its tool, the epoch at which it began, and what it said of itself. */
export interface Subject {
  kind: ToolKind;
  tool: string;
  epoch: number;
  targets?: readonly string[];
  stateOnly?: true;
  untrusted?: true;
  creates?: true;
  created?: readonly string[];
  egress?: true;
  digest?: string;
  check?: true;
  delegates?: true;
}

/** The subject built for the last check or begin (see {@link subjectOf}); events are never mutated. */
let lastEvent: SafetyEvent | undefined;
let lastSubject: Subject | undefined;

/**
 * Resolves the call an event is about. An event that ends a call is about the
 * call recorded when it began (so the end cannot lie about its kind or targets); a
 * check or a compatible-API success carries its own kind and counts as begun now.
 * A success may end a shadow call (shadow mode); a failure of one is about no call:
 * an ungated call that failed changes nothing, as the compatible API has no failure.
 */
export function subjectOf(context: SafetyContext, event: SafetyEvent): Subject | undefined {
  switch (event.type) {
    case 'TOOL_SUCCEEDED':
    case 'TOOL_FAILED': {
      if (event.id !== undefined) {
        // The recorded call itself (it has kind, tool and epoch): no allocation on the hot path.
        if (Object.hasOwn(context.calls, event.id)) return context.calls[event.id];
        if (event.type === 'TOOL_SUCCEEDED' && Object.hasOwn(context.shadowCalls, event.id))
          return context.shadowCalls[event.id];
        return undefined;
      }
      if (event.type === 'TOOL_SUCCEEDED' && event.kind !== undefined) {
        const subject: Subject = { kind: event.kind, tool: event.tool ?? '', epoch: context.writeEpoch };
        if (event.targets !== undefined) subject.targets = event.targets;
        return subject;
      }
      return undefined;
    }
    case 'CHECK_TOOL':
    case 'BEGIN_CALL':
      // Checked now: it counts as begun at the current epoch. The event has the fields a subject
      // needs; the guards of one event ask for it several times, so the last one is kept.
      if (event !== lastEvent || context.writeEpoch !== lastSubject!.epoch) {
        // Built field by field: a spread of the event cost more than the rest of the guard.
        const subject: Subject = { kind: event.kind, tool: event.tool, epoch: context.writeEpoch };
        if (event.targets !== undefined) subject.targets = event.targets;
        if (event.type === 'BEGIN_CALL') {
          if (event.stateOnly === true) subject.stateOnly = true;
          if (event.untrusted === true) subject.untrusted = true;
          if (event.creates === true) subject.creates = true;
          if (event.created !== undefined) subject.created = event.created;
          if (event.egress === true) subject.egress = true;
          if (event.digest !== undefined) subject.digest = event.digest;
          if (event.check === true) subject.check = true;
          if (event.delegates === true) subject.delegates = true;
        }
        lastSubject = subject;
      }
      lastEvent = event;
      return lastSubject;
    default:
      return undefined;
  }
}

/** The kind of call an event is about; a check or a begin carries it, so nothing is built (guards run on every event). */
function kindOf(context: SafetyContext, event: SafetyEvent): ToolKind | undefined {
  return event.type === 'CHECK_TOOL' || event.type === 'BEGIN_CALL' ? event.kind : subjectOf(context, event)?.kind;
}

/** A state-only call of the event (a begin says so itself; an end is about the call as begun). */
function isStateOnly(context: SafetyContext, event: SafetyEvent): boolean {
  if (event.type === 'BEGIN_CALL') return event.stateOnly === true;
  if (event.type === 'CHECK_TOOL') return false;
  return subjectOf(context, event)?.stateOnly === true;
}

const binds = (context: SafetyContext) => context.config.targets === 'bind';

/**
 * The targets a successful call counts as evidence about: those it carried, plus those its
 * result revealed. Under binding, an untrusted tool's count for nothing.
 */
export function evidenceTargets(subject: Subject | undefined, event: SafetyEvent): readonly string[] {
  if (!subject) return [];
  let discovered = event.type === 'TOOL_SUCCEEDED' ? event.discovered : undefined;
  // An untrusted tool's own targets and free text validate nothing; only the identifier fields a
  // rule declares (`discovered` with the field each came from, which its system of record assigns) do.
  if (subject.untrusted && discovered) {
    const fields = event.type === 'TOOL_SUCCEEDED' ? event.fields : undefined;
    discovered = fields ? discovered.filter((_, i) => !!fields[i]) : undefined;
  }
  const own = isDiscoveryKind(subject.kind) && !subject.untrusted ? (subject.targets ?? []) : [];
  const created = subject.kind === 'write' && subject.created ? subject.created : [];
  if (!discovered && created.length === 0) return own;
  return [...own, ...created, ...(discovered ?? [])];
}

/** Whether a target is validated: in the set, or its value stands in the user's or the engineer's words. */
function isValidated(context: SafetyContext, target: string): boolean {
  return context.validatedTargets.includes(target) || userWordsFor(target, context.userWords) !== undefined;
}

/**
 * The targets of a write (or of an egress read) not validated yet. Binding only; a state-only write
 * names the agent's own records; the resources a creating write creates need no validation.
 */
export function unvalidatedTargets(context: SafetyContext, event: SafetyEvent): readonly string[] {
  if (!binds(context) || isStateOnly(context, event)) return [];
  const subject = subjectOf(context, event);
  if (!subject?.targets || !(subject.kind === 'write' || (subject.egress === true && subject.kind === 'read')))
    return [];
  const created = subject.created;
  return subject.targets.filter((t) => !(created?.includes(t) ?? false) && !isValidated(context, t));
}

/** The targets of a call that are validated by the user's words only (to record where they came from). */
export function userNamedTargets(context: SafetyContext, event: SafetyEvent): { target: string; words: string }[] {
  if (!binds(context) || context.userWords.length === 0) return [];
  const subject = subjectOf(context, event);
  if (!subject?.targets) return [];
  const out: { target: string; words: string }[] = [];
  for (const target of subject.targets) {
    if (context.validatedTargets.includes(target) || (subject.created?.includes(target) ?? false)) continue;
    const words = userWordsFor(target, context.userWords);
    if (words !== undefined) out.push({ target, words });
  }
  return out;
}

/** The digest a call's approval must carry: the one it was begun with, else its tool and targets'. */
export function digestOf(subject: Subject): string {
  return subject.digest ?? callDigest(subject.targets ? { tool: subject.tool, targets: subject.targets } : subject);
}

/**
 * A world write a person approved for this block: an approval bound to this call's digest, given for
 * the reason the call is blocked for now, unused and within {@link APPROVAL_TTL_MS}.
 */
function isApproved(context: SafetyContext, event: SafetyEvent, reasonCode: string): boolean {
  if (event.type !== 'BEGIN_CALL' || context.approvals.length === 0 || !isWorldWriteCall(context, event)) return false;
  const digest = digestOf(subjectOf(context, event)!);
  return context.approvals.some(
    (a) => a.digest === digest && a.reasonCode === reasonCode && event.at - a.at <= APPROVAL_TTL_MS,
  );
}

/** A world write: a write that is not state-only. */
function isWorldWriteCall(context: SafetyContext, event: SafetyEvent): boolean {
  return kindOf(context, event) === 'write' && !isStateOnly(context, event);
}

/** A discovery or read that began after the last write landed (the causal test). */
function beganAfterLastWrite(context: SafetyContext, event: SafetyEvent): boolean {
  const subject = subjectOf(context, event);
  return subject !== undefined && isDiscoveryKind(subject.kind) && subject.epoch === context.writeEpoch;
}

/**
 * The coding profile's file edit: a world write whose every target is a file in the working tree
 * (`file:`), with no other write landed while it was in flight, and whose files the edited-file
 * list can still hold (otherwise it is an ordinary write, verified before anything else is
 * written: the safe direction).
 */
function isFileEdit(context: SafetyContext, event: SafetyEvent): boolean {
  if (context.config.profile !== 'coding') return false;
  const subject = subjectOf(context, event);
  if (subject?.kind !== 'write' || subject.stateOnly === true) return false;
  // Another write landed while it was in flight (the compatible API): the seed's rule verifies both.
  if (subject.epoch < context.writeEpoch) return false;
  const targets = subject.targets;
  if (targets === undefined || targets.length === 0) return false;
  let added = 0;
  for (const t of targets) {
    if (!t.startsWith(FILE_TARGET_PREFIX)) return false;
    if (!context.editedFiles.some((f) => f.target === t)) added++;
  }
  return context.editedFiles.length + added <= MAX_EDITED_FILES;
}

/** The guard implementations, by the names the machine JSON uses. */
export const guardImplementations = {
  isWrite: (context, event) => kindOf(context, event) === 'write',
  isDiscovery: (context, event) => isDiscoveryKind(kindOf(context, event)),
  establishesTarget: (context, event) =>
    isDiscoveryKind(kindOf(context, event)) && !(binds(context) && subjectOf(context, event)?.untrusted === true),
  isVerifyingRead: beganAfterLastWrite,
  isCoveringRead: (context, event) => {
    if (!beganAfterLastWrite(context, event)) return false;
    if (context.uncoveredTargets.length === 0) return true;
    const seen = evidenceTargets(subjectOf(context, event), event);
    return context.uncoveredTargets.every((t) => seen.includes(t));
  },
  hasUnvalidatedTarget: (context, event) =>
    kindOf(context, event) === 'write' && unvalidatedTargets(context, event).length > 0,
  /** An egress read (its URL or host carries data out) to a destination not validated. */
  isUnvalidatedEgress: (context, event) =>
    event.type === 'BEGIN_CALL' &&
    event.egress === true &&
    event.kind === 'read' &&
    unvalidatedTargets(context, event).length > 0,
  /**
   * A world write whose every target is validated (the set, or the user's words): it has its target.
   * A creating write needs only its other targets validated, and may name none.
   */
  namesValidatedTargets: (context, event) => {
    if (!binds(context) || !isWorldWriteCall(context, event)) return false;
    const subject = subjectOf(context, event);
    return (
      (subject?.creates === true || (subject?.targets?.length ?? 0) > 0) &&
      unvalidatedTargets(context, event).length === 0
    );
  },
  /** A creating write whose other targets (recipients, participants) are not all validated. */
  createsBesideUnvalidated: (context, event) =>
    isWorldWriteCall(context, event) &&
    subjectOf(context, event)?.creates === true &&
    unvalidatedTargets(context, event).length > 0,
  isApprovedTargetlessWrite: (context, event) => isApproved(context, event, 'NO_VALIDATED_TARGET'),
  isApprovedUnverifiedWrite: (context, event) => isApproved(context, event, 'UNVERIFIED_WRITE'),
  isStateOnlyWrite: (context, event) => kindOf(context, event) === 'write' && isStateOnly(context, event),
  detectionAllowsStateOnlyWrite: (context, event) =>
    context.config.profile === 'detection' && kindOf(context, event) === 'write' && isStateOnly(context, event),
  profileDeniesCall: (context, event) =>
    context.config.profile === 'investigation' && kindOf(context, event) === 'write' && isStateOnly(context, event),
  isSelfVerifiedWrite: (context, event) =>
    event.type === 'TOOL_SUCCEEDED' && event.verified === true && kindOf(context, event) === 'write',
  hasReadAfterWrite: (context) => context.readAfterWrite,
  isFileEdit,
  /** The coding profile: a subagent's call ended (ok or not): what it changed is not known here. */
  endsDelegation: (context, event) =>
    context.config.profile === 'coding' &&
    (event.type === 'TOOL_SUCCEEDED' || event.type === 'TOOL_FAILED') &&
    subjectOf(context, event)?.delegates === true,
  /** The coding profile: a file was edited and neither read nor checked since. */
  hasUncheckedFiles: (context) => context.editedFiles.length > 0,
  /** The coding profile: a state-only write (the todo list) never waits; it does not touch the world. */
  codingAllowsStateOnlyWrite: (context, event) =>
    context.config.profile === 'coding' && kindOf(context, event) === 'write' && isStateOnly(context, event),
  /** A person validated targets (they stay validated: one ask per target). */
  attestsTarget: (_context, event) =>
    event.type === 'ATTEST' && event.evidence === 'target' && (event.targets?.length ?? 0) > 0,
  attestsTargetlessWrite: (_context, event) =>
    event.type === 'ATTEST' &&
    event.digest !== undefined &&
    event.reasonCode === 'NO_VALIDATED_TARGET' &&
    (event.targets?.length ?? 0) === 0,
  attestsUnverifiedWrite: (_context, event) =>
    event.type === 'ATTEST' && event.digest !== undefined && event.reasonCode === 'UNVERIFIED_WRITE',
  /** A person verified the last write for the final answer (not a call: nothing else inherits it). */
  attestsVerification: (_context, event) =>
    event.type === 'ATTEST' && event.evidence === 'verification' && event.reasonCode === 'FINAL_ANSWER_UNVERIFIED',
  failedWriteNeedsVerification: (context, event) =>
    kindOf(context, event) === 'write' &&
    (context.config.failedWriteRequiresVerification || (event.type === 'TOOL_FAILED' && event.unknown === true)),
  writeLandedMeanwhile: (context, event) => {
    const subject = subjectOf(context, event);
    return subject?.kind === 'write' && subject.epoch < context.writeEpoch;
  },
  landsBesideWriteInFlight: (context, event) => {
    if (event.type !== 'TOOL_SUCCEEDED' || kindOf(context, event) !== 'write') return false;
    for (const id in context.calls) {
      const call = context.calls[id]!;
      if (id !== event.id && call.kind === 'write' && call.stateOnly !== true) return true;
    }
    return false;
  },
} satisfies Record<string, GuardImpl>;

export type GuardName = keyof typeof guardImplementations;
