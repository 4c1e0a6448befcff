import type { MachineDefinition, NamedRef, TransitionDefinition } from '../core/MachineDefinition.js';
import { refName } from '../core/MachineIndex.js';

/** Namespace of the named guards and actions in exported SCXML. */
export const SCXML_ACTION_NAMESPACE = 'urn:assistant-safety:scxml';

const esc = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function action(ref: NamedRef): string {
  if (typeof ref === 'string') return `<as:action type="${esc(ref)}"/>`;
  const params = Object.entries(ref.params ?? {})
    .map(([k, v]) => ` ${esc(k)}="${esc(String(v))}"`)
    .join('');
  return `<as:action type="${esc(ref.type)}"${params}/>`;
}

function transition(event: string, t: TransitionDefinition, indent: string): string {
  const guard = t.guard === undefined ? '' : ` cond="${esc(refName(t.guard))}"`;
  const target = t.target === undefined ? ' type="internal"' : ` target="${esc(t.target)}"`;
  const body = [
    `${indent}  <!-- ${esc(t.description).replace(/--/g, '- -')} -->`,
    ...(t.actions ?? []).map((a) => `${indent}  ${action(a)}`),
  ];
  return `${indent}<transition event="${esc(event)}"${guard}${target}>\n${body.join('\n')}\n${indent}</transition>`;
}

/**
 * The machine as SCXML (W3C State Chart XML). The states sit inside one
 * compound state that holds the root transitions, which gives them the same
 * precedence as here: a state's own transitions first, in document order.
 * Guards are named in `cond`; actions are `<as:action type="..." .../>`
 * elements in the {@link SCXML_ACTION_NAMESPACE} namespace.
 *
 * @example
 * writeFileSync('machine.scxml', toScxml(parseMachineDefinition(json)));
 */
export function toScxml(def: MachineDefinition): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:as="${SCXML_ACTION_NAMESPACE}" version="1.0" name="${esc(def.id)}" initial="session">`,
    `  <!-- ${esc(def.description).replace(/--/g, '- -')} -->`,
    `  <state id="session" initial="${esc(def.initial)}">`,
  ];
  for (const [name, state] of Object.entries(def.states)) {
    out.push(`    <state id="${esc(name)}">`, `      <!-- ${esc(state.description).replace(/--/g, '- -')} -->`);
    for (const [event, transitions] of Object.entries(state.on ?? {})) {
      for (const t of transitions) out.push(transition(event, t, '      '));
    }
    out.push('    </state>');
  }
  for (const [event, transitions] of Object.entries(def.on ?? {})) {
    for (const t of transitions) out.push(transition(event, t, '    '));
  }
  out.push('  </state>', '</scxml>');
  return out.join('\n') + '\n';
}
