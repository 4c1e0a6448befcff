import type { ReactNode } from 'react';
import { ANY_STATE, type GraphModel } from '../model/graphModel.js';

/** What the pointer is over in a diagram, found from the element under it. */
export type HoverTarget = { kind: 'state'; id: string } | { kind: 'transition'; id: string };

/** The diagram part an element belongs to (a state's box or a transition's route or label), if any. */
export function hoverTargetOf(element: Element | null): HoverTarget | undefined {
  const transition = element?.closest('[data-transition]')?.getAttribute('data-transition');
  if (transition) return { kind: 'transition', id: transition };
  const state = element?.closest('[data-state]')?.getAttribute('data-state');
  if (state) return { kind: 'state', id: state };
  return undefined;
}

const guardText = (model: GraphModel, guard: string) => model.definition.guards[guard]?.description;

/** The details of a state or transition: what the compact diagram leaves out. */
export function hoverDetails(model: GraphModel, target: HoverTarget): ReactNode {
  if (target.kind === 'state') {
    const node = model.nodes.find((n) => n.id === target.id);
    if (!node) return null;
    return (
      <>
        <div className="hover-title">
          {node.label}
          {node.initial ? <span className="muted"> · initial</span> : null}
        </div>
        <div>{node.description}</div>
        {node.internal.length > 0 && (
          <>
            <div className="hover-sub">
              {node.kind === 'any' ? 'In every state, unless it handles the call:' : 'Stays in this state on:'}
            </div>
            <ul>
              {node.internal.map((t) => (
                <li key={t.id}>
                  <code>
                    {t.event}
                    {t.guard ? ` [${t.guard}]` : ''}
                  </code>
                  {t.blocks ? <span className="hover-block"> blocks {t.blocks}</span> : null}
                </li>
              ))}
            </ul>
          </>
        )}
      </>
    );
  }
  const t = model.transitions.get(target.id);
  if (!t) return null;
  const from = t.source === ANY_STATE ? 'any state' : t.source;
  return (
    <>
      <div className="hover-title">
        {from} → {t.internal ? `${from} (stays)` : t.target}
      </div>
      <div>
        <code>{t.event}</code>
        {t.guard ? (
          <>
            {' '}
            when <code>{t.guard}</code>: <span className="muted">{guardText(model, t.guard)}</span>
          </>
        ) : null}
      </div>
      <div>{t.description}</div>
      {t.blocks && <div className="hover-block">blocks the call: {t.blocks}</div>}
      {t.actions.length > 0 && (
        <div className="muted">
          actions: <code>{t.actions.join(', ')}</code>
        </div>
      )}
    </>
  );
}
