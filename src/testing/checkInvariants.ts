import type { SafetyConfig, SafetyContext } from '../safety/SafetyContext.js';
import type { SafetyEvent } from '../safety/SafetyEvent.js';
import { checkKindInvariants } from './checkKindInvariants.js';
import { configText, describeStep } from './describeStep.js';
import type { KindStep } from './exploreKind.js';
import type { GraphEdge, MachineGraph } from './exploreMachine.js';
import { invariants as allInvariants, type Invariant } from './invariants.js';
import { asKindInvariants } from './safetyKindTesting.js';
import { stepOf, type SafetySnapshotLike } from './Step.js';

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
  const result = checkKindInvariants(graph, {
    step: (s: KindStep<SafetyContext, SafetyEvent>) =>
      stepOf(s.before as SafetySnapshotLike, s.event, s.after as SafetySnapshotLike),
    invariants: asKindInvariants(invariants),
  });
  const byId = new Map(invariants.map((i) => [i.id, i]));
  return {
    configurations: result.configurations,
    edges: result.edges,
    invariants: result.invariants,
    checks: result.checks,
    violations: result.violations.map((v) => {
      const path = v.path as GraphEdge[];
      return {
        invariant: byId.get(v.invariant.id)!,
        message: v.message,
        path,
        config: graph.configurations.get(path[0]!.from)!.config,
        edges: v.count,
      };
    }),
    ms: result.ms,
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
