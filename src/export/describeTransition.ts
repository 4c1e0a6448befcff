import type { NamedRef, TransitionDefinition } from '../MachineDefinition.js';

/** `block(UNVERIFIED_WRITE)` for `{ type: 'block', params: { reasonCode: 'UNVERIFIED_WRITE' } }`. */
export function formatRef(ref: NamedRef): string {
  if (typeof ref === 'string') return ref;
  const params = ref.params ? Object.values(ref.params).map(String) : [];
  return params.length ? `${ref.type}(${params.join(', ')})` : ref.type;
}

/** A transition's label as diagrams show it: `EVENT [guard] / action, action`. */
export function transitionLabel(event: string, t: TransitionDefinition): string {
  let label = event;
  if (t.guard !== undefined) label += ` [${formatRef(t.guard)}]`;
  if (t.actions?.length) label += ` / ${t.actions.map(formatRef).join(', ')}`;
  return label;
}
