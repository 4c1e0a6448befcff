import type { PatrolGraph } from './explorePatrolMachine.js';

/** A rule every run of the Patrol machine keeps, checked over its explored graph. */
export interface PatrolInvariant {
  id: string;
  name: string;
  sentence: string;
  /** Every violation on the graph, each one sentence naming the configuration or step. */
  check(graph: PatrolGraph): string[];
}

const show = (p: { state: string }) => p.state;

/** The Patrol invariants: P1 to P4. */
export const PATROL_INVARIANTS: readonly PatrolInvariant[] = [
  {
    id: 'P1',
    name: 'record before dispatch',
    sentence: 'A run never dispatches an investigation before its record is written.',
    check: (graph) =>
      graph.edges
        .filter((e) => e.after.dispatched > e.before.dispatched && e.before.records === 0)
        .map((e) => `${e.event.type} in ${show(e.before)} dispatched an investigation with no record written`),
  },
  {
    id: 'P2',
    name: 'report budget',
    sentence: 'The evaluation pass never files more reports than there were unmatched signals.',
    check: (graph) =>
      [...graph.configurations.values()]
        .filter((c) => c.projection.evaluationReports > c.projection.unmatched)
        .map(
          (c) =>
            `in ${show(c.projection)}: ${c.projection.evaluationReports} evaluation reports for ${c.projection.unmatched} unmatched signals`,
        ),
  },
  {
    id: 'P3',
    name: 'scoped runs do not reconcile',
    sentence: 'A scoped run never reconciles stale findings.',
    check: (graph) =>
      [...graph.configurations.values()]
        .filter(
          (c) => c.projection.runType === 'scoped' && (c.projection.state === 'reconciling' || c.projection.reconciled),
        )
        .map((c) => `a scoped run reached ${show(c.projection)}${c.projection.reconciled ? ' having reconciled' : ''}`),
  },
  {
    id: 'P4',
    name: 'exactly one record',
    sentence: 'Every run ends, and every path to its end writes exactly one record.',
    check: (graph) => {
      const problems: string[] = [];
      const isFinal = (key: string) => graph.finalStates.includes(graph.configurations.get(key)!.projection.state);
      for (const c of graph.configurations.values()) {
        if (c.projection.records > 1) problems.push(`in ${show(c.projection)}: ${c.projection.records} records`);
        if (isFinal(c.key) && c.projection.records !== 1)
          problems.push(`the run ends in ${show(c.projection)} with ${c.projection.records} records`);
      }
      // Every configuration must be able to reach an end: no run may be stuck forever.
      const canEnd = new Set([...graph.configurations.keys()].filter(isFinal));
      let grew = true;
      while (grew) {
        grew = false;
        for (const e of graph.edges)
          if (canEnd.has(e.to) && !canEnd.has(e.from)) {
            canEnd.add(e.from);
            grew = true;
          }
      }
      for (const c of graph.configurations.values())
        if (!canEnd.has(c.key)) problems.push(`a run in ${show(c.projection)} can never end`);
      return problems;
    },
  },
];

/** One broken invariant and how. */
export interface PatrolViolation {
  invariant: string;
  message: string;
}

/**
 * Checks every Patrol invariant over an explored graph.
 *
 * @example
 * checkPatrolInvariants(explorePatrolMachine(patrolMachine)); // []
 */
export function checkPatrolInvariants(graph: PatrolGraph): PatrolViolation[] {
  return PATROL_INVARIANTS.flatMap((inv) => inv.check(graph).map((message) => ({ invariant: inv.id, message })));
}
