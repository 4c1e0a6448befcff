import { describe, expect, it } from 'vitest';
import { layoutGraph } from '../../viz/layout/layoutGraph.js';
import { buildGraphModel } from '../../viz/model/graphModel.js';
import { positionedLayout } from '../../viz/editor/model/positionedLayout.js';
import { shippedDefinition } from './fixtures.js';

describe('saved positions over the automatic layout', () => {
  it('should leave the automatic layout as it is when no state has a saved position of its own', async () => {
    const model = buildGraphModel(shippedDefinition());
    const auto = await layoutGraph(model);
    expect(positionedLayout(model, auto, {})).toBe(auto);
    expect(positionedLayout(model, auto, { READING: { x: auto.nodes.READING!.x, y: auto.nodes.READING!.y } })).toBe(
      auto,
    );
  });

  it('should put a moved state where it was saved, re-route its edges to its border, and keep the others', async () => {
    const model = buildGraphModel(shippedDefinition());
    const auto = await layoutGraph(model);
    const shown = positionedLayout(model, auto, { READING: { x: auto.width + 100, y: 40 } });
    const reading = shown.nodes.READING!;
    expect(reading).toMatchObject({ x: auto.width + 100, y: 40 });
    expect(shown.nodes.VERIFYING).toEqual(auto.nodes.VERIFYING);
    expect(shown.width).toBeGreaterThanOrEqual(reading.x + reading.width);
    const touching = model.edges.filter((e) => e.target === 'READING' || e.source === 'READING');
    expect(touching.length).toBeGreaterThan(0);
    for (const e of touching) {
      const end = e.target === 'READING' ? shown.edges[e.id]!.points.at(-1)! : shown.edges[e.id]!.points[0]!;
      const onBorder =
        Math.abs(end.x - reading.x) < 1 ||
        Math.abs(end.x - (reading.x + reading.width)) < 1 ||
        Math.abs(end.y - reading.y) < 1 ||
        Math.abs(end.y - (reading.y + reading.height)) < 1;
      expect(onBorder, e.id).toBe(true);
    }
    const other = model.edges.find((e) => e.source !== 'READING' && e.target !== 'READING')!;
    expect(shown.edges[other.id]).toBe(auto.edges[other.id]);
  });
});
