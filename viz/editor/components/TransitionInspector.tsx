import type { MachineEdit, TransitionRef } from 'assistant-safety/editor';
import { refName, SAFETY_EVENT_TYPES } from 'assistant-safety';
import type { MachineDefinition, TransitionDefinition } from 'assistant-safety';
import { ActionListEditor } from './ActionListEditor.js';
import { CatalogueSelect } from './CatalogueSelect.js';
import { DescriptionField } from './DescriptionField.js';
import { NameSelect } from './NameSelect.js';

/**
 * One transition's fields, each change an edit: event, target (or none: it
 * stays), guard from the guard catalogue, actions from the action catalogue,
 * description, priority among the event's transitions; or remove it.
 */
export function TransitionInspector({
  definition,
  at,
  transition,
  eventTypes = SAFETY_EVENT_TYPES,
  onEdit,
}: {
  definition: MachineDefinition;
  at: TransitionRef;
  transition: TransitionDefinition;
  /** The events the machine's kind may handle (default: the safety machine's). */
  eventTypes?: readonly string[];
  onEdit(edit: MachineEdit): void;
}) {
  const source = at.source ?? 'any state';
  const count = (at.source === null ? definition.on : definition.states[at.source]?.on)?.[at.event]?.length ?? 1;
  const guard = transition.guard === undefined ? '' : refName(transition.guard);
  return (
    <section className="edit-inspector" data-testid="transition-inspector">
      <h2>
        {source} · {at.event} <span className="muted">#{at.index + 1}</span>
      </h2>
      <label>
        event
        <NameSelect
          field="event"
          names={eventTypes}
          value={at.event}
          onChange={(event) => onEdit({ type: 'setTransitionEvent', at, event })}
        />
      </label>
      <label>
        target
        <NameSelect
          field="target"
          names={Object.keys(definition.states)}
          value={transition.target ?? ''}
          none={at.source === null ? '(none: stays in its state)' : `(none: stays in ${source})`}
          onChange={(target) => onEdit({ type: 'retargetTransition', at, target: target || null })}
        />
      </label>
      <label>
        guard
        <CatalogueSelect
          field="guard"
          catalogue={definition.guards}
          value={guard}
          none="(none: always)"
          onChange={(name) => onEdit({ type: 'setTransitionGuard', at, guard: name || null })}
        />
      </label>
      {guard && (
        <p className="muted edit-hint">{definition.guards[guard]?.description ?? 'not in the guard catalogue'}</p>
      )}
      <div className="edit-label">actions (in order)</div>
      <ActionListEditor
        actions={transition.actions ?? []}
        catalogue={definition.actions}
        onChange={(actions) => onEdit({ type: 'setTransitionActions', at, actions })}
      />
      <div className="edit-label">description</div>
      <DescriptionField
        field="transition-description"
        value={transition.description}
        onApply={(description) => onEdit({ type: 'setTransitionDescription', at, description })}
      />
      <div className="edit-label">
        priority {at.index + 1} of {count} for {at.event}{' '}
        <span className="muted">(the first whose guard passes is taken)</span>
      </div>
      <div className="edit-buttons">
        <button
          type="button"
          disabled={at.index === 0}
          onClick={() => onEdit({ type: 'moveTransition', at, toIndex: at.index - 1 })}
        >
          ↑ try earlier
        </button>
        <button
          type="button"
          disabled={at.index >= count - 1}
          onClick={() => onEdit({ type: 'moveTransition', at, toIndex: at.index + 1 })}
        >
          ↓ try later
        </button>
        <button
          type="button"
          className="danger"
          data-action="remove-transition"
          onClick={() => onEdit({ type: 'removeTransition', at })}
        >
          remove transition
        </button>
      </div>
    </section>
  );
}
