import type { SafetyContext } from './SafetyContext.js';
import type { SafetyEvent } from './SafetyEvent.js';
import { isDiscoveryKind, type ToolKind } from './toolKind.js';

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
  if (!subject || subject.untrusted) return [];
  const discovered = event.type === 'TOOL_SUCCEEDED' ? event.discovered : undefined;
  const own = isDiscoveryKind(subject.kind) ? (subject.targets ?? []) : [];
  return discovered ? [...own, ...discovered] : own;
}

/** The targets of a write not validated yet (binding only; a state-only write names the agent's own records). */
export function unvalidatedTargets(context: SafetyContext, event: SafetyEvent): readonly string[] {
  if (!binds(context) || isStateOnly(context, event)) return [];
  const subject = subjectOf(context, event);
  if (subject?.kind !== 'write' || !subject.targets) return [];
  return subject.targets.filter((t) => !context.validatedTargets.includes(t));
}

/** A discovery or read that began after the last write landed (the causal test). */
function beganAfterLastWrite(context: SafetyContext, event: SafetyEvent): boolean {
  const subject = subjectOf(context, event);
  return subject !== undefined && isDiscoveryKind(subject.kind) && subject.epoch === context.writeEpoch;
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
  hasUnvalidatedTarget: (context, event) => unvalidatedTargets(context, event).length > 0,
  isStateOnlyWrite: (context, event) => kindOf(context, event) === 'write' && isStateOnly(context, event),
  detectionAllowsStateOnlyWrite: (context, event) =>
    context.config.profile === 'detection' && kindOf(context, event) === 'write' && isStateOnly(context, event),
  profileDeniesCall: (context, event) =>
    context.config.profile === 'investigation' && kindOf(context, event) === 'write' && isStateOnly(context, event),
  isSelfVerifiedWrite: (context, event) =>
    event.type === 'TOOL_SUCCEEDED' && event.verified === true && kindOf(context, event) === 'write',
  hasReadAfterWrite: (context) => context.readAfterWrite,
  attestsTarget: (_context, event) => event.type === 'ATTEST' && event.evidence === 'target',
  attestsVerification: (_context, event) => event.type === 'ATTEST' && event.evidence === 'verification',
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
