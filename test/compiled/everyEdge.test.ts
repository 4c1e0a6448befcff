import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  compileMachine,
  safetyMachine,
  safetyMachineDefinition,
  safetyMachineKind,
  type CompiledMachine,
  type SafetyContext,
  type SafetyEvent,
} from 'assistant-safety';
import { exploreMachine, type GraphEdge } from 'assistant-safety/testing';

/*
 * Every edge of the explored graph (every configuration of the six explored settings × every
 * move possible there), taken by XState when the graph was built, is taken again by the compiled
 * table from the same state and context: same state, same context, same transition.
 */

type Table = CompiledMachine<SafetyContext, SafetyEvent>;

/** The first edge where the table disagrees with XState, named by the edge and the transition taken. */
function firstDisagreement(table: Table, edges: readonly GraphEdge[]): string | null {
  for (const edge of edges) {
    const steps = edge.ungated
      ? [
          { before: edge.before, event: edge.event, after: edge.ungated.mid },
          { before: edge.ungated.mid, event: edge.ungated.event, after: edge.after },
        ]
      : [{ before: edge.before, event: edge.event, after: edge.after }];
    for (const { before, event, after } of steps) {
      const step = table.step(before.value as string, before.context, event);
      const where = `edge ${edge.index} "${edge.label}" from ${edge.from}, transition ${step.transition?.id ?? '(none)'}`;
      if (step.value !== after.value) return `${where}: state ${step.value}, XState ${String(after.value)}`;
      if (!isDeepStrictEqual(step.context, after.context))
        return `${where}: context ${JSON.stringify(step.context)}, XState ${JSON.stringify(after.context)}`;
      const can = (before as { can?: (e: SafetyEvent) => boolean }).can?.(event);
      if (can !== undefined && can !== table.can(before.value as string, before.context, event))
        return `${where}: can() ${!can}, XState ${can}`;
    }
  }
  return null;
}

describe('the compiled decision table', () => {
  const graph = exploreMachine(safetyMachine);
  const table = compileMachine(safetyMachineKind, safetyMachineDefinition);

  it('should take every edge of the explored graph exactly as XState does', () => {
    expect(graph.edges.length).toBeGreaterThan(1000);
    expect(firstDisagreement(table, graph.edges)).toBeNull();
    console.log(
      `compiled table: ${graph.edges.length} explored edges, ${graph.configurations.size} configurations, all equal to XState`,
    );
  });

  it('should name the edge when the table is broken on purpose', () => {
    // The table with one action dropped from the transition of a landed write: not what the JSON says.
    const broken: Table = {
      ...table,
      step(value, context, event) {
        const step = table.step(value, context, event);
        if (step.transition?.id !== '*.TOOL_SUCCEEDED[3]') return step;
        const { uncoveredTargets: _, ...rest } = step.context;
        return { ...step, context: { ...rest, writeEpoch: step.context.writeEpoch - 1 } as SafetyContext };
      },
    };
    const found = firstDisagreement(broken, graph.edges);
    expect(found).toMatch(/^edge \d+ ".*" from .*, transition \*\.TOOL_SUCCEEDED\[3\]: context /);
  });

  it('should name the edge when a transition is chosen out of order', () => {
    // The table that tries the machine's own TOOL_SUCCEEDED transitions last-first.
    const reordered: Table = {
      ...table,
      step(value, context, event) {
        if (event.type !== 'TOOL_SUCCEEDED') return table.step(value, context, event);
        const list = [...table.candidates(value, event.type)].reverse();
        const t = list.find((c) => c.test === undefined || c.test(context, event));
        if (!t) return { value, context, transition: undefined };
        const next = { ...context };
        for (const a of t.actions) Object.assign(next, a.run(next, event, a.params as never));
        return { value: t.target ?? value, context: next, transition: t };
      },
    };
    expect(firstDisagreement(reordered, graph.edges)).toMatch(/^edge \d+ /);
  });
});
