import { describe, expect, it } from 'vitest';
import { exploreMachine } from 'assistant-safety/testing';
import { safetyMachine } from 'assistant-safety';
import { shortestPlans } from '../../src/testing/paths.js';
import { runPlan } from '../../src/testing/runPlan.js';

const started = performance.now();
const graph = exploreMachine(safetyMachine);
const plans = shortestPlans(graph);
console.log(
  `shortest paths: ${plans.length} (${plans.filter((p) => p.strategy === 'coverage').length} added for coverage) over ${graph.configurations.size} configurations, generated in ${Math.round(performance.now() - started)} ms (exploration ${Math.round(graph.ms)} ms)`,
);

describe('shortest paths to every configuration, run against SafetySession', () => {
  it('should reach every configuration of the graph', () => {
    const targets = new Set(plans.map((p) => p.target));
    for (const [key, c] of graph.configurations) if (c.parent !== undefined) expect(targets).toContain(key);
  });

  it.each(plans.map((p) => [p.name, p] as const))('%s', (_name, plan) => {
    const result = runPlan(plan);
    expect(result.failure).toBeUndefined();
    expect(result.observed).toHaveLength(plan.steps.length);
  });
});
