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

/** One transition with a target: its route, arrowhead and `EVENT [guard]` label. */
export const TransitionEdge = memo(function TransitionEdge({
  transition,
  layout,
  mark,
}: {
  transition: TransitionModel;
  layout: EdgeLayout;
  mark: EdgeMark;
}) {
  const { label } = layout;
  return (
    <g className={`edge edge-${mark}${transition.source === '*' ? ' edge-any' : ''}`} data-transition={transition.id}>
      <title>
        {`${transition.source === '*' ? 'any state' : transition.source} → ${transition.target}\n${transition.description}${
          transition.actions.length ? `\nactions: ${transition.actions.join(', ')}` : ''
        }`}
      </title>
      <path className="edge-path" d={routePath(layout.points)} markerEnd={`url(#arrow-${mark})`} />
      <rect className="edge-label-box" x={label.x} y={label.y} width={label.width} height={label.height} rx={3} />
      {label.lines.map((line, i) => (
        <text
          key={i}
          className={`edge-label${i > 0 ? ' edge-guard' : ''}`}
          x={label.x + label.width / 2}
          y={label.y + 2 + (i + 0.5) * METRICS.lineHeight}
        >
          {line}
        </text>
      ))}
    </g>
  );
});
