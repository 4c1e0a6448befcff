import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { NodePosition } from 'assistant-safety/editor';
import { DiagramFrame, drawOrder, InternalCallout } from '../../components/Diagram.js';
import { ZoomableViewport } from '../../components/DiagramViewport.js';
import { StateNode } from '../../components/StateNode.js';
import { TransitionEdge, type EdgeMark } from '../../components/TransitionEdge.js';
import type { GraphLayout } from '../../layout/layoutGraph.js';
import type { GraphModel } from '../../model/graphModel.js';
import type { CounterexampleStep } from '../model/CheckReport.js';
import type { EditorSelection } from '../model/editorReducer.js';
import { positionedLayout } from '../model/positionedLayout.js';

/** A press that moves less than this (screen pixels) is a click, not a drag. */
const DRAG_THRESHOLD = 4;

interface Drag {
  state: string;
  pointer: { x: number; y: number };
  origin: NodePosition;
  at: NodePosition;
  moved: boolean;
}

/**
 * The statechart being edited: drag a state to move it (the position goes to
 * the layout sidecar on release), click a state, a row or an edge to select
 * it. A counterexample step being played outlines the state it ends in and
 * marks the transition it took (red when the step was blocked).
 */
export function EditableDiagram({
  model,
  auto,
  positions,
  selection,
  step,
  onSelect,
  onMove,
}: {
  model: GraphModel;
  /** ELK's layout, before the saved positions. */
  auto: GraphLayout;
  positions: Readonly<Record<string, NodePosition>>;
  selection: EditorSelection;
  step: CounterexampleStep | undefined;
  onSelect(selection: EditorSelection): void;
  onMove(state: string, position: NodePosition): void;
}) {
  const [drag, setDrag] = useState<Drag | null>(null);

  const shown = useMemo(
    () => positionedLayout(model, auto, drag ? { ...positions, [drag.state]: drag.at } : positions),
    [model, auto, positions, drag],
  );
  // The scale the viewport draws at (it holds it still while dragging, so the diagram does not swim).
  const scaleRef = useRef(1);
  const scale = scaleRef.current;

  useEffect(() => {
    if (!drag) return;
    const move = (e: PointerEvent) => {
      const dx = (e.clientX - drag.pointer.x) / scale;
      const dy = (e.clientY - drag.pointer.y) / scale;
      const moved = drag.moved || Math.hypot(e.clientX - drag.pointer.x, e.clientY - drag.pointer.y) > DRAG_THRESHOLD;
      setDrag({
        ...drag,
        moved,
        at: { x: Math.max(0, Math.round(drag.origin.x + dx)), y: Math.max(0, Math.round(drag.origin.y + dy)) },
      });
    };
    const up = () => {
      if (drag.moved) onMove(drag.state, drag.at);
      setDrag(null);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
  }, [drag, scale, onMove]);

  const startDrag = (state: string) => (e: ReactPointerEvent) => {
    if (e.button !== 0) return;
    e.preventDefault(); // no text selection while dragging
    // ...which also keeps the focus: leave a field being edited, so it applies its change first.
    (document.activeElement as HTMLElement | null)?.blur?.();
    const node = shown.nodes[state];
    if (!node) return;
    setDrag({
      state,
      pointer: { x: e.clientX, y: e.clientY },
      origin: { x: node.x, y: node.y },
      at: { x: node.x, y: node.y },
      moved: false,
    });
  };

  const click = (e: React.MouseEvent) => {
    const target = e.target as Element;
    const transition = target.closest('[data-transition]')?.getAttribute('data-transition');
    if (transition) return onSelect({ kind: 'transition', id: transition });
    const state = target.closest('[data-state]')?.getAttribute('data-state');
    if (state) return onSelect({ kind: 'state', state });
  };

  const selectedTransition = selection?.kind === 'transition' ? selection.id : undefined;
  const stepMark: EdgeMark = step?.decision === 'blocked' ? 'blocked' : 'taken';
  const edgeMark = (id: string): EdgeMark =>
    step ? (step.transition === id ? stepMark : 'dim') : selectedTransition === id ? 'taken' : 'none';
  // A transition that stays in its state is drawn while a step takes it or while it is selected.
  const shownId = step ? step.transition : selectedTransition;
  const internal = shownId ? model.transitions.get(shownId) : undefined;
  const internalAt = internal?.internal ? shown.nodes[internal.source] : undefined;
  const selectedNode = selection?.kind === 'state' ? shown.nodes[selection.state] : undefined;
  // Each step of a counterexample restarts the animation.
  const stepKey = step ? `${step.transition ?? ''}:${step.to}:${step.text}` : undefined;
  const stepNumber = useStepCounter(stepKey);

  return (
    <ZoomableViewport
      model={model}
      layout={shown}
      focus={step ? shown.nodes[step.to] : undefined}
      hold={drag !== null}
      className="edit-diagram"
    >
      {(s) => {
        scaleRef.current = s;
        return (
          <DiagramFrame
            layout={shown}
            scale={s}
            className={`diagram${drag?.moved ? ' dragging' : ''}`}
            label={`statechart ${model.id} (editing)`}
            onClick={click}
          >
            {selectedNode && (
              <rect
                className="edit-selection"
                x={selectedNode.x - 5}
                y={selectedNode.y - 5}
                width={selectedNode.width + 10}
                height={selectedNode.height + 10}
                rx={13}
              />
            )}
            {model.nodes.map((n) => {
              const l = shown.nodes[n.id];
              return l ? (
                <g key={n.id} className="edit-node" onPointerDown={startDrag(n.id)} data-edit-state={n.id}>
                  <StateNode node={n} layout={l} active={step?.to === n.id} pulse={stepNumber} />
                </g>
              ) : null;
            })}
            {drawOrder(model.edges, edgeMark).map((e) => {
              const l = shown.edges[e.id];
              return l ? (
                <TransitionEdge key={e.id} transition={e} layout={l} mark={edgeMark(e.id)} step={stepNumber} />
              ) : null;
            })}
            {internal?.internal && internalAt && (
              <InternalCallout
                transition={internal}
                node={internalAt}
                kind={step?.decision === 'blocked' ? 'blocked' : 'taken'}
                step={stepNumber}
                layout={shown}
              />
            )}
          </DiagramFrame>
        );
      }}
    </ZoomableViewport>
  );
}

/** A number that changes each time `key` does (restarts an animation on each step). */
function useStepCounter(key: string | undefined): number {
  const last = useRef<{ key: string | undefined; n: number }>({ key: undefined, n: 0 });
  if (last.current.key !== key) last.current = { key, n: last.current.n + 1 };
  return last.current.n;
}
