import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { NodePosition } from 'assistant-safety/editor';
import { DiagramFrame, diagramSize } from '../../components/Diagram.js';
import { scrollIntoView, ZoomBar } from '../../components/DiagramViewport.js';
import { StateNode, type RowMark } from '../../components/StateNode.js';
import { TransitionEdge, type EdgeMark } from '../../components/TransitionEdge.js';
import { useDiagramFit, type Fit } from '../../hooks/useDiagramFit.js';
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
  const viewport = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState<Fit>('all');
  const [drag, setDrag] = useState<Drag | null>(null);

  const shown = useMemo(
    () => positionedLayout(model, auto, drag ? { ...positions, [drag.state]: drag.at } : positions),
    [model, auto, positions, drag],
  );
  const fit = useDiagramFit(viewport, diagramSize(shown), 40);
  // The scale stays put while dragging so the diagram does not swim.
  const scaleRef = useRef(1);
  if (!drag) scaleRef.current = fit[zoom];
  const scale = scaleRef.current;

  // The state a counterexample step ends in is scrolled into view.
  useEffect(() => {
    const el = viewport.current;
    const node = step ? shown.nodes[step.to] : undefined;
    if (el && node) scrollIntoView(el, node, scale);
  }, [step, scale]);

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
  const rowMark = (state: string): RowMark | undefined => {
    const id = step ? step.transition : selectedTransition;
    if (!id || !id.startsWith(`${state}.`)) return undefined;
    return { transition: id, kind: step?.decision === 'blocked' ? 'blocked' : 'taken' };
  };
  const selectedNode = selection?.kind === 'state' ? shown.nodes[selection.state] : undefined;

  return (
    <div className="diagram-viewport edit-diagram" ref={viewport}>
      <ZoomBar fits={['all', 'width']} zoom={zoom} scale={scale} onFit={setZoom} />
      <DiagramFrame
        layout={shown}
        scale={scale}
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
              <StateNode node={n} layout={l} active={step?.to === n.id} row={rowMark(n.id)} />
            </g>
          ) : null;
        })}
        {model.edges.map((e) => {
          const l = shown.edges[e.id];
          return l ? <TransitionEdge key={e.id} transition={e} layout={l} mark={edgeMark(e.id)} /> : null;
        })}
      </DiagramFrame>
    </div>
  );
}
