import type { MachineDefinition } from '../core/MachineDefinition.js';
import { transitionLabel } from './describeTransition.js';

// Mermaid reads `;` and `#` specially in labels; `:` only matters before the label.
const clean = (text: string) => text.replace(/[;#]/g, ',').replace(/\s+/g, ' ').trim();

/**
 * The machine as a Mermaid `stateDiagram-v2`. Every state carries its
 * description; every transition of a state is an edge labelled
 * `EVENT [guard] / actions` (a transition without a target is a self-loop).
 * Root transitions that change state are drawn from every state that does
 * not handle the event itself first; root bookkeeping without a target
 * (starting and finishing calls, recoveries) is listed in comments.
 *
 * @example
 * toMermaid(parseMachineDefinition(json)); // "stateDiagram-v2\n  [*] --> RESOLVING\n ..."
 */
export function toMermaid(def: MachineDefinition): string {
  const lines = ['stateDiagram-v2', `  %% ${clean(def.id)}: ${clean(def.description)}`, `  [*] --> ${def.initial}`];
  const states = Object.keys(def.states);
  for (const name of states) lines.push(`  ${name}: ${clean(def.states[name]!.description)}`);
  for (const name of states) {
    for (const [event, transitions] of Object.entries(def.states[name]!.on ?? {})) {
      for (const t of transitions) lines.push(`  ${name} --> ${t.target ?? name}: ${clean(transitionLabel(event, t))}`);
    }
  }
  for (const [event, transitions] of Object.entries(def.on ?? {})) {
    for (const t of transitions) {
      if (t.target === undefined) {
        lines.push(`  %% in every state: ${clean(transitionLabel(event, t))}`);
        continue;
      }
      for (const name of states) lines.push(`  ${name} --> ${t.target}: ${clean(transitionLabel(event, t))}`);
    }
  }
  return lines.join('\n') + '\n';
}
