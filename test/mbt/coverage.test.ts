import { describe, expect, it } from 'vitest';
import { CoverageTracker, exploreMachine } from 'assistant-safety/testing';
import { parseMachineDefinition, safetyMachine, safetyMachineDefinition } from 'assistant-safety';
import { formatFigure } from '../../src/testing/coverage.js';
import { shortestPlans, simplePlans, type PathPlan } from '../../src/testing/paths.js';
import { runPlan } from '../../src/testing/runPlan.js';

const def = parseMachineDefinition(safetyMachineDefinition);
const graph = exploreMachine(safetyMachine);
const shortest = shortestPlans(graph);
const simple = simplePlans(graph, 3);

/** Coverage of the machine JSON by what the session actually did when the plans ran. */
function coverageOf(plans: PathPlan[]) {
  const tracker = new CoverageTracker(def);
  for (const plan of plans) {
    const result = runPlan(plan);
    expect(result.failure).toBeUndefined();
    // Every machine step of each call (in shadow mode a call the gate refuses is two: the block, then RUN_UNGATED).
    for (const o of result.observed)
      for (const step of o.steps)
        tracker.step(String(step.before.value), step.before.context, step.event, String(step.after.value));
  }
  return tracker.report();
}

describe('coverage of the generated path tests', () => {
  it('should cover 100% of states, transitions and guard outcomes', () => {
    const coverage = coverageOf([...shortest, ...simple]);
    console.log(
      [
        formatFigure('states', coverage.states),
        formatFigure('transitions', coverage.transitions),
        formatFigure('guard outcomes', coverage.guardOutcomes),
      ].join('\n'),
    );
    expect(coverage.states.missing).toEqual([]);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(coverage.guardOutcomes.total).toBe(2 * coverage.transitions.total - 2 * countUnguarded());
  });

  it('should name what is missing when only the paths to configurations run', () => {
    // Blocked checks and no-op events are self-loops: no shortest path *to* a configuration takes them.
    const coverage = coverageOf(shortest.filter((p) => p.strategy === 'shortest'));
    expect(coverage.transitions.missing.length + coverage.guardOutcomes.missing.length).toBeGreaterThan(0);
    expect(coverage.transitions.missing.join(' ')).toMatch(/CHECK_TOOL|CHECK_FINAL_ANSWER|COMPLETE_VERIFICATION/);
  });
});

function countUnguarded(): number {
  let n = 0;
  for (const map of [def.on ?? {}, ...Object.values(def.states).map((s) => s.on ?? {})])
    for (const list of Object.values(map)) n += list.filter((t) => t.guard === undefined).length;
  return n;
}
