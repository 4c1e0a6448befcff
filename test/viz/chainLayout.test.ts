import { describe, expect, it } from 'vitest';
import { parseMachineDefinition, safetyMachineDefinition } from '../../src/index.js';
import { patrolMachineDefinition } from '../../src/patrol/index.js';
import { chainLayout, findChain } from '../../viz/layout/chainLayout.js';
import { buildGraphModel } from '../../viz/model/graphModel.js';

const patrol = () => buildGraphModel(patrolMachineDefinition);

describe('the layout of chain-shaped machines', () => {
  it('should find Patrol’s chain from its graph and not call the safety machine a chain', () => {
    const chain = findChain(patrol())!;
    const states = patrol().nodes.filter((n) => n.kind === 'state');
    expect(chain[0]).toBe(patrol().definition.initial);
    expect(chain.length).toBeGreaterThanOrEqual(0.8 * states.length);
    expect(findChain(buildGraphModel(parseMachineDefinition(safetyMachineDefinition)))).toBeUndefined();
  });

  it('should lay the chain out in the rows asked, every state inside the layout and none overlapping', () => {
    for (const rows of [2, 3, 4]) {
      const layout = chainLayout(patrol(), rows)!;
      const boxes = patrol()
        .nodes.filter((n) => n.kind === 'state')
        .map((n) => layout.nodes[n.id]!);
      const ys = new Set(boxes.map((b) => b.y));
      expect(ys.size).toBe(rows);
      for (const b of boxes) {
        expect(b.x).toBeGreaterThanOrEqual(0);
        expect(b.y).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width).toBeLessThanOrEqual(layout.width);
        expect(b.y + b.height).toBeLessThanOrEqual(layout.height);
      }
      for (const [i, a] of boxes.entries())
        for (const b of boxes.slice(i + 1))
          expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y).toBe(
            true,
          );
    }
  });
});
