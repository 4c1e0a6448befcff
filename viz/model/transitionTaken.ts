import { resolveTransition, transitionsOf, type TransitionInfo } from '../../src/mbt/coverage.js';
import type { MachineDefinition } from '../../src/MachineDefinition.js';
import type { RecordedCall } from '../../src/RecordingEntry.js';
import type { SafetyContext } from '../../src/SafetyContext.js';
import type { SafetyEvent } from '../../src/SafetyEvent.js';
import { ANY_STATE, transitionId } from './graphModel.js';

/*
 * Which transition of the definition a call took. The session does not say
 * (XState does not report it), so this re-runs the statechart's selection
 * rule on the context before the call (src/mbt's resolveTransition: the
 * state's own transitions for the event in order, then the root-level ones;
 * the first whose guard passes, with the core's own guard implementations).
 */

/** The machine event a recorded API call sends, as the session builds it; undefined when it sends none. */
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
      // An end of a call not in flight is ignored by the session: no event at all.
      if (!Object.hasOwn(context.calls, call.id)) return undefined;
      return call.ok
        ? { type: 'TOOL_SUCCEEDED', id: call.id, at, ...(call.verified !== undefined && { verified: call.verified }) }
        : { type: 'TOOL_FAILED', id: call.id, at };
    case 'recordLoopBlock': // the tool loop refused it: the machine was not asked
    case 'create':
    case 'restore':
      return undefined;
  }
}

// Built once per definition: the Analyzer asks for every entry of a recording.
const transitionLists = new WeakMap<MachineDefinition, TransitionInfo[]>();

/**
 * The id of the transition `event` takes from `state` with `context` (see
 * graphModel's ids), or undefined when no transition handles it.
 *
 * @example
 * transitionTaken(def, 'READING', ctx, { type: 'BEGIN_CALL', id: 'c', kind: 'write', tool: 't', at: 0 });
 * // 'READING.BEGIN_CALL[0]'
 */
export function transitionTaken(
  def: MachineDefinition,
  state: string,
  context: SafetyContext,
  event: SafetyEvent,
): string | undefined {
  let transitions = transitionLists.get(def);
  if (!transitions) transitionLists.set(def, (transitions = transitionsOf(def)));
  // The same selection rule the QA coverage uses: one implementation of "which transition fires".
  const taken = resolveTransition(def, state, context, event, transitions).taken;
  return taken && transitionId(taken.source ?? ANY_STATE, taken.event, taken.index);
}
