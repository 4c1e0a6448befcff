import { MachineDefinitionError } from 'assistant-safety';
import {
  createPatrolMachine,
  explorePatrolMachine,
  parsePatrolMachineDefinition,
  PATROL_INVARIANTS,
} from 'assistant-safety/patrol';
import type { MachineCheck } from './checkMachine.js';

/**
 * Validates a Patrol run machine's JSON (the shared schema, then the Patrol
 * kind's guards, actions and events) and, when it is well formed, explores
 * it and checks every Patrol invariant (P1 to P4) over its graph: each broken
 * one with its rule, the first way it is broken and how many.
 *
 * @example
 * const check = checkPatrolMachine(edited);
 * if (check.ok) check.report.violations.map((v) => v.id); // ['P1'] for a run that dispatches before its record
 */
export function checkPatrolMachine(json: unknown): MachineCheck {
  try {
    parsePatrolMachineDefinition(json);
  } catch (e) {
    if (e instanceof MachineDefinitionError) return { ok: false, issues: e.issues };
    throw e;
  }
  const started = performance.now();
  const graph = explorePatrolMachine(createPatrolMachine(json));
  const violations = PATROL_INVARIANTS.map((invariant) => ({ invariant, broken: invariant.check(graph) }))
    .filter(({ broken }) => broken.length > 0)
    .map(({ invariant, broken }) => ({
      id: invariant.id,
      name: invariant.name,
      sentence: invariant.sentence,
      message: broken[0]!,
      config: '',
      steps: [],
      edges: broken.length,
    }));
  return {
    ok: true,
    report: {
      configurations: graph.configurations.size,
      edges: graph.edges.length,
      checks: PATROL_INVARIANTS.length,
      violations,
      ms: performance.now() - started,
    },
  };
}
