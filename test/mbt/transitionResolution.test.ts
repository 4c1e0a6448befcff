import { describe, expect, it } from 'vitest';
import { exploreMachine, resolveTransition } from 'assistant-safety/testing';
import { parseMachineDefinition, safetyMachine, safetyMachineDefinition } from 'assistant-safety';

const def = parseMachineDefinition(safetyMachineDefinition);
const graph = exploreMachine(safetyMachine);

describe('coverage replays XState’s choice of transition', () => {
  it('should pick the transition XState takes on every edge (same target state)', () => {
    let checked = 0;
    for (const edge of graph.edges) {
      const r = resolveTransition(def, String(edge.before.value), edge.before.context, edge.event);
      const expected = r.taken?.target ?? String(edge.before.value);
      expect(String(edge.after.value), `${edge.from} · ${edge.label}`).toBe(expected);
      // An event no transition takes changes nothing at all.
      if (!r.taken) expect(edge.after.context).toEqual(edge.before.context);
      checked++;
    }
    expect(checked).toBe(graph.edges.length);
  });
});
