import type { NamedRef } from 'assistant-safety';
import { BlockReasonCode, refName } from 'assistant-safety';
import { CatalogueSelect } from './CatalogueSelect.js';

/** The action `name` with default params (`block` needs a reason code). */
function newAction(name: string): NamedRef {
  return name === 'block' ? { type: 'block', params: { reasonCode: BlockReasonCode.options[0] } } : name;
}

/**
 * A transition's actions in the order they run: reorder, remove, add from
 * the action catalogue; `block` gets its reason code.
 */
export function ActionListEditor({
  actions,
  catalogue,
  onChange,
}: {
  actions: readonly NamedRef[];
  catalogue: Record<string, { description: string }>;
  onChange(actions: NamedRef[]): void;
}) {
  const set = (i: number, ref: NamedRef) => onChange(actions.map((a, j) => (j === i ? ref : a)));
  const swap = (i: number, j: number) => {
    const next = actions.slice();
    [next[i], next[j]] = [next[j]!, next[i]!];
    onChange(next);
  };
  return (
    <div className="edit-actions">
      <ol>
        {actions.map((ref, i) => {
          const name = refName(ref);
          const code = typeof ref === 'object' ? ref.params?.['reasonCode'] : undefined;
          return (
            <li key={`${name}-${i}`} data-edit-action={name}>
              <span className="edit-action-name" title={catalogue[name]?.description}>
                {name}
              </span>
              {name === 'block' && (
                <select
                  data-field="reasonCode"
                  value={typeof code === 'string' ? code : ''}
                  onChange={(e) => set(i, { type: 'block', params: { reasonCode: e.target.value } })}
                >
                  {BlockReasonCode.options.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
              )}
              <span className="edit-row-buttons">
                <button type="button" aria-label="run earlier" disabled={i === 0} onClick={() => swap(i, i - 1)}>
                  ↑
                </button>
                <button
                  type="button"
                  aria-label="run later"
                  disabled={i === actions.length - 1}
                  onClick={() => swap(i, i + 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  aria-label={`remove ${name}`}
                  data-action={`remove-action-${name}`}
                  onClick={() => onChange(actions.filter((_, j) => j !== i))}
                >
                  ✕
                </button>
              </span>
              <div className="muted edit-hint">{catalogue[name]?.description ?? 'not in the action catalogue'}</div>
            </li>
          );
        })}
      </ol>
      <CatalogueSelect
        field="add-action"
        catalogue={catalogue}
        value=""
        none="+ add an action…"
        onChange={(name) => name && onChange([...actions, newAction(name)])}
      />
    </div>
  );
}
