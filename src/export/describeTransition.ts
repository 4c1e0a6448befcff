import type { NamedRef, TransitionDefinition } from '../core/MachineDefinition.js';

/**
 * A guard or action reference as diagrams show it, parameters in brackets.
 *
 * @example
 * formatRef('isWrite'); // 'isWrite'
 * formatRef({ type: 'block', params: { reasonCode: 'UNVERIFIED_WRITE' } }); // 'block(UNVERIFIED_WRITE)'
 */
export function formatRef(ref: NamedRef): string {
  if (typeof ref === 'string') return ref;
  const params = ref.params ? Object.values(ref.params).map(String) : [];
  return params.length ? `${ref.type}(${params.join(', ')})` : ref.type;
}

/**
 * A transition's label as diagrams show it: `EVENT [guard] / action, action`.
 *
 * @example
 * transitionLabel('CHECK_TOOL', safetyMachineDefinition.states.VERIFYING.on.CHECK_TOOL[0]);
 * // 'CHECK_TOOL [isWrite] / block(UNVERIFIED_WRITE), countVerifyBlock'
 */
export function transitionLabel(event: string, t: TransitionDefinition): string {
  let label = event;
  if (t.guard !== undefined) label += ` [${formatRef(t.guard)}]`;
  if (t.actions?.length) label += ` / ${t.actions.map(formatRef).join(', ')}`;
  return label;
}
