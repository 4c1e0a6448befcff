import type { MouseEventHandler, ReactNode } from 'react';
import { METRICS, type GraphLayout } from '../layout/layoutGraph.js';
import type { GraphModel } from '../model/graphModel.js';
import { StateNode, type RowMark } from './StateNode.js';
import { TransitionEdge, type EdgeMark } from './TransitionEdge.js';

export interface DiagramMoment {
  /** The state to highlight. */
  active?: string;
  /** The transition the current step took. */
  transition?: string;
  /** Set when the current step was a blocked attempt. */
  blocked?: { reasonCode: string; state: string };
}

const MARKS: EdgeMark[] = ['none', 'taken', 'blocked', 'dim'];

/** The statechart as SVG at one moment: active state, transition taken, blocked attempt. */
export function Diagram({
  model,
  layout,
  moment,
  scale = 1,
}: {
  model: GraphModel;
  layout: GraphLayout;
  moment: DiagramMoment;
  /** Drawn at this zoom (1: the layout's own pixels). */
  scale?: number;
}) {
  const taken = moment.transition ? model.transitions.get(moment.transition) : undefined;
  const rowMark: RowMark | undefined =
    taken?.internal === true ? { transition: taken.id, kind: moment.blocked ? 'blocked' : 'taken' } : undefined;
  // Where to pin the blocked badge: the row that blocked, else the state it happened in.
  const blockedAt = moment.blocked && (taken?.internal ? taken.source : moment.blocked.state);
  const blockedNode = blockedAt ? layout.nodes[blockedAt] : undefined;
  const blockedRow = taken?.internal ? blockedNode?.rows.find((r) => r.id === taken.id) : undefined;
  return (
    <DiagramFrame layout={layout} scale={scale} label={`statechart ${model.id}`}>
      {model.nodes.map((n) => {
        const l = layout.nodes[n.id];
        return l ? (
          <StateNode
            key={n.id}
            node={n}
            layout={l}
            active={moment.active === n.id}
            row={rowMark?.transition.startsWith(`${n.id}.`) ? rowMark : undefined}
          />
        ) : null;
      })}
      {model.edges.map((e) => {
        const l = layout.edges[e.id];
        if (!l) return null;
        const mark: EdgeMark = taken?.id === e.id ? (moment.blocked ? 'blocked' : 'taken') : 'none';
        return <TransitionEdge key={e.id} transition={e} layout={l} mark={mark} />;
      })}
      {moment.blocked && blockedNode && (
        <g
          data-testid="blocked-marker"
          className="blocked-marker"
          transform={`translate(${blockedNode.x + blockedNode.width - 8},${
            blockedNode.y + (blockedRow ? blockedRow.y + blockedRow.height / 2 - 10 : 4)
          })`}
        >
          <title>{`blocked here: ${moment.blocked.reasonCode}`}</title>
          <rect
            x={0}
            y={-1}
            width={(moment.blocked.reasonCode.length + 9) * METRICS.charWidth + 16}
            height={20}
            rx={10}
          />
          <text x={8} y={13}>
            {`blocked: ${moment.blocked.reasonCode}`}
          </text>
        </g>
      )}
    </DiagramFrame>
  );
}

/** The size a diagram is drawn at, in the layout's pixels: the layout and 30 px below it. */
export function diagramSize(layout: { width: number; height: number }): { width: number; height: number } {
  return { width: layout.width, height: layout.height + 30 };
}

/** The SVG a diagram is drawn in: sized to its layout at `scale`, with the arrowheads its edges use. */
export function DiagramFrame({
  layout,
  scale,
  className = 'diagram',
  label,
  onClick,
  children,
}: {
  layout: GraphLayout;
  scale: number;
  className?: string;
  label: string;
  onClick?: MouseEventHandler<SVGSVGElement>;
  children: ReactNode;
}) {
  const size = diagramSize(layout);
  return (
    <svg
      className={className}
      viewBox={`0 0 ${size.width} ${size.height}`}
      width={Math.round(size.width * scale)}
      height={Math.round(size.height * scale)}
      role="img"
      aria-label={label}
      onClick={onClick}
    >
      <defs>
        {MARKS.map((m) => (
          <marker
            key={m}
            id={`arrow-${m}`}
            viewBox="0 0 10 10"
            refX={9}
            refY={5}
            markerUnits="userSpaceOnUse"
            markerWidth={10}
            markerHeight={10}
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" className={`arrowhead arrowhead-${m}`} />
          </marker>
        ))}
      </defs>
      {children}
    </svg>
  );
}
