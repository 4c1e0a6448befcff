import { ANY_STATE, type GraphModel, type TransitionModel } from '../model/graphModel.js';
import {
  edgeLabelLines,
  labelSize,
  measureNode,
  splitEvent,
  splitGuard,
  type EdgeLayout,
  type GraphLayout,
  type NodeLayout,
} from './layoutGraph.js';

/*
 * Chain-shaped machines (a run of phases one after another, like Patrol) drawn
 * as one row are too long to read in a pane: laid out here in snaked rows
 * instead. The chain's states go left to right, then right to left on the row
 * below, and so on; a chain step is a short straight edge with its label in
 * the gap, a row's last step drops straight down. Every other transition drops
 * from its source into the channel under its row, runs along a lane of that
 * channel (and down a gutter on the left when its target is rows away) and
 * enters its target from above (or below, in the same row); its label hangs
 * beside the drop, stacked with the other labels of its source.
 */

/** The chain of a graph: its longest simple path (in definition order), when it makes the graph chain-shaped. */
export function findChain(model: GraphModel): string[] | undefined {
  const states = model.nodes.filter((n) => n.kind === 'state').map((n) => n.id);
  if (states.length < 6 || states.length > 40) return undefined;
  if (model.edges.some((e) => e.source === ANY_STATE)) return undefined;
  const out = new Map<string, string[]>(states.map((s) => [s, []]));
  for (const e of model.edges) {
    if (e.internal || e.source === e.target) continue;
    const list = out.get(e.source);
    if (list && !list.includes(e.target)) list.push(e.target);
  }
  // Chain-shaped: most states branch to at most three others (forward, skip, failure), and one path covers most of them.
  const branching = states.filter((s) => out.get(s)!.length > 3).length;
  if (branching > states.length / 4) return undefined;
  let best: string[] = [];
  let budget = 20_000;
  const walk = (path: string[], seen: Set<string>) => {
    if (--budget < 0) return;
    if (path.length > best.length) best = [...path];
    for (const next of out.get(path.at(-1)!)!) {
      if (seen.has(next)) continue;
      seen.add(next);
      path.push(next);
      walk(path, seen);
      path.pop();
      seen.delete(next);
    }
  };
  const initial = model.nodes.find((n) => n.kind === 'state' && n.initial)?.id ?? states[0]!;
  walk([initial], new Set([initial]));
  return best.length >= 0.8 * states.length ? best : undefined;
}

const MARGIN = 8;
const LANE_GAP = 8;
const LABEL_GAP = 1;
/** Narrow chain-step labels keep the gaps between columns short. */
const CHAIN_LABEL_WIDTH = 12;
const MIN_GAP = 40;

const chainLines = (t: TransitionModel) =>
  t.guard
    ? [...splitEvent(t.event, CHAIN_LABEL_WIDTH), ...splitGuard(`[${t.guard}]`, CHAIN_LABEL_WIDTH)]
    : splitEvent(t.event, CHAIN_LABEL_WIDTH);

/**
 * Lays out a chain-shaped graph in `rows` snaked rows (see above); undefined if
 * the graph is not chain-shaped (see {@link findChain}).
 *
 * @example
 * const layout = chainLayout(buildGraphModel(patrol), 3);
 */
export function chainLayout(model: GraphModel, rows: number): GraphLayout | undefined {
  const chain = findChain(model);
  if (!chain) return undefined;
  const states = model.nodes.filter((n) => n.kind === 'state');
  // States off the chain follow it, in definition order.
  const order = [...chain, ...states.map((n) => n.id).filter((id) => !chain.includes(id))];
  const perRow = Math.ceil(order.length / rows);
  if (rows < 2 || perRow < 2) return undefined;
  const measured = new Map(states.map((n) => [n.id, measureNode(n)]));
  const cell = new Map<string, { row: number; col: number }>();
  order.forEach((id, i) => {
    const row = Math.floor(i / perRow);
    const k = i % perRow;
    cell.set(id, { row, col: row % 2 === 0 ? k : perRow - 1 - k });
  });
  const rowCount = Math.ceil(order.length / perRow);
  const at = (id: string) => cell.get(id)!;
  const isStep = (e: TransitionModel) => {
    const i = chain.indexOf(e.source);
    return i >= 0 && chain[i + 1] === e.target;
  };
  // One step edge per consecutive pair (the first in definition order); the others go round.
  const steps = new Map<string, TransitionModel>();
  for (const e of model.edges) if (!e.internal && isStep(e) && !steps.has(e.source)) steps.set(e.source, e);
  const stepIds = new Set([...steps.values()].map((e) => e.id));
  const others = model.edges.filter((e) => !stepIds.has(e.id) && !e.internal && e.source !== e.target);

  // Columns: as wide as their widest state; gaps as wide as the step labels crossing them.
  const colWidth = Array.from({ length: perRow }, () => 0);
  for (const id of order) colWidth[at(id).col] = Math.max(colWidth[at(id).col]!, measured.get(id)!.width);
  const gap = Array.from({ length: perRow - 1 }, () => MIN_GAP);
  let stepLabelHeight = 0;
  for (const e of steps.values()) {
    const a = at(e.source);
    const b = at(e.target);
    const size = labelSize(chainLines(e));
    if (a.row === b.row) {
      const g = Math.min(a.col, b.col);
      gap[g] = Math.max(gap[g]!, size.width + 16);
      stepLabelHeight = Math.max(stepLabelHeight, size.height);
    }
  }
  // Lanes: one per target in each channel it is reached through; the gutter, one per target that changes channel.
  const channelOf = (e: TransitionModel) => at(e.source).row + 1;
  const entryChannel = (e: TransitionModel) =>
    at(e.target).row > at(e.source).row ? at(e.target).row : at(e.target).row + 1;
  const lanes = new Map<number, string[]>();
  const gutter: string[] = [];
  const addLane = (channel: number, target: string) => {
    const list = lanes.get(channel) ?? [];
    if (!list.includes(target)) list.push(target);
    lanes.set(channel, list);
  };
  for (const e of others) {
    addLane(channelOf(e), e.target);
    if (entryChannel(e) !== channelOf(e)) {
      addLane(entryChannel(e), e.target);
      if (!gutter.includes(e.target)) gutter.push(e.target);
    }
  }
  // Labels under each source: its other transitions, then its step down to the next row.
  const under = new Map<string, { edge: TransitionModel; lines: string[] }[]>();
  for (const e of others) under.set(e.source, [...(under.get(e.source) ?? []), { edge: e, lines: edgeLabelLines(e) }]);
  for (const e of steps.values()) {
    if (at(e.source).row !== at(e.target).row)
      under.set(e.source, [...(under.get(e.source) ?? []), { edge: e, lines: edgeLabelLines(e) }]);
  }
  const stackHeight = (id: string) =>
    (under.get(id) ?? []).reduce((h, l) => h + labelSize(l.lines).height + LABEL_GAP, 0);

  const gutterWidth = gutter.length ? gutter.length * LANE_GAP + 6 : 0;
  const colX: number[] = [];
  let x = MARGIN + gutterWidth;
  for (let c = 0; c < perRow; c++) {
    colX.push(x);
    x += colWidth[c]! + (gap[c] ?? 0);
  }
  let width = x + MARGIN;
  const rowHeight = Array.from({ length: rowCount }, () => 0);
  for (const id of order) rowHeight[at(id).row] = Math.max(rowHeight[at(id).row]!, measured.get(id)!.height);
  const lineOffset = 17; // the step edges run level with the states' names
  // Step labels sit across their edge (as ELK's centred labels do).
  const above = Math.max(0, stepLabelHeight / 2 - lineOffset);
  const rowY: number[] = [];
  const laneY = new Map<string, number>();
  let y = MARGIN;
  for (let r = 0; r < rowCount; r++) {
    y += r === 0 ? above : 0;
    rowY.push(y);
    y += rowHeight[r]!;
    if (r === rowCount - 1) break;
    const stack = Math.max(0, ...order.filter((id) => at(id).row === r).map(stackHeight));
    const channel = lanes.get(r + 1) ?? [];
    const channelTop = y + 4 + stack;
    channel.forEach((t, i) => laneY.set(`${r + 1}:${t}`, channelTop + 4 + i * LANE_GAP));
    y = channelTop + 2 + channel.length * LANE_GAP + Math.max(above, 4);
  }
  // A channel under the last row, for transitions back up into a row.
  const last = lanes.get(rowCount) ?? [];
  last.forEach((t, i) => laneY.set(`${rowCount}:${t}`, y + 10 + i * LANE_GAP));
  const bottomStack = Math.max(0, ...order.filter((id) => at(id).row === rowCount - 1).map(stackHeight));
  y = Math.max(y + 4 + bottomStack, last.length ? y + 10 + last.length * LANE_GAP : 0) + MARGIN;
  const height = y;

  const nodes: Record<string, NodeLayout> = {};
  for (const id of order) {
    const { row, col } = at(id);
    nodes[id] = { ...measured.get(id)!, x: colX[col]!, y: rowY[row]! };
  }
  const edges: Record<string, EdgeLayout> = {};
  const drop = (id: string) => nodes[id]!.x + 12;
  const entry = (id: string) => nodes[id]!.x + nodes[id]!.width - 14;
  for (const e of steps.values()) {
    const s = nodes[e.source]!;
    const t = nodes[e.target]!;
    if (at(e.source).row !== at(e.target).row) continue;
    const lines = chainLines(e);
    const size = labelSize(lines);
    const lineY = s.y + lineOffset;
    const [from, to] = s.x < t.x ? [s.x + s.width, t.x] : [s.x, t.x + t.width];
    edges[e.id] = {
      id: e.id,
      points: [
        { x: from, y: lineY },
        { x: to, y: lineY },
      ],
      label: { x: (from + to) / 2 - size.width / 2, y: lineY - size.height / 2, ...size, lines },
    };
  }
  for (const [source, list] of under) {
    const s = nodes[source]!;
    const dx = drop(source);
    let ly = s.y + s.height + 4;
    for (const { edge: e, lines } of list) {
      const size = labelSize(lines);
      const label = { x: dx + 6, y: ly, ...size, lines };
      ly += size.height + LABEL_GAP;
      width = Math.max(width, label.x + size.width + MARGIN);
      const t = nodes[e.target]!;
      if (stepIds.has(e.id)) {
        edges[e.id] = {
          id: e.id,
          points: [
            { x: dx, y: s.y + s.height },
            { x: dx, y: t.y },
          ],
          label,
        };
        continue;
      }
      const down = at(e.target).row > at(e.source).row;
      const tx = entry(e.target);
      const ty = down ? t.y : t.y + t.height;
      const exit = laneY.get(`${channelOf(e)}:${e.target}`)!;
      const points = [
        { x: dx, y: s.y + s.height },
        { x: dx, y: exit },
      ];
      if (entryChannel(e) !== channelOf(e)) {
        const gx = MARGIN + 4 + gutter.indexOf(e.target) * LANE_GAP;
        const into = laneY.get(`${entryChannel(e)}:${e.target}`)!;
        points.push({ x: gx, y: exit }, { x: gx, y: into }, { x: tx, y: into });
      } else points.push({ x: tx, y: exit });
      points.push({ x: tx, y: ty });
      edges[e.id] = { id: e.id, points, label };
    }
  }
  return { width: Math.ceil(width), height: Math.ceil(height), nodes, edges };
}
