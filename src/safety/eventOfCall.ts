import type { RecordedCall } from './RecordingEntry.js';
import type { SafetyContext } from './SafetyContext.js';
import type { SafetyEvent } from './SafetyEvent.js';

/**
 * The machine event a session API call sends, or undefined when it sends none:
 * a session start, the end of a call that is not in flight (the session
 * ignores it), a call the tool loop refused itself. The session builds its
 * events with this, so the model-based tests and the visualiser, which ask the
 * same question, cannot disagree with it.
 *
 * @example
 * eventOfCall({ type: 'beginToolCall', id: 'c1', kind: 'read', tool: 'get_logs' }, 5, session.context);
 * // { type: 'BEGIN_CALL', id: 'c1', kind: 'read', tool: 'get_logs', at: 5 }
 */
export function eventOfCall(call: RecordedCall, at: number, context: SafetyContext): SafetyEvent | undefined {
  switch (call.type) {
    // The hot events are built field by field, in the order a literal would have: an object
    // literal with conditional spreads costs several times more to build and to read.
    case 'canExecuteTool':
      if (call.targets) return { type: 'CHECK_TOOL', kind: call.kind, tool: call.tool, targets: call.targets, at };
      return { type: 'CHECK_TOOL', kind: call.kind, tool: call.tool, at };
    case 'onToolSuccess':
      if (call.targets) return { type: 'TOOL_SUCCEEDED', kind: call.kind, tool: call.tool, targets: call.targets, at };
      return { type: 'TOOL_SUCCEEDED', kind: call.kind, tool: call.tool, at };
    case 'canFinalAnswer':
      return { type: 'CHECK_FINAL_ANSWER', at };
    case 'completeVerification':
      return { type: 'COMPLETE_VERIFICATION', at };
    case 'targetEstablished':
      return {
        type: 'TARGET_ESTABLISHED',
        ...(call.targets && { targets: call.targets }),
        ...(call.source && { source: call.source }),
        at,
      };
    case 'attest':
      return {
        type: 'ATTEST',
        evidence: call.evidence,
        reasonCode: call.reasonCode,
        ...(call.targets && { targets: call.targets }),
        by: call.by,
        ...(call.note !== undefined && { note: call.note }),
        ...(call.digest !== undefined && { digest: call.digest }),
        at,
      };
    case 'userMessage':
      return { type: 'USER_MESSAGE', text: call.text, source: call.source ?? 'user', at };
    case 'reset':
      return { type: 'RESET', at };
    case 'resetKeepProgress':
      return { type: 'RESET_KEEP_PROGRESS', at };
    case 'trackPendingRecovery':
      return { type: 'TRACK_RECOVERY', errorCode: call.errorCode, tool: call.tool, at };
    case 'checkRecoverySuccess':
      return { type: 'CHECK_RECOVERY', tool: call.tool, at };
    case 'beginToolCall': {
      if (
        !call.targets &&
        call.stateOnly !== true &&
        call.trust !== 'untrusted' &&
        call.creates !== true &&
        call.egress !== true &&
        call.digest === undefined &&
        call.check !== true &&
        call.delegates !== true
      )
        return { type: 'BEGIN_CALL', id: call.id, kind: call.kind, tool: call.tool, at };
      const event: Record<string, unknown> = { type: 'BEGIN_CALL', id: call.id, kind: call.kind, tool: call.tool };
      if (call.targets) event['targets'] = call.targets;
      if (call.stateOnly === true) event['stateOnly'] = true;
      if (call.trust === 'untrusted') event['untrusted'] = true;
      if (call.creates === true) event['creates'] = true;
      if (call.created) event['created'] = call.created;
      if (call.egress === true) event['egress'] = true;
      if (call.digest !== undefined) event['digest'] = call.digest;
      if (call.check === true) event['check'] = true;
      if (call.delegates === true) event['delegates'] = true;
      event['at'] = at;
      return event as SafetyEvent;
    }
    case 'endToolCall': {
      const inFlight = Object.hasOwn(context.calls, call.id);
      const shadow = !inFlight && Object.hasOwn(context.shadowCalls, call.id);
      if (!inFlight && !shadow) return undefined;
      // A shadow write with an unknown outcome may have landed: it is reported as an ungated write that did.
      const landed = call.ok || (shadow && call.unknown === true && context.shadowCalls[call.id]!.kind === 'write');
      if (!landed)
        return call.unknown === true
          ? { type: 'TOOL_FAILED', id: call.id, at, unknown: true }
          : { type: 'TOOL_FAILED', id: call.id, at };
      if (call.verified === undefined && !call.discovered) return { type: 'TOOL_SUCCEEDED', id: call.id, at };
      const event: SafetyEvent & { type: 'TOOL_SUCCEEDED' } = { type: 'TOOL_SUCCEEDED', id: call.id, at };
      if (call.verified !== undefined) event.verified = call.verified;
      if (call.discovered) event.discovered = call.discovered;
      if (call.discovered && call.fields) event.fields = call.fields;
      return event;
    }
    case 'recordLoopBlock':
    case 'create':
    case 'restore':
      return undefined;
  }
}
