import ElkBundled from 'elkjs/lib/elk.bundled.js';
import type { ELK, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import { ANY_STATE, type GraphModel, type StateNodeModel, type TransitionModel } from '../model/graphModel.js';

/*
 * Graph model -> positions. The states are laid out left to right with ELK's
 * layered algorithm (the engine the XState tools use), in the bundled build:
 * no web worker, one promise. Left to right because the diagram's pane is
 * wide and short in every mode. A state is a compact box (its name and a
 * count of the transitions that stay in it); its transitions to other states
 * are labelled edges. The root-level ("any state") transitions hang off a
 * dashed band across the top that spans every state: each drops straight
 * down into its target, so "from any state" reads as exactly that.
 *
 * Pure: sizes come from fixed text metrics (the diagram draws in a monospace
 * font whose advance is known), so the same model always lays out the same
 * way and the module runs in node for its tests.
 */

/** Text metrics the diagram renders with; the layout sizes boxes from them. */
export const METRICS = {
  font: "'DejaVu Sans Mono', 'Menlo', 'Consolas', monospace",
  /** Edge labels: the event. */
  fontSize: 12,
  /** Advance of one character at fontSize (DejaVu Sans Mono: 0.602 em), rounded up. */
  charWidth: 7.3,
  /** Edge labels: the guard lines, as large as the event (both are read at the fitted zoom). */
  guardSize: 12,
  guardCharWidth: 7.3,
  /** State names: larger than the labels, compact enough for the whole machine to fit a 1280×720 screen. */
  titleSize: 16,
  titleCharWidth: 9.7,
  lineHeight: 13,
  padding: 8,
  titleHeight: 25,
  /** The row of counts under a state's name. */
  badgeHeight: 18,
  badgeSize: 12,
  badgeCharWidth: 7.3,
  minWidth: 96,
  labelPadding: 4,
  /** The "any state" band. */
  bandHeight: 24,
  /** Space between the band and the top of the states' area. */
  dropGap: 8,
} as const;

export interface Point {
  x: number;
  y: number;
}
export interface Box extends Point {
  width: number;
  height: number;
}
/** One chip under a state's name: how many of its transitions stay in it, and how many of those block. */
interface Badge {
  kind: 'blocks' | 'stays';
  count: number;
  text: string;
  /** Left of the chip, relative to the node. */
  x: number;
  width: number;
}
export interface NodeLayout extends Box {
  id: string;
  badges: Badge[];
}
export interface EdgeLayout {
  id: string;
  points: Point[];
  /** The label's box; `lines` are the event, then the guard if any. */
  label: Box & { lines: string[] };
}
export interface GraphLayout {
  width: number;
  height: number;
  nodes: Record<string, NodeLayout>;
  edges: Record<string, EdgeLayout>;
}

/** An edge's label: the event, and the guard on a line of its own (narrow labels keep the diagram compact). */
export function edgeLabelLines(t: TransitionModel): string[] {
  return t.guard ? [...splitEvent(t.event), ...splitGuard(`[${t.guard}]`)] : splitEvent(t.event);
}

/** Packs parts into lines of at most `width` characters where it can (a part longer than that stands alone). */
function packLines(text: string, parts: readonly string[], width: number): string[] {
  if (text.length <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const part of parts) {
    if (line && line.length + part.length > width) {
      lines.push(line);
      line = part;
    } else line += part;
  }
  if (line) lines.push(line);
  return lines;
}

/** A long event name broken after an underscore (`TARGET_` / `ESTABLISHED`), each line at most `width` characters where it can. */
export function splitEvent(event: string, width = 14): string[] {
  return packLines(event, event.split(/(?<=_)/), width);
}

/** A long guard name broken into lines at its camelCase humps, each at most `width` characters where it can. */
export function splitGuard(text: string, width = 14): string[] {
  return packLines(text, text.split(/(?=[A-Z])/), width);
}

/** The size of an edge label with these lines (first line the event, the others guard lines). */
export function labelSize(lines: readonly string[]): { width: number; height: number } {
  const m = METRICS;
  const widths = lines.map((l, i) => l.length * (i === 0 ? m.charWidth : m.guardCharWidth));
  return { width: Math.ceil(Math.max(...widths) + 2 * m.labelPadding), height: lines.length * m.lineHeight + 4 };
}

/** The chips of a state: its blocking and its other targetless transitions, counted. */
function nodeBadges(node: StateNodeModel): Badge[] {
  const m = METRICS;
  const blocks = node.internal.filter((t) => t.blocks !== undefined).length;
  const stays = node.internal.length - blocks;
  const badges: Badge[] = [];
  let x = m.padding;
  const add = (kind: Badge['kind'], count: number, text: string) => {
    const width = Math.ceil(text.length * m.badgeCharWidth + 12);
    badges.push({ kind, count, text, x, width });
    x += width + 6;
  };
  if (blocks > 0) add('blocks', blocks, `⊘ ${blocks} block${blocks > 1 ? 's' : ''}`);
  if (stays > 0) add('stays', stays, `↺ ${stays}`);
  return badges;
}

/** The size of a state box and its chips. */
export function measureNode(node: StateNodeModel): Omit<NodeLayout, 'x' | 'y'> {
  const m = METRICS;
  const badges = nodeBadges(node);
  const title = (node.label.length + (node.initial ? 2 : 0)) * m.titleCharWidth;
  const chips = badges.length ? badges.at(-1)!.x + badges.at(-1)!.width - m.padding : 0;
  return {
    id: node.id,
    width: Math.ceil(Math.max(m.minWidth, Math.max(title, chips) + 2 * m.padding)),
    height: m.titleHeight + (badges.length ? m.badgeHeight : 4) + 6,
    badges,
  };
}

// The bundle is CommonJS: node hands back `module.exports` (whose `default` is the class), a bundler may hand the class.
type ElkClass = new () => ELK;
const Elk = ((ElkBundled as unknown as { default?: ElkClass }).default ?? ElkBundled) as unknown as ElkClass;
const elk = new Elk();

const LAYOUT_OPTIONS = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.spacing.nodeNode': '30',
  'elk.layered.spacing.nodeNodeBetweenLayers': '14',
  'elk.layered.spacing.edgeNodeBetweenLayers': '8',
  'elk.spacing.edgeEdge': '8',
  'elk.spacing.edgeNode': '12',
  'elk.spacing.edgeLabel': '2',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '6',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  // Back edges are the ones against the definition's order: the initial state comes out on the left.
  'elk.layered.cycleBreaking.strategy': 'MODEL_ORDER',
  'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
  'elk.padding': '[top=12,left=12,bottom=12,right=12]',
};

/**
 * Left to right (a wide, short pane, where height limits the zoom): labels above their edge and
 * parallel edges closer, so stacked labels of parallel edges do not push the rows apart.
 */
const WIDE_OPTIONS = {
  'elk.layered.edgeLabels.sideSelection': 'SMART_UP',
  'elk.spacing.edgeEdge': '6',
};

const MARGIN = 12;
/** Distance between two lanes of root-level transitions (top-down layouts). */
const LANE_GAP = 10;

/** How to lay a graph out: `RIGHT` (a wide pane) or `DOWN` (a tall or square one). */
export interface LayoutOptions {
  direction?: Direction;
}
export type Direction = 'RIGHT' | 'DOWN';

/**
 * Lays out a graph model: compact boxes that do not overlap, left to right (or top down),
 * orthogonal edges with a placed label each, and the root-level transitions
 * dropping from the "any state" band across the top.
 *
 * @example
 * const layout = await layoutGraph(buildGraphModel(definition));
 * layout.nodes.READING; // { x, y, width, height, badges }
 */
export async function layoutGraph(model: GraphModel, options: LayoutOptions = {}): Promise<GraphLayout> {
  const direction = options.direction ?? 'RIGHT';
  const m = METRICS;
  const states = model.nodes.filter((n) => n.kind === 'state');
  const measured = new Map(model.nodes.map((n) => [n.id, measureNode(n)]));
  const stateEdges = model.edges.filter((e) => e.source !== ANY_STATE);
  const rootEdges = model.edges.filter((e) => e.source === ANY_STATE);
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: { ...LAYOUT_OPTIONS, ...(direction === 'RIGHT' && WIDE_OPTIONS), 'elk.direction': direction },
    children: states.map((n) => {
      const size = measured.get(n.id)!;
      return { id: n.id, width: size.width, height: size.height };
    }),
    edges: stateEdges.map((e): ElkExtendedEdge => {
      const lines = edgeLabelLines(e);
      return {
        id: e.id,
        sources: [e.source],
        targets: [e.target],
        labels: [{ id: `${e.id}:label`, text: lines.join('\n'), ...labelSize(lines) }],
        layoutOptions: { 'elk.edgeLabels.placement': 'CENTER' },
      };
    }),
  };
  const out = await elk.layout(graph);

  // Root-level transitions, grouped by target: one drop per target, one label per transition stacked beside it.
  const byTarget = new Map<string, TransitionModel[]>();
  for (const e of rootEdges) byTarget.set(e.target, [...(byTarget.get(e.target) ?? []), e]);
  const labelStack = (list: TransitionModel[]) => list.reduce((h, e) => h + labelSize(edgeLabelLines(e)).height + 2, 0);
  const any = model.nodes.find((n) => n.kind === 'any');
  const bandBottom = any ? MARGIN + m.bandHeight : 0;
  // Left to right, the drops come straight down from the band into their targets: room above the states.
  // Top down, they come down lanes on the left and turn right into their targets: room left of the states.
  const lanes = [...byTarget.keys()];
  const gutter =
    any && direction === 'DOWN'
      ? lanes.length * LANE_GAP + 6 + Math.max(0, ...rootEdges.map((e) => labelSize(edgeLabelLines(e)).width)) + 10
      : 0;
  const dropZone =
    any && direction === 'RIGHT' ? Math.max(0, ...[...byTarget.values()].map(labelStack)) + 2 * m.dropGap : 0;
  const dy = any ? bandBottom + (direction === 'RIGHT' ? dropZone : m.dropGap) - 12 : 0; // ELK's own top padding (12) stays as part of the gap
  const dx = gutter;

  const nodes: Record<string, NodeLayout> = {};
  for (const child of out.children ?? []) {
    nodes[child.id] = { ...measured.get(child.id)!, x: (child.x ?? 0) + dx, y: (child.y ?? 0) + dy };
  }
  const edges: Record<string, EdgeLayout> = {};
  for (const edge of (out.edges ?? []) as ElkExtendedEdge[]) {
    const section = edge.sections?.[0];
    const label = edge.labels?.[0];
    if (!section || !label) throw new Error(`layout: edge ${edge.id} came back without a route or a label`);
    edges[edge.id] = {
      id: edge.id,
      points: [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((p) => ({
        x: p.x + dx,
        y: p.y + dy,
      })),
      label: {
        x: (label.x ?? 0) + dx,
        y: (label.y ?? 0) + dy,
        width: label.width ?? 0,
        height: label.height ?? 0,
        lines: (label.text ?? '').split('\n'),
      },
    };
  }
  let width = (out.width ?? 0) + dx;
  const height = (out.height ?? 0) + dy;

  if (any && direction === 'DOWN') {
    // The lowest target gets the leftmost lane, so no turn into a target crosses another lane.
    const order = lanes.sort((a, b) => (nodes[b]?.y ?? 0) - (nodes[a]?.y ?? 0));
    order.forEach((target, i) => {
      const t = nodes[target];
      if (!t) return;
      const x = MARGIN + 6 + i * LANE_GAP;
      const turn = t.y + Math.min(t.height / 2, 18);
      const list = byTarget.get(target)!;
      let y = turn - 3;
      for (const e of [...list].reverse()) {
        const lines = edgeLabelLines(e);
        const size = labelSize(lines);
        y -= size.height + 2;
        edges[e.id] = {
          id: e.id,
          points: [
            { x, y: bandBottom },
            { x, y: turn },
            { x: t.x, y: turn },
          ],
          label: { x: x + 6, y, ...size, lines },
        };
      }
    });
  }
  if (any && direction === 'RIGHT') {
    for (const [target, list] of byTarget) {
      const t = nodes[target];
      if (!t) continue;
      const x = t.x + Math.min(22, t.width / 4);
      let y = bandBottom + m.dropGap;
      for (const e of list) {
        const lines = edgeLabelLines(e);
        const size = labelSize(lines);
        edges[e.id] = {
          id: e.id,
          points: [
            { x, y: bandBottom },
            { x, y: t.y },
          ],
          label: { x: x + 6, y, ...size, lines },
        };
        width = Math.max(width, x + 6 + size.width + MARGIN);
        y += size.height + 2;
      }
    }
  }
  if (any) {
    const band = measured.get(any.id)!;
    nodes[any.id] = {
      ...band,
      x: MARGIN,
      y: MARGIN,
      width: Math.max(band.width, width - 2 * MARGIN),
      height: m.bandHeight,
    };
  }
  return { width: Math.ceil(width), height: Math.ceil(height), nodes, edges };
}
