import type { MachineDefinition, TransitionDefinition } from 'assistant-safety';

/**
 * The diagram id (`state.EVENT[i]`) of the transition a recorded Patrol step
 * took: of the transitions `from` has for the event (then the root-level
 * ones), the first that ends where the step ended (a targetless one when it
 * stayed). Read from the recorded states, so no guard is run.
 *
 * @example
 * patrolTransitionTaken(definition, 'detecting', 'SIGNALS_DETECTED', 'evaluationPass'); // 'detecting.SIGNALS_DETECTED[0]'
 */
export function patrolTransitionTaken(
  definition: MachineDefinition,
  from: string,
  event: string,
  to: string,
): string | undefined {
  const lands = (t: TransitionDefinition) => (t.target ?? from) === to;
  const own = definition.states[from]?.on?.[event] ?? [];
  const i = own.findIndex(lands);
  if (i >= 0) return `${from}.${event}[${i}]`;
  const root = definition.on?.[event] ?? [];
  const j = root.findIndex((t) => t.target === to);
  return j >= 0 ? `*.${event}[${j}]` : undefined;
}
