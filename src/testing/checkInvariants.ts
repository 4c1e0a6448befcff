import type { SafetyConfig } from '../SafetyContext.js';
import { configText, describeStep } from './describeStep.js';
import { shortestPathTo, stepsOfEdge, type GraphEdge, type MachineGraph } from './exploreMachine.js';
import { invariants as allInvariants, type Invariant } from './invariants.js';

/** An invariant that fails on some edge, with a shortest path that shows it. */
export interface Violation {
  invariant: Invariant;
  /** What went wrong on the last step. */
  message: string;
  /** A shortest path from an initial configuration whose last step breaks the invariant. */
  path: GraphEdge[];
  config: SafetyConfig;
  /** How many edges break it. */
  edges: number;
}

export interface CheckResult {
  configurations: number;
  edges: number;
  invariants: number;
  /** Edge × invariant checks made. */
  checks: number;
  violations: Violation[];
  ms: number;
}

/**
 * Checks every edge of the graph against every invariant, and keeps for each
 * broken invariant a shortest counterexample (edges are in breadth-first
 * order, so the first violating edge is one of the closest to the start).
 *
 * @example
 * const result = checkInvariants(exploreMachine(safetyMachine));
 * for (const v of result.violations) console.log(formatViolation(v));
 */
export function checkInvariants(graph: MachineGraph, invariants: readonly Invariant[] = allInvariants): CheckResult {
  const started = performance.now();
  const found = new Map<string, Violation>();
  let checks = 0;
  for (const edge of graph.edges) {
    const steps = stepsOfEdge(edge);
    for (const invariant of invariants) {
      checks++;
      let message: string | null = null;
      for (const step of steps) if (message === null) message = invariant.check(step);
      if (message === null) continue;
      const known = found.get(invariant.id);
      if (known) {
        known.edges++;
        continue;
      }
      const from = graph.configurations.get(edge.from)!;
      found.set(invariant.id, {
        invariant,
        message,
        path: [...shortestPathTo(graph, edge.from), edge],
        config: from.config,
        edges: 1,
      });
    }
  }
  const violations = invariants.flatMap((i) => found.get(i.id) ?? []);
  return {
    configurations: graph.configurations.size,
    edges: graph.edges.length,
    invariants: invariants.length,
    checks,
    violations,
    ms: performance.now() - started,
  };
}

/**
 * A violation as a story: the rule, then the steps that break it, then what went wrong.
 *
 * @example
 * for (const v of checkInvariants(exploreMachine(machine)).violations) console.log(formatViolation(v));
 * // ✗ I3 No final answer about an unverified change
 * //   Rule: ...
 */
export function formatViolation(v: Violation): string {
  const lines = [
    `✗ ${v.invariant.id} ${v.invariant.name}`,
    `  Rule: ${v.invariant.sentence}`,
    `  Counterexample (${v.path.length} step${v.path.length === 1 ? '' : 's'} from a new session${configText(v.config)}):`,
    ...v.path.map((edge, i) => `    ${i + 1}. ${describeStep(edge)}`),
    `  Broken at step ${v.path.length}: ${v.message}.`,
  ];
  if (v.edges > 1) lines.push(`  (${v.edges} edges of the graph break this rule; this is a shortest path to one.)`);
  return lines.join('\n');
}
