import { describe, expect, it } from 'vitest';
import { parseMachineDefinition, safetyMachineDefinition } from '../../src/index.js';
import { diagramSize } from '../../viz/components/Diagram.js';
import { fitScales } from '../../viz/hooks/useDiagramFit.js';
import { pickLayout } from '../../viz/hooks/useLayout.js';
import { layoutGraph, METRICS, splitEvent, splitGuard, type Box } from '../../viz/layout/layoutGraph.js';
import { ANY_STATE, buildGraphModel } from '../../viz/model/graphModel.js';

const overlap = (a: Box, b: Box, gap = 0) =>
  a.x < b.x + b.width + gap && b.x < a.x + a.width + gap && a.y < b.y + b.height + gap && b.y < a.y + a.height + gap;

describe('layout', () => {
  const graph = buildGraphModel(parseMachineDefinition(safetyMachineDefinition));

  it('should place every node without overlapping another', async () => {
    const layout = await layoutGraph(graph);
    const boxes = graph.nodes.map((n) => layout.nodes[n.id]!);
    expect(boxes.every(Boolean)).toBe(true);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) expect(overlap(boxes[i]!, boxes[j]!, 10)).toBe(false);
    }
    for (const b of boxes) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(layout.width);
      expect(b.y + b.height).toBeLessThanOrEqual(layout.height);
    }
  });

  it('should place a label on every edge, clear of every node and every other label', async () => {
    const layout = await layoutGraph(graph);
    const labels = graph.edges.map((e) => layout.edges[e.id]!.label);
    expect(labels).toHaveLength(graph.edges.length);
    for (const label of labels) {
      expect(label.width).toBeGreaterThan(0);
      for (const n of graph.nodes) expect(overlap(label, layout.nodes[n.id]!)).toBe(false);
    }
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) expect(overlap(labels[i]!, labels[j]!)).toBe(false);
    }
  });

  it('should route every edge from the border of its source to the border of its target', async () => {
    const layout = await layoutGraph(graph);
    const onBorder = (p: { x: number; y: number }, b: Box) =>
      p.x >= b.x - 1 && p.x <= b.x + b.width + 1 && p.y >= b.y - 1 && p.y <= b.y + b.height + 1;
    for (const e of graph.edges) {
      const { points } = layout.edges[e.id]!;
      expect(points.length).toBeGreaterThanOrEqual(2);
      expect(onBorder(points[0]!, layout.nodes[e.source]!)).toBe(true);
      expect(onBorder(points.at(-1)!, layout.nodes[e.target]!)).toBe(true);
    }
  });

  it('should lay out the same model the same way every time', async () => {
    expect(await layoutGraph(graph)).toEqual(await layoutGraph(graph));
  });
});

describe('layout for a wide, short pane', () => {
  const graph = buildGraphModel(parseMachineDefinition(safetyMachineDefinition));

  it('should run left to right: the initial state first, the layout wider than tall', async () => {
    const layout = await layoutGraph(graph);
    const states = graph.nodes.filter((n) => n.kind === 'state');
    const initial = layout.nodes[graph.definition.initial]!;
    for (const n of states) expect(layout.nodes[n.id]!.x).toBeGreaterThanOrEqual(initial.x);
    expect(layout.width).toBeGreaterThan(1.5 * layout.height);
  });

  it('should draw compact states that count the transitions staying in them instead of listing them', async () => {
    const layout = await layoutGraph(graph);
    for (const n of graph.nodes.filter((x) => x.kind === 'state')) {
      const l = layout.nodes[n.id]!;
      expect(l.height).toBeLessThanOrEqual(60);
      const blocks = n.internal.filter((t) => t.blocks).length;
      const total = l.badges.reduce((sum, b) => sum + b.count, 0);
      expect(total).toBe(n.internal.length);
      expect(l.badges.find((b) => b.kind === 'blocks')?.count ?? 0).toBe(blocks);
    }
  });

  it('should drop every root-level transition straight from the "any state" band into the top of its target', async () => {
    const layout = await layoutGraph(graph);
    const band = layout.nodes[ANY_STATE]!;
    for (const n of graph.nodes.filter((x) => x.kind === 'state')) {
      const l = layout.nodes[n.id]!;
      expect(l.x).toBeGreaterThanOrEqual(band.x);
      expect(l.x + l.width).toBeLessThanOrEqual(band.x + band.width);
      expect(l.y).toBeGreaterThan(band.y + band.height);
    }
    const roots = graph.edges.filter((e) => e.source === ANY_STATE);
    expect(roots.length).toBeGreaterThan(0);
    for (const e of roots) {
      const [from, to] = layout.edges[e.id]!.points as [Box, Box];
      expect(from.x).toBe(to.x);
      expect(from.y).toBe(band.y + band.height);
      expect(to.y).toBe(layout.nodes[e.target]!.y);
    }
  });

  it('should fit whole into the 1280×720 diagram pane with state names at 11 px or more', async () => {
    // The diagram pane at 1280×720 with the narrower side panels: 776 × 358 px under the zoom bar (as
    // test/e2e/diagramAt1280.test.ts measures it in the Live view).
    const pane = { width: 776, height: 358 };
    // The layout the app draws there: whichever direction is drawn larger (pickLayout).
    const layouts = { RIGHT: await layoutGraph(graph), DOWN: await layoutGraph(graph, { direction: 'DOWN' }) };
    const { all } = fitScales(pane, diagramSize(pickLayout(layouts, pane)));
    expect(METRICS.titleSize * all).toBeGreaterThanOrEqual(11);
  });

  it('should break a long guard at its camelCase humps', () => {
    expect(splitGuard('[failedWriteNeedsVerification]')).toEqual(['[failedWrite', 'Needs', 'Verification]']);
    expect(splitGuard('[isWrite]')).toEqual(['[isWrite]']);
  });
});

describe("a layout for the pane's shape", () => {
  const graph = buildGraphModel(parseMachineDefinition(safetyMachineDefinition));

  it('should break a long event after an underscore', () => {
    expect(splitEvent('TARGET_ESTABLISHED')).toEqual(['TARGET_', 'ESTABLISHED']);
    expect(splitEvent('RESET_KEEP_PROGRESS')).toEqual(['RESET_KEEP_', 'PROGRESS']);
    expect(splitEvent('TOOL_SUCCEEDED')).toEqual(['TOOL_SUCCEEDED']);
  });

  it('should lay out top down with the root transitions on lanes left of the states, crossing none', async () => {
    const layout = await layoutGraph(graph, { direction: 'DOWN' });
    const states = graph.nodes.filter((n) => n.kind === 'state').map((n) => layout.nodes[n.id]!);
    // Top down: each state below the one before it in the chain.
    const ys = ['RESOLVING', 'READING', 'WRITING', 'VERIFYING'].map((id) => layout.nodes[id]!.y);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    const left = Math.min(...states.map((s) => s.x));
    for (const e of graph.edges.filter((e) => e.source === ANY_STATE)) {
      const { points, label } = layout.edges[e.id]!;
      const target = layout.nodes[e.target]!;
      // Down a lane left of every state, then right into the target.
      expect(points[0]!.x).toBeLessThan(left);
      expect(points.at(-1)).toEqual({ x: target.x, y: points.at(-2)!.y });
      expect(label.x + label.width).toBeLessThanOrEqual(left);
      for (const s of states) expect(overlap(label, s)).toBe(false);
    }
  });

  it('should pick the layout drawn largest in the pane: left to right when wide, top down when square', async () => {
    const layouts = { RIGHT: await layoutGraph(graph), DOWN: await layoutGraph(graph, { direction: 'DOWN' }) };
    expect(pickLayout(layouts, { width: 1400, height: 300 })).toBe(layouts.RIGHT);
    expect(pickLayout(layouts, { width: 700, height: 615 })).toBe(layouts.DOWN);
    // The Edit view's pane at 1280×720: every label (12 px) drawn at 11 px or more.
    const { all } = fitScales(
      { width: 700, height: 590 },
      diagramSize(pickLayout(layouts, { width: 700, height: 590 })),
    );
    expect(METRICS.fontSize * all).toBeGreaterThanOrEqual(11);
    expect(METRICS.guardSize * all).toBeGreaterThanOrEqual(11);
    expect(pickLayout(layouts, { width: 0, height: 0 })).toBe(layouts.RIGHT);
  });
});

describe('fitting a diagram into its viewport', () => {
  it('should fit the whole drawing, enlarge it at most to 150 %, and fit the width on its own', () => {
    expect(fitScales({ width: 516, height: 216 }, { width: 1000, height: 400 })).toEqual({ all: 0.5, width: 0.5 });
    expect(fitScales({ width: 4016, height: 4016 }, { width: 1000, height: 400 }).all).toBe(1.5);
    expect(fitScales({ width: 1016, height: 216 }, { width: 1000, height: 400 })).toEqual({ all: 0.5, width: 1 });
  });
});
