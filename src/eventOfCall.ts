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
    case 'canExecuteTool':
      return { type: 'CHECK_TOOL', kind: call.kind, tool: call.tool, at };
    case 'onToolSuccess':
      return { type: 'TOOL_SUCCEEDED', kind: call.kind, tool: call.tool, at };
    case 'canFinalAnswer':
      return { type: 'CHECK_FINAL_ANSWER', at };
    case 'completeVerification':
      return { type: 'COMPLETE_VERIFICATION', at };
    case 'targetEstablished':
      return { type: 'TARGET_ESTABLISHED', at };
    case 'reset':
      return { type: 'RESET', at };
    case 'resetKeepProgress':
      return { type: 'RESET_KEEP_PROGRESS', at };
    case 'trackPendingRecovery':
      return { type: 'TRACK_RECOVERY', errorCode: call.errorCode, tool: call.tool, at };
    case 'checkRecoverySuccess':
      return { type: 'CHECK_RECOVERY', tool: call.tool, at };
    case 'beginToolCall':
      return { type: 'BEGIN_CALL', id: call.id, kind: call.kind, tool: call.tool, at };
    case 'endToolCall':
      if (!Object.hasOwn(context.calls, call.id)) return undefined;
      return call.ok
        ? { type: 'TOOL_SUCCEEDED', id: call.id, at, ...(call.verified !== undefined && { verified: call.verified }) }
        : { type: 'TOOL_FAILED', id: call.id, at, ...(call.unknown === true && { unknown: true }) };
    case 'recordLoopBlock':
    case 'create':
    case 'restore':
      return undefined;
  }
}
