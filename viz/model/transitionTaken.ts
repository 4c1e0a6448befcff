import { resolveTransition, transitionsOf, type TransitionInfo } from 'assistant-safety/testing';
import type { MachineDefinition } from 'assistant-safety';
import type { SafetyContext } from 'assistant-safety';
import type { SafetyEvent } from 'assistant-safety';
import { ANY_STATE, transitionId } from './graphModel.js';

/*
 * Which transition of the definition a call took. The session does not say
 * (XState does not report it), so this re-runs the statechart's selection
 * rule on the context before the call (src/mbt's resolveTransition: the
 * state's own transitions for the event in order, then the root-level ones;
 * the first whose guard passes, with the core's own guard implementations).
 */

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
