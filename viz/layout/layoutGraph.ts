import ElkBundled from 'elkjs/lib/elk.bundled.js';
import type { ELK, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import { internalLines, type GraphModel, type StateNodeModel, type TransitionModel } from '../model/graphModel.js';

/*
 * Graph model -> positions, with ELK's layered algorithm (the engine the
 * XState tools use), in the bundled build: no web worker, one promise. Pure:
 * sizes come from fixed text metrics (the diagram draws in a monospace font
 * whose advance is known), so the same model always lays out the same way and
 * the module runs in node for its tests.
 */

/** Text metrics the diagram renders with; the layout sizes boxes from them. */
export const METRICS = {
  font: "'DejaVu Sans Mono', 'Menlo', 'Consolas', monospace",
  fontSize: 12,
  /** Advance of one character at fontSize (DejaVu Sans Mono: 0.602 em), rounded up. */
  charWidth: 7.3,
  titleSize: 14,
  titleCharWidth: 8.6,
  lineHeight: 16,
  rowHeight: 18,
  padding: 10,
  titleHeight: 26,
  /** Description lines wrap at this many characters. */
  wrapAt: 36,
  minWidth: 180,
  labelPadding: 6,
  labelHeight: 18,
} as const;

export interface Point {
  x: number;
  y: number;
}
export interface Box extends Point {
  width: number;
  height: number;
}
export interface NodeLayout extends Box {
  id: string;
  descriptionLines: string[];
  /** Top of the first internal-transition row, relative to the node. */
  rowsTop: number;
  /** The internal transitions' rows, in order, relative to the node. */
  rows: RowLayout[];
}
export interface RowLayout {
  id: string;
  y: number;
  height: number;
  lines: string[];
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

/** Greedy word wrap at `width` characters (a word longer than that gets a line of its own). */
export function wrapText(text: string, width: number = METRICS.wrapAt): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** An edge's label: the event, and the guard on a line of its own (narrow labels keep the diagram compact). */
export function edgeLabelLines(t: TransitionModel): string[] {
  return t.guard ? [t.event, `[${t.guard}]`] : [t.event];
}

/** The size of a state box and where its parts go. */
export function measureNode(node: StateNodeModel): Omit<NodeLayout, 'x' | 'y'> {
  const m = METRICS;
  const descriptionLines = wrapText(node.description);
  const lines = node.internal.map(internalLines);
  const textWidth = Math.max(
    (node.label.length + (node.initial ? 2 : 0)) * m.titleCharWidth,
    ...descriptionLines.map((l) => l.length * m.charWidth),
    ...lines.flat().map((r) => r.length * m.charWidth),
  );
  const rowsTop = m.titleHeight + descriptionLines.length * m.lineHeight + m.padding;
  const rows: RowLayout[] = [];
  let y = rowsTop;
  node.internal.forEach((t, i) => {
    const height = lines[i]!.length * m.lineHeight + 4;
    rows.push({ id: t.id, y, height, lines: lines[i]! });
    y += height;
  });
  const height = rows.length > 0 ? y + m.padding : rowsTop;
  return {
    id: node.id,
    width: Math.ceil(Math.max(m.minWidth, textWidth + 2 * m.padding)),
    height: Math.ceil(height),
    descriptionLines,
    rows,
    rowsTop,
  };
}

// The bundle is CommonJS: node hands back `module.exports` (whose `default` is the class), a bundler may hand the class.
type ElkClass = new () => ELK;
const Elk = ((ElkBundled as unknown as { default?: ElkClass }).default ?? ElkBundled) as unknown as ElkClass;
const elk = new Elk();

const LAYOUT_OPTIONS = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.spacing.nodeNode': '60',
  'elk.layered.spacing.nodeNodeBetweenLayers': '70',
  'elk.layered.spacing.edgeNodeBetweenLayers': '24',
  'elk.spacing.edgeEdge': '18',
  'elk.spacing.edgeNode': '24',
  'elk.spacing.edgeLabel': '4',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '14',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  // Back edges are the ones against the definition's order: the initial state comes out on top.
  'elk.layered.cycleBreaking.strategy': 'MODEL_ORDER',
  'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
  'elk.padding': '[top=20,left=20,bottom=20,right=20]',
};

/**
 * Lays out a graph model: boxes that do not overlap, orthogonal edges, and a
 * placed label on every edge.
 *
 * @example
 * const layout = await layoutGraph(buildGraphModel(definition));
 * layout.nodes.READING; // { x, y, width, height, ... }
 */
export async function layoutGraph(model: GraphModel): Promise<GraphLayout> {
  const measured = new Map(model.nodes.map((n) => [n.id, measureNode(n)]));
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: LAYOUT_OPTIONS,
    children: model.nodes.map((n) => {
      const size = measured.get(n.id)!;
      return { id: n.id, width: size.width, height: size.height };
    }),
    edges: model.edges.map((e): ElkExtendedEdge => {
      const lines = edgeLabelLines(e);
      return {
        id: e.id,
        sources: [e.source],
        targets: [e.target],
        labels: [
          {
            id: `${e.id}:label`,
            text: lines.join('\n'),
            width: Math.ceil(Math.max(...lines.map((l) => l.length)) * METRICS.charWidth + 2 * METRICS.labelPadding),
            height: lines.length * METRICS.lineHeight + 4,
            layoutOptions: { 'elk.edgeLabels.placement': 'CENTER' },
          },
        ],
      };
    }),
  };
  const out = await elk.layout(graph);
  const nodes: Record<string, NodeLayout> = {};
  for (const child of out.children ?? []) {
    nodes[child.id] = { ...measured.get(child.id)!, x: child.x ?? 0, y: child.y ?? 0 };
  }
  const edges: Record<string, EdgeLayout> = {};
  for (const edge of (out.edges ?? []) as ElkExtendedEdge[]) {
    const section = edge.sections?.[0];
    const label = edge.labels?.[0];
    if (!section || !label) throw new Error(`layout: edge ${edge.id} came back without a route or a label`);
    edges[edge.id] = {
      id: edge.id,
      points: [section.startPoint, ...(section.bendPoints ?? []), section.endPoint],
      label: {
        x: label.x ?? 0,
        y: label.y ?? 0,
        width: label.width ?? 0,
        height: label.height ?? 0,
        lines: (label.text ?? '').split('\n'),
      },
    };
  }
  return { width: out.width ?? 0, height: out.height ?? 0, nodes, edges };
}
