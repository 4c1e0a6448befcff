import { useState } from 'react';
import type { MachineEdit } from 'assistant-safety/editor';
import { refName, SAFETY_EVENT_TYPES } from 'assistant-safety';
import type { MachineDefinition } from 'assistant-safety';
import { ANY_STATE, transitionId } from '../../model/graphModel.js';
import type { EditorSelection } from '../model/editorReducer.js';
import { CatalogueSelect } from './CatalogueSelect.js';
import { DescriptionField } from './DescriptionField.js';
import { NameSelect } from './NameSelect.js';

/**
 * A state (or "any state", the root's transitions): its description, its
 * transitions in the order they are tried (click one to edit it), and a
 * form to add a transition.
 */
export function StateInspector({
  definition,
  state,
  eventTypes = SAFETY_EVENT_TYPES,
  onEdit,
  onSelect,
}: {
  definition: MachineDefinition;
  /** A state name, or ANY_STATE for the root. */
  state: string;
  /** The events the machine's kind may handle (default: the safety machine's). */
  eventTypes?: readonly string[];
  onEdit(edit: MachineEdit): void;
  onSelect(selection: EditorSelection): void;
}) {
  const root = state === ANY_STATE;
  const on = root ? definition.on : definition.states[state]?.on;
  const [event, setEvent] = useState<string>(eventTypes[0]!);
  const [target, setTarget] = useState('');
  const [guard, setGuard] = useState('');
  return (
    <section className="edit-inspector" data-testid="state-inspector">
      <h2>{root ? 'any state (root transitions)' : state}</h2>
      {!root && (
        <>
          <div className="edit-label">description</div>
          <DescriptionField
            field="state-description"
            value={definition.states[state]?.description ?? ''}
            onApply={(description) => onEdit({ type: 'setStateDescription', state, description })}
          />
        </>
      )}
      <div className="edit-label">transitions, in the order they are tried</div>
      <ul className="edit-transition-list">
        {Object.entries(on ?? {}).flatMap(([ev, list]) =>
          list.map((t, i) => {
            const id = transitionId(state, ev, i);
            const guardName = t.guard === undefined ? undefined : refName(t.guard);
            return (
              <li key={id}>
                <button
                  type="button"
                  data-edit-transition={id}
                  onClick={() => onSelect({ kind: 'transition', id })}
                  title={t.description}
                >
                  {ev}
                  {guardName ? ` [${guardName}]` : ''}
                  {t.target ? ` → ${t.target}` : ''}
                </button>
              </li>
            );
          }),
        )}
        {Object.keys(on ?? {}).length === 0 && <li className="muted">none</li>}
      </ul>
      <details className="edit-add">
        <summary>add a transition</summary>
        <label>
          event
          <NameSelect field="new-event" names={eventTypes} value={event} onChange={setEvent} />
        </label>
        <label>
          target
          <NameSelect
            field="new-target"
            names={Object.keys(definition.states)}
            value={target}
            none="(none: stays)"
            onChange={setTarget}
          />
        </label>
        <label>
          guard
          <CatalogueSelect
            field="new-guard"
            catalogue={definition.guards}
            value={guard}
            none="(none: always)"
            onChange={setGuard}
          />
        </label>
        <button
          type="button"
          data-action="add-transition"
          onClick={() =>
            onEdit({
              type: 'addTransition',
              source: root ? null : state,
              event,
              transition: {
                ...(target && { target }),
                ...(guard && { guard }),
                description: `New ${event} transition: describe why it exists.`,
              },
            })
          }
        >
          add (tried last for {event})
        </button>
      </details>
    </section>
  );
}
