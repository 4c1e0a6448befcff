import type { KindGraph, KindInvariant, KindStep } from '../testing/index.js';
import { projectPatrolSnapshot, type PatrolContext, type PatrolEvent } from './patrolMachineKind.js';

/** The explored graph of any Patrol machine, as the generic explorer gives it. */
type RunGraph = KindGraph<PatrolContext, PatrolEvent, PatrolEvent, undefined>;

/**
 * A rule every run of the Patrol machine keeps, checked over its explored graph: a graph-wide
 * invariant of the Patrol kind, which the generic checker and mutants run.
 */
export interface PatrolInvariant extends KindInvariant<KindStep<PatrolContext, PatrolEvent>, RunGraph> {
  /** Every violation on the graph, each one sentence naming the configuration or step. */
  check(graph: RunGraph): string[];
}

const show = (p: { state: string }) => p.state;
const project = projectPatrolSnapshot;
const configurations = (graph: RunGraph) =>
  [...graph.configurations.values()].map((c) => ({ key: c.key, projection: project(c.snapshot) }));

/** A rule with `check` also given as the generic `checkGraph`. */
const rule = (r: Omit<PatrolInvariant, 'checkGraph' | 'checkStep'>): PatrolInvariant => ({ ...r, checkGraph: r.check });

/** The Patrol invariants: P1 to P4. */
export const PATROL_INVARIANTS: readonly PatrolInvariant[] = [
  rule({
    id: 'P1',
    name: 'record before dispatch',
    sentence: 'A run never dispatches an investigation before its record is written.',
    check: (graph) =>
      graph.edges
        .map((e) => ({ event: e.event, before: project(e.before), after: project(e.after) }))
        .filter((e) => e.after.dispatched > e.before.dispatched && e.before.records === 0)
        .map((e) => `${e.event.type} in ${show(e.before)} dispatched an investigation with no record written`),
  }),
  rule({
    id: 'P2',
    name: 'report budget',
    sentence: 'The evaluation pass never files more reports than there were unmatched signals.',
    check: (graph) =>
      configurations(graph)
        .filter((c) => c.projection.evaluationReports > c.projection.unmatched)
        .map(
          (c) =>
            `in ${show(c.projection)}: ${c.projection.evaluationReports} evaluation reports for ${c.projection.unmatched} unmatched signals`,
        ),
  }),
  rule({
    id: 'P3',
    name: 'scoped runs do not reconcile',
    sentence: 'A scoped run never reconciles stale findings.',
    check: (graph) =>
      configurations(graph)
        .filter(
          (c) => c.projection.runType === 'scoped' && (c.projection.state === 'reconciling' || c.projection.reconciled),
        )
        .map((c) => `a scoped run reached ${show(c.projection)}${c.projection.reconciled ? ' having reconciled' : ''}`),
  }),
  rule({
    id: 'P4',
    name: 'exactly one record',
    sentence: 'Every run ends, and every path to its end writes exactly one record.',
    check: (graph) => {
      const problems: string[] = [];
      const isFinal = (key: string) => graph.finalStates.includes(graph.configurations.get(key)!.state);
      for (const c of configurations(graph)) {
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
      for (const c of configurations(graph))
        if (!canEnd.has(c.key)) problems.push(`a run in ${show(c.projection)} can never end`);
      return problems;
    },
  }),
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
export function checkPatrolInvariants(graph: RunGraph): PatrolViolation[] {
  return PATROL_INVARIANTS.flatMap((inv) => inv.check(graph).map((message) => ({ invariant: inv.id, message })));
}
