import { describe, expect, it } from 'vitest';
import { parseMachineDefinition, safetyMachineDefinition } from '../../src/index.js';
import { ANY_STATE, buildGraphModel } from '../../viz/model/graphModel.js';

const def = parseMachineDefinition(safetyMachineDefinition);

describe('graph model', () => {
  it('should have one node per state plus an "any state" node for the root-level transitions', () => {
    const graph = buildGraphModel(def);
    expect(graph.nodes.map((n) => n.id)).toEqual([ANY_STATE, ...Object.keys(def.states)]);
    expect(graph.nodes.find((n) => n.initial)?.id).toBe(def.initial);
    for (const node of graph.nodes.filter((n) => n.kind === 'state')) {
      expect(node.description).toBe(def.states[node.id]!.description);
    }
  });

  it('should draw every transition exactly once, as an edge when it has a target and as a row when not', () => {
    const graph = buildGraphModel(def);
    const count = (on: Record<string, unknown[]> | undefined) =>
      Object.values(on ?? {}).reduce((n, list) => n + list.length, 0);
    const total = count(def.on) + Object.values(def.states).reduce((n, s) => n + count(s.on), 0);
    const rows = graph.nodes.flatMap((n) => n.internal);
    expect(graph.transitions.size).toBe(total);
    expect(graph.edges.length + rows.length).toBe(total);
    expect(graph.edges.every((e) => !e.internal && def.states[e.target] !== undefined)).toBe(true);
    expect(rows.every((r) => r.internal && r.target === r.source)).toBe(true);
  });

  it('should hang targeted root-level transitions off the "any state" node with their guard and block code', () => {
    const graph = buildGraphModel(def);
    const reset = graph.edges.find((e) => e.event === 'RESET');
    expect(reset).toMatchObject({ source: ANY_STATE, target: 'RESOLVING' });
    const selfVerified = graph.edges.find((e) => e.guard === 'isSelfVerifiedWrite');
    expect(selfVerified).toMatchObject({ source: ANY_STATE, target: 'VERIFYING', event: 'TOOL_SUCCEEDED' });
    const blocked = graph.transitions.get('VERIFYING.BEGIN_CALL[3]');
    expect(blocked).toMatchObject({ internal: true, guard: 'isWrite', blocks: 'UNVERIFIED_WRITE' });
  });
});
