import type { SafetyContext } from './SafetyContext.js';
import type { SafetyEvent } from './SafetyEvent.js';
import { isDiscoveryKind, type ToolKind } from './toolKind.js';

/** A guard implementation: a pure predicate over the context and the event. */
export type GuardImpl = (context: SafetyContext, event: SafetyEvent) => boolean;

/** The call an event is about: its kind, its tool, and the epoch at which it began. */
export interface Subject {
  kind: ToolKind;
  tool: string;
  epoch: number;
}

/**
 * Resolves the call an event is about. An event that ends a call is about the
 * call recorded when it began (so the end cannot lie about its kind); a check or
 * a compatible-API success carries its own kind and counts as begun now.
 */
export function subjectOf(context: SafetyContext, event: SafetyEvent): Subject | undefined {
  switch (event.type) {
    case 'TOOL_SUCCEEDED':
    case 'TOOL_FAILED': {
      if (event.id !== undefined) {
        // The recorded call itself (it has kind, tool and epoch): no allocation on the hot path.
        return Object.hasOwn(context.calls, event.id) ? context.calls[event.id] : undefined;
      }
      if (event.type === 'TOOL_SUCCEEDED' && event.kind !== undefined) {
        return { kind: event.kind, tool: event.tool ?? '', epoch: context.writeEpoch };
      }
      return undefined;
    }
    case 'CHECK_TOOL':
    case 'BEGIN_CALL':
      // Checked now: it counts as begun at the current epoch.
      return { kind: event.kind, tool: event.tool, epoch: context.writeEpoch };
    default:
      return undefined;
  }
}

/** The kind of call an event is about; a check or a begin carries it, so nothing is built (guards run on every event). */
function kindOf(context: SafetyContext, event: SafetyEvent): ToolKind | undefined {
  return event.type === 'CHECK_TOOL' || event.type === 'BEGIN_CALL' ? event.kind : subjectOf(context, event)?.kind;
}

/** The guard implementations, by the names the machine JSON uses. */
export const guardImplementations = {
  isWrite: (context, event) => kindOf(context, event) === 'write',
  isDiscovery: (context, event) => isDiscoveryKind(kindOf(context, event)),
  isVerifyingRead: (context, event) => {
    const subject = subjectOf(context, event);
    return subject !== undefined && isDiscoveryKind(subject.kind) && subject.epoch === context.writeEpoch;
  },
  isSelfVerifiedWrite: (context, event) =>
    event.type === 'TOOL_SUCCEEDED' && event.verified === true && kindOf(context, event) === 'write',
  hasReadAfterWrite: (context) => context.readAfterWrite,
  failedWriteNeedsVerification: (context, event) =>
    kindOf(context, event) === 'write' &&
    (context.config.failedWriteRequiresVerification || (event.type === 'TOOL_FAILED' && event.unknown === true)),
  writeLandedMeanwhile: (context, event) => {
    const subject = subjectOf(context, event);
    return subject?.kind === 'write' && subject.epoch < context.writeEpoch;
  },
  landsBesideWriteInFlight: (context, event) => {
    if (event.type !== 'TOOL_SUCCEEDED' || kindOf(context, event) !== 'write') return false;
    for (const id in context.calls) if (id !== event.id && context.calls[id]!.kind === 'write') return true;
    return false;
  },
} satisfies Record<string, GuardImpl>;

export type GuardName = keyof typeof guardImplementations;
