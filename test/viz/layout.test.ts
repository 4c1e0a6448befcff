import { describe, expect, it } from 'vitest';
import { parseMachineDefinition, safetyMachineDefinition } from '../../src/index.js';
import { layoutGraph, type Box } from '../../viz/layout/layoutGraph.js';
import { buildGraphModel } from '../../viz/model/graphModel.js';

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
