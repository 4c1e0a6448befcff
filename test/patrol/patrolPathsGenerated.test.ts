import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { indexMachine } from 'assistant-safety';
import { patrolKindTesting, patrolMachine, patrolDefinitionOf } from 'assistant-safety/patrol';
import { CoverageTracker, exploreKind, kindPlans, runKindPlan } from 'assistant-safety/testing';

/*
 * Path tests of the Patrol machine from the generic path generator: a
 * shortest path to every configuration and one through every transition and
 * guard outcome those miss, each replayed on a fresh actor, together covering
 * every state, transition and guard outcome of machines/patrol.json.
 */

describe('path tests generated for the Patrol kind', () => {
  const graph = exploreKind(patrolMachine, patrolKindTesting.exploration());
  const plans = kindPlans(graph, patrolKindTesting.kind);
  const def = patrolDefinitionOf(patrolMachine)!;

  it('should give a path to every configuration, each one the machine takes', () => {
    expect(plans.filter((p) => p.strategy === 'shortest').length).toBe(graph.configurations.size - 1);
    const failed = plans.flatMap((p) => {
      const r = runKindPlan(patrolMachine, p);
      return r.ok ? [] : [`${p.name}: ${r.failure}`];
    });
    expect(failed).toEqual([]);
  });

  it('should cover every state, transition and guard outcome of the machine', () => {
    const tracker = new CoverageTracker(def, patrolKindTesting.kind);
    // What the plans run, step by step, on fresh actors.
    for (const plan of plans) {
      const actor = createActor(patrolMachine).start();
      for (const step of plan.steps) {
        const before = actor.getSnapshot();
        actor.send(step.event);
        tracker.step(String(before.value), before.context, step.event, String(actor.getSnapshot().value));
      }
      actor.stop();
    }
    const coverage = tracker.report();
    expect(coverage.states.missing).toEqual([]);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(coverage.transitions.total).toBe(indexMachine(def).transitions.length);
  });
});
