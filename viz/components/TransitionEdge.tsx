import { memo } from 'react';
import { METRICS, type EdgeLayout, type Point } from '../layout/layoutGraph.js';
import type { TransitionModel } from '../model/graphModel.js';

export type EdgeMark = 'none' | 'taken' | 'blocked' | 'dim';

/** An orthogonal route with slightly rounded corners. */
function routePath(points: readonly Point[], radius = 6): string {
  if (points.length === 0) return '';
  let d = `M${points[0]!.x},${points[0]!.y}`;
  for (let i = 1; i < points.length - 1; i++) {
    const prev = points[i - 1]!;
    const p = points[i]!;
    const next = points[i + 1]!;
    const r = Math.min(radius, Math.hypot(p.x - prev.x, p.y - prev.y) / 2, Math.hypot(next.x - p.x, next.y - p.y) / 2);
    const inX = p.x - Math.sign(p.x - prev.x) * r;
    const inY = p.y - Math.sign(p.y - prev.y) * r;
    const outX = p.x + Math.sign(next.x - p.x) * r;
    const outY = p.y + Math.sign(next.y - p.y) * r;
    d += ` L${inX},${inY} Q${p.x},${p.y} ${outX},${outY}`;
  }
  const last = points[points.length - 1]!;
  return `${d} L${last.x},${last.y}`;
}

/** A transition in words (its accessible name): where it goes, what it does. */
export function transitionTooltip(t: TransitionModel): string {
  const from = t.source === '*' ? 'any state' : t.source;
  return [
    `${from} → ${t.internal ? `${from} (stays)` : t.target}: ${t.event}${t.guard ? ` [${t.guard}]` : ''}`,
    t.description,
    ...(t.actions.length ? [`actions: ${t.actions.join(', ')}`] : []),
  ].join('\n');
}

/**
 * One transition with a target: its route, arrowhead and `EVENT [guard]`
 * label. When taken (or blocked) a pulse runs along the route; `step`
 * restarts it on every step.
 */
export const TransitionEdge = memo(function TransitionEdge({
  transition,
  layout,
  mark,
  step,
}: {
  transition: TransitionModel;
  layout: EdgeLayout;
  mark: EdgeMark;
  step?: number;
}) {
  const { label } = layout;
  const d = routePath(layout.points);
  const marked = mark === 'taken' || mark === 'blocked';
  return (
    <g
      className={`edge edge-${mark}${transition.source === '*' ? ' edge-any' : ''}`}
      data-transition={transition.id}
      aria-label={transitionTooltip(transition)}
    >
      <path className="edge-hit" d={d} />
      <path className="edge-path" d={d} markerEnd={`url(#arrow-${mark})`} />
      {marked && <path key={step} className="edge-flow" d={d} pathLength={1} aria-hidden="true" />}
      <rect className="edge-label-box" x={label.x} y={label.y} width={label.width} height={label.height} rx={3} />
      {label.lines.map((line, i, lines) => (
        <text
          key={i}
          className={`edge-label${isGuardLine(lines, i) ? ' edge-guard' : ''}`}
          x={label.x + label.width / 2}
          y={label.y + 2 + (i + 0.5) * METRICS.lineHeight}
        >
          {line}
        </text>
      ))}
    </g>
  );
});

/** A label's lines are the event's (one or two), then the guard's, the first of them opening with `[`. */
function isGuardLine(lines: readonly string[], i: number): boolean {
  const from = lines.findIndex((l) => l.startsWith('['));
  return from >= 0 && i >= from;
}
