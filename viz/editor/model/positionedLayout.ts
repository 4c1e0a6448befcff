import type { NodePosition } from 'assistant-safety/editor';
import { edgeLabelLines, labelSize, type EdgeLayout, type GraphLayout, type Point } from '../../layout/layoutGraph.js';
import { ANY_STATE, type GraphModel } from '../../model/graphModel.js';

/*
 * The automatic layout (ELK) with the positions saved in the layout sidecar
 * on top: a state with a saved position goes there, the others stay where ELK
 * put them, and every edge touching a moved state is re-routed as a straight
 * line between the two boxes (parallel edges fanned out), or a loop on the
 * box's right side for a transition back into its own state; a root-level
 * transition still drops straight from the "any state" band when its target
 * is under the band. Pure.
 */

const PARALLEL_GAP = 16;
const MARGIN = 20;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const center = (r: Rect): Point => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });

/** Where the ray from `p` (inside the box) in direction `d` leaves the box. */
function exit(r: Rect, p: Point, d: Point): Point {
  const tx = d.x > 0 ? (r.x + r.width - p.x) / d.x : d.x < 0 ? (r.x - p.x) / d.x : Infinity;
  const ty = d.y > 0 ? (r.y + r.height - p.y) / d.y : d.y < 0 ? (r.y - p.y) / d.y : Infinity;
  const t = Math.max(0, Math.min(tx, ty));
  return Number.isFinite(t) ? { x: p.x + d.x * t, y: p.y + d.y * t } : p;
}

/** Keeps a point inside the box (a parallel edge's offset start on a small box). */
const inside = (r: Rect, p: Point): Point => ({
  x: Math.min(r.x + r.width - 1, Math.max(r.x + 1, p.x)),
  y: Math.min(r.y + r.height - 1, Math.max(r.y + 1, p.y)),
});

function labelBox(model: GraphModel, id: string, at: Point): EdgeLayout['label'] {
  const t = model.transitions.get(id)!;
  const lines = edgeLabelLines(t);
  const { width, height } = labelSize(lines);
  return { x: at.x - width / 2, y: at.y - height / 2, width, height, lines };
}

/**
 * The layout with saved positions applied.
 *
 * @example
 * const shown = positionedLayout(model, await layoutGraph(model), { READING: { x: 400, y: 40 } });
 * shown.nodes.READING.x; // 400
 */
export function positionedLayout(
  model: GraphModel,
  auto: GraphLayout,
  positions: Readonly<Record<string, NodePosition>>,
): GraphLayout {
  const moved = new Set(
    Object.keys(positions).filter(
      (id) => auto.nodes[id] && (auto.nodes[id]!.x !== positions[id]!.x || auto.nodes[id]!.y !== positions[id]!.y),
    ),
  );
  if (moved.size === 0) return auto;
  const nodes = { ...auto.nodes };
  for (const id of moved) nodes[id] = { ...nodes[id]!, x: positions[id]!.x, y: positions[id]!.y };

  const edges: Record<string, EdgeLayout> = { ...auto.edges };
  // Parallel edges between the same two states (either direction) fan out around the straight line.
  const pairs = new Map<string, string[]>();
  for (const e of model.edges) {
    if (!moved.has(e.source) && !moved.has(e.target)) continue;
    const key = [e.source, e.target].sort().join('→');
    pairs.set(key, [...(pairs.get(key) ?? []), e.id]);
  }
  for (const ids of pairs.values()) {
    ids.forEach((id, k) => {
      const t = model.transitions.get(id)!;
      const a = nodes[t.source];
      const b = nodes[t.target];
      if (!a || !b) return;
      if (t.source === ANY_STATE && b.x + b.width > a.x && b.x < a.x + a.width && b.y > a.y + a.height) {
        const x = Math.min(a.x + a.width - 1, Math.max(a.x + 1, b.x + Math.min(22, b.width / 4)));
        const size = labelSize(edgeLabelLines(t));
        const y = a.y + a.height + 14 + k * (size.height + 2);
        edges[id] = {
          id,
          points: [
            { x, y: a.y + a.height },
            { x, y: b.y },
          ],
          label: { ...labelBox(model, id, { x: 0, y: 0 }), x: x + 6, y },
        };
        return;
      }
      if (t.source === t.target) {
        const top = a.y + 14 + k * 30;
        const right = a.x + a.width;
        const points = [
          { x: right, y: top },
          { x: right + 28, y: top },
          { x: right + 28, y: top + 20 },
          { x: right, y: top + 20 },
        ];
        const label = labelBox(model, id, { x: right + 34, y: top + 10 });
        edges[id] = { id, points, label: { ...label, x: right + 34 } };
        return;
      }
      const offset = (k - (ids.length - 1) / 2) * PARALLEL_GAP;
      const ca = center(a);
      const cb = center(b);
      const len = Math.hypot(cb.x - ca.x, cb.y - ca.y) || 1;
      // Perpendicular offset, same side whichever way the edge runs.
      const sign = t.source < t.target ? 1 : -1;
      const nx = (-(cb.y - ca.y) / len) * offset * sign;
      const ny = ((cb.x - ca.x) / len) * offset * sign;
      const pa = inside(a, { x: ca.x + nx, y: ca.y + ny });
      const pb = inside(b, { x: cb.x + nx, y: cb.y + ny });
      const d = { x: pb.x - pa.x, y: pb.y - pa.y };
      const start = exit(a, pa, d);
      const end = exit(b, pb, { x: -d.x, y: -d.y });
      const mid = { x: (start.x + end.x) / 2, y: (start.y + end.y) / 2 };
      edges[id] = { id, points: [start, end], label: labelBox(model, id, mid) };
    });
  }
  let width = 0;
  let height = 0;
  for (const n of Object.values(nodes)) {
    width = Math.max(width, n.x + n.width);
    height = Math.max(height, n.y + n.height);
  }
  for (const e of Object.values(edges)) {
    for (const p of e.points) {
      width = Math.max(width, p.x);
      height = Math.max(height, p.y);
    }
    width = Math.max(width, e.label.x + e.label.width);
    height = Math.max(height, e.label.y + e.label.height);
  }
  return { width: Math.ceil(width + MARGIN), height: Math.ceil(height + MARGIN), nodes, edges };
}
