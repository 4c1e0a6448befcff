import { describe, expect, it } from 'vitest';
import { exploreMachine, resolveTransition, stepsOfEdge } from 'assistant-safety/testing';
import { parseMachineDefinition, safetyMachine, safetyMachineDefinition } from 'assistant-safety';

const def = parseMachineDefinition(safetyMachineDefinition);
const graph = exploreMachine(safetyMachine);

describe('coverage replays XState’s choice of transition', () => {
  it('should pick the transition XState takes on every edge (same target state)', () => {
    let checked = 0;
    for (const edge of graph.edges) {
      // A call run ungated (shadow mode) is two machine steps: the block, then RUN_UNGATED.
      for (const step of stepsOfEdge(edge)) {
        const r = resolveTransition(def, String(step.before.value), step.before.context, step.event);
        const expected = r.taken?.target ?? String(step.before.value);
        expect(String(step.after.value), `${edge.from} · ${edge.label} (${step.event.type})`).toBe(expected);
        // An event no transition takes changes nothing at all.
        if (!r.taken) expect(step.after.context).toEqual(step.before.context);
        checked++;
      }
    }
    expect(checked).toBe(graph.edges.length + graph.edges.filter((e) => e.ungated).length);
    expect(graph.edges.some((e) => e.ungated)).toBe(true);
  });
});
