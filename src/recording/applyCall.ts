import type { FSMBlockedError } from '../FSMBlockedError.js';
import type { Decision, RecordedBlockCode, RecordedCall } from '../RecordingEntry.js';
import type { SafetySession } from '../SafetySession.js';

/** What a session did with one call, as a recording would say it. */
export interface CallOutcome {
  decision: Decision;
  reasonCode?: RecordedBlockCode;
  result?: string;
  /** The block a check returned (the session's value, with its details). */
  blocked?: FSMBlockedError;
}

/**
 * Performs one recorded call on a session: the one place that maps a
 * recording's call vocabulary onto the session API (replays, playgrounds,
 * the model-based path tests).
 *
 * @example
 * applyCall(session, { type: 'beginToolCall', id: 'c1', kind: 'write', tool: 'restart_vm' });
 * // { decision: 'blocked', reasonCode: 'NO_VALIDATED_TARGET', blocked: FSMBlockedError } in RESOLVING
 */
export function applyCall(session: SafetySession, call: RecordedCall): CallOutcome {
  switch (call.type) {
    case 'canExecuteTool':
    case 'canFinalAnswer':
    case 'beginToolCall': {
      const blocked =
        call.type === 'canExecuteTool'
          ? session.canExecuteTool(call.kind, call.tool)
          : call.type === 'canFinalAnswer'
            ? session.canFinalAnswer()
            : session.beginToolCall({ id: call.id, kind: call.kind, tool: call.tool });
      return blocked ? { decision: 'blocked', reasonCode: blocked.reasonCode, blocked } : { decision: 'allowed' };
    }
    case 'endToolCall': {
      const known = Object.hasOwn(session.context.calls, call.id);
      session.endToolCall(
        call.verified === undefined
          ? { id: call.id, ok: call.ok }
          : { id: call.id, ok: call.ok, verified: call.verified },
      );
      return { decision: known ? 'applied' : 'ignored' };
    }
    case 'onToolSuccess':
      session.onToolSuccess(call.kind, call.tool);
      return { decision: 'applied' };
    case 'recordLoopBlock':
      // The loop's decision, not the machine's: replayed as a record, it changes nothing.
      session.recordLoopBlock({ id: call.id, kind: call.kind, tool: call.tool, code: call.code });
      return { decision: 'blocked', reasonCode: call.code };
    case 'completeVerification':
      session.completeVerification();
      return { decision: 'applied' };
    case 'targetEstablished':
      session.targetEstablished();
      return { decision: 'applied' };
    case 'reset':
      session.reset();
      return { decision: 'applied' };
    case 'resetKeepProgress':
      session.resetKeepProgress();
      return { decision: 'applied' };
    case 'trackPendingRecovery':
      return { decision: 'applied', result: session.trackPendingRecovery(call.errorCode, call.tool) };
    case 'checkRecoverySuccess': {
      const taken = session.checkRecoverySuccess(call.tool);
      return taken ? { decision: 'applied', result: taken.recoveryId } : { decision: 'applied' };
    }
    case 'create':
    case 'restore':
      throw new Error(`applyCall: "${call.type}" starts a session; it is not a call on one`);
  }
}
