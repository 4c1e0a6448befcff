import type { MouseEventHandler, ReactNode } from 'react';
import { METRICS, labelSize, type GraphLayout, type NodeLayout } from '../layout/layoutGraph.js';
import type { GraphModel, TransitionModel } from '../model/graphModel.js';
import { StateNode } from './StateNode.js';
import { TransitionEdge, transitionTooltip, type EdgeMark } from './TransitionEdge.js';

export interface DiagramMoment {
  /** The state to highlight. */
  active?: string;
  /** The transition the current step took. */
  transition?: string;
  /** Set when the current step was a blocked attempt. */
  blocked?: { reasonCode: string; state: string };
  /** The step shown (changes restart the step's animation). */
  step?: number;
}

const MARKS: EdgeMark[] = ['none', 'taken', 'blocked', 'dim'];

/** Edges in drawing order: the marked ones last, so they sit on top of any they share a route with. */
export function drawOrder<T extends { id: string }>(edges: readonly T[], mark: (id: string) => EdgeMark): T[] {
  const rank = (id: string) => (mark(id) === 'taken' || mark(id) === 'blocked' ? 2 : mark(id) === 'none' ? 1 : 0);
  return [...edges].sort((a, b) => rank(a.id) - rank(b.id));
}

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
  const markOf = (id: string): EdgeMark => (taken?.id === id ? (moment.blocked ? 'blocked' : 'taken') : 'none');
  // Where to pin the blocked badge: the state the call was refused in.
  const blockedAt = moment.blocked && (taken?.internal ? taken.source : moment.blocked.state);
  const blockedNode = blockedAt ? layout.nodes[blockedAt] : undefined;
  const internalAt = taken?.internal ? layout.nodes[taken.source] : undefined;
  return (
    <DiagramFrame layout={layout} scale={scale} label={`statechart ${model.id}`}>
      {model.nodes.map((n) => {
        const l = layout.nodes[n.id];
        return l ? (
          <StateNode key={n.id} node={n} layout={l} active={moment.active === n.id} pulse={moment.step ?? 0} />
        ) : null;
      })}
      {drawOrder(model.edges, markOf).map((e) => {
        const l = layout.edges[e.id];
        return l ? (
          <TransitionEdge key={e.id} transition={e} layout={l} mark={markOf(e.id)} step={moment.step} />
        ) : null;
      })}
      {taken?.internal && internalAt && (
        <InternalCallout
          transition={taken}
          node={internalAt}
          kind={moment.blocked ? 'blocked' : 'taken'}
          step={moment.step}
          layout={layout}
        />
      )}
      {moment.blocked && blockedNode && (
        <BlockedMarker node={blockedNode} reasonCode={moment.blocked.reasonCode} layout={layout} />
      )}
    </DiagramFrame>
  );
}

/**
 * The red "blocked: CODE" badge pinned to the top right of the state a call
 * was refused in, moved left (and down) as far as it must to stay inside the
 * drawing: a state at the pane's edge does not clip it.
 */
function BlockedMarker({
  node,
  reasonCode,
  layout,
}: {
  node: NodeLayout;
  reasonCode: string;
  layout: { width: number };
}) {
  const width = (reasonCode.length + 9) * METRICS.charWidth + 16;
  const x = Math.max(2, Math.min(node.x + node.width - Math.min(width, node.width) / 2, layout.width - width - 2));
  const y = Math.max(3, node.y - 12);
  return (
    <g data-testid="blocked-marker" className="blocked-marker" transform={`translate(${x},${y})`}>
      <title>{`blocked here: ${reasonCode}`}</title>
      <rect x={0} y={-1} width={width} height={20} rx={10} />
      <text x={8} y={13}>
        {`blocked: ${reasonCode}`}
      </text>
    </g>
  );
}

/**
 * A transition that stays in its state, drawn only while it is the one the
 * step took: a loop on the state and its label under it.
 */
export function InternalCallout({
  transition,
  node,
  kind,
  step,
  layout,
}: {
  transition: TransitionModel;
  node: NodeLayout;
  kind: 'taken' | 'blocked';
  step?: number;
  layout: Pick<GraphLayout, 'width' | 'height'> & Partial<Pick<GraphLayout, 'nodes' | 'edges'>>;
}) {
  const lines = [
    `${transition.event}${transition.guard ? ` [${transition.guard}]` : ''}`,
    ...(transition.blocks ? [`/ block ${transition.blocks}`] : []),
  ];
  const size = labelSize(lines.map((l) => l));
  const width = Math.max(...lines.map((l) => l.length)) * METRICS.charWidth + 2 * METRICS.labelPadding;
  // Under the state, else over it, else in the strip under the drawing: the first place that covers no
  // other label and no state (a callout over an edge's label would hide it).
  const x = Math.max(2, Math.min(node.x + node.width / 2 - width / 2, layout.width - width - 2));
  const taken = [
    ...Object.values(layout.edges ?? {}).map((e) => e.label),
    ...Object.values(layout.nodes ?? {}).filter((n) => n !== node),
  ];
  const free = (y: number) =>
    y >= 2 &&
    y + size.height <= diagramSize(layout).height - 2 &&
    !taken.some((b) => x < b.x + b.width && b.x < x + width && y < b.y + b.height && b.y < y + size.height);
  const below = node.y + node.height + 12;
  const above = node.y - size.height - 14;
  const strip = diagramSize(layout).height - size.height - 2;
  const y = [below, above, strip].find(free) ?? (below + size.height > layout.height + 28 ? above : below);
  const loopX = node.x + node.width - 18;
  const loop =
    y > node.y
      ? `M${loopX - 10},${node.y + node.height} C${loopX - 14},${node.y + node.height + 18} ${loopX + 14},${node.y + node.height + 18} ${loopX + 10},${node.y + node.height}`
      : `M${loopX - 10},${node.y} C${loopX - 14},${node.y - 18} ${loopX + 14},${node.y - 18} ${loopX + 10},${node.y}`;
  return (
    <g
      key={step}
      className={`internal-callout internal-${kind}`}
      data-transition={transition.id}
      data-testid="internal-callout"
    >
      <title>{transitionTooltip(transition)}</title>
      <path className="edge-path" d={loop} markerEnd={`url(#arrow-${kind})`} />
      <rect className="edge-label-box" x={x} y={y} width={width} height={size.height} rx={3} />
      {lines.map((line, i) => (
        <text
          key={i}
          className={`edge-label${i > 0 ? ' internal-effect' : ''}`}
          x={x + width / 2}
          y={y + 2 + (i + 0.5) * METRICS.lineHeight}
        >
          {line}
        </text>
      ))}
    </g>
  );
}

/** Room under the layout for a callout (two lines of label) that has no free place beside its state. */
const DRAWING_STRIP = 34;

/** The size a diagram is drawn at, in the layout's pixels: the layout and a strip below it for callouts. */
export function diagramSize(layout: { width: number; height: number }): { width: number; height: number } {
  return { width: layout.width, height: layout.height + DRAWING_STRIP };
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
