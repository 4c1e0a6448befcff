import { describe, expect, it } from 'vitest';
import { exploreMachine } from 'assistant-safety/testing';
import { safetyMachine } from 'assistant-safety';
import { simplePlans } from '../../src/testing/paths.js';
import { runPlan } from '../../src/testing/runPlan.js';

const DEPTH = 3;
const graph = exploreMachine(safetyMachine);
const started = performance.now();
const plans = simplePlans(graph, DEPTH);
console.log(
  `simple paths of depth ${DEPTH}: ${plans.length}, generated in ${Math.round(performance.now() - started)} ms`,
);

describe(`simple paths of ${DEPTH} steps, run against SafetySession`, () => {
  it('should never visit a configuration twice in one path', () => {
    for (const plan of plans) {
      expect(plan.steps.length).toBeLessThanOrEqual(DEPTH);
      const visited = [graph.initial.find((k) => graph.configurations.get(k)!.config === plan.config)!];
      visited.push(...plan.steps.map((s) => s.configuration));
      expect(new Set(visited).size, plan.name).toBe(visited.length);
    }
    expect(new Set(plans.map((p) => p.name)).size).toBe(plans.length);
  });

  it.each(plans.map((p) => [p.name, p] as const))('%s', (_name, plan) => {
    const result = runPlan(plan);
    expect(result.failure).toBeUndefined();
  });
});
