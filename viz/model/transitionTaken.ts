import { guardImplementations } from '../../src/guards.js';
import type { MachineDefinition } from '../../src/MachineDefinition.js';
import type { RecordedCall } from '../../src/RecordingEntry.js';
import type { SafetyContext } from '../../src/SafetyContext.js';
import type { SafetyEvent } from '../../src/SafetyEvent.js';
import { ANY_STATE, transitionId } from './graphModel.js';

/*
 * Which transition of the definition a call took. The session does not say
 * (XState does not report it), so this re-runs the statechart's selection
 * rule on the context before the call: the state's own transitions for the
 * event in order, then the root-level ones; the first whose guard passes.
 * The guards are the core's own implementations, so this cannot drift from
 * the machine's rules.
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
    case 'create':
    case 'restore':
      return undefined;
  }
}

const guards: Record<string, (c: SafetyContext, e: SafetyEvent) => boolean> = guardImplementations;

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
  const levels: [string, MachineDefinition['on']][] = [
    [state, def.states[state]?.on],
    [ANY_STATE, def.on],
  ];
  for (const [source, on] of levels) {
    const list = on?.[event.type];
    if (!list) continue;
    for (let i = 0; i < list.length; i++) {
      const guard = list[i]!.guard;
      const name = guard === undefined ? undefined : typeof guard === 'string' ? guard : guard.type;
      if (name === undefined || guards[name]?.(context, event)) return transitionId(source, event.type, i);
    }
  }
  return undefined;
}
