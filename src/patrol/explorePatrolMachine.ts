import type { AnyStateMachine } from 'xstate';
import {
  exploreKind,
  kindPathTo,
  type KindConfiguration,
  type KindEdge,
  type KindExploration,
  type KindGraph,
} from '../testing/index.js';
import type { PatrolMachine } from './createPatrolMachine.js';
import {
  projectPatrolSnapshot,
  type PatrolContext,
  type PatrolEvent,
  type PatrolProjection,
  type PatrolSnapshotLike,
} from './patrolMachineKind.js';

/**
 * The events exploration sends in every state: each kind of event once, with
 * the values that matter to the guards (no unmatched signal, one, two; no
 * missing verdict, one, two). Events a state does not handle change nothing, so a
 * machine edit that makes a state handle one is seen.
 */
export const PATROL_EXPLORATION_EVENTS: readonly PatrolEvent[] = [
  { type: 'START', runType: 'full', trigger: 'scheduled' },
  { type: 'START', runType: 'scoped', trigger: 'alert_fired' },
  { type: 'GATES_PASSED' },
  { type: 'TRIAGED', flags: 1 },
  { type: 'REPORT_REQUESTED' },
  { type: 'PASS_DONE' },
  { type: 'SIGNALS_DETECTED', signals: 2, unmatched: 0 },
  { type: 'SIGNALS_DETECTED', signals: 2, unmatched: 1 },
  { type: 'SIGNALS_DETECTED', signals: 2, unmatched: 2 },
  { type: 'ASSESSMENTS_CHECKED', missing: 0 },
  { type: 'ASSESSMENTS_CHECKED', missing: 1 },
  { type: 'ASSESSMENTS_CHECKED', missing: 2 },
  { type: 'RECONCILED', resolved: 1 },
  { type: 'RECORDED' },
  { type: 'DISPATCH', findingId: 'f1' },
  { type: 'DISPATCH_DONE' },
  { type: 'PHASE_FAILED', message: 'failed' },
];

/** A reachable configuration of a run, with its projection. */
export interface PatrolConfiguration extends KindConfiguration<PatrolContext, undefined> {
  projection: PatrolProjection;
}

/** One edge of a run's graph: an event that changes the configuration. */
export type PatrolEdge = KindEdge<PatrolContext, PatrolEvent, PatrolEvent>;

/** The explored graph of a Patrol machine: the generic explorer's, each configuration with its projection. */
export interface PatrolGraph extends KindGraph<PatrolContext, PatrolEvent, PatrolEvent, undefined> {
  configurations: Map<string, PatrolConfiguration>;
}

const CAPS = { evaluationReports: 4, refusedReports: 1, records: 2, dispatched: 2, errors: 2 } as const;

/**
 * The key of a configuration: its projection with the counts that can grow
 * without bound (reports, refusals, records, dispatches, errors) capped, which
 * keeps the graph finite even for a machine that lets them grow.
 *
 * @example
 * patrolConfigurationKey(actor.getSnapshot()); // '{"state":"idle",...}'
 */
export function patrolConfigurationKey(snapshot: PatrolSnapshotLike): string {
  const p = projectPatrolSnapshot(snapshot);
  for (const [field, cap] of Object.entries(CAPS) as [keyof typeof CAPS, number][]) p[field] = Math.min(p[field], cap);
  return JSON.stringify(p);
}

/** An event as a path step reads: its type, then its fields (`SIGNALS_DETECTED signals=2 unmatched=1`). */
const patrolEventLabel = (event: PatrolEvent) =>
  [
    event.type,
    ...Object.entries(event)
      .filter(([k]) => k !== 'type')
      .map(([k, v]) => `${k}=${String(v)}`),
  ].join(' ');

/**
 * How a Patrol machine is explored, as data for the generic explorer: every
 * event class of {@link PATROL_EXPLORATION_EVENTS} in every configuration,
 * configurations told apart by {@link patrolConfigurationKey}, and events
 * that change nothing left out.
 *
 * @example
 * exploreKind(patrolMachine, patrolExploration()).configurations.size;
 */
export function patrolExploration(): KindExploration<PatrolContext, PatrolEvent, PatrolEvent, undefined> {
  return {
    moves: () => PATROL_EXPLORATION_EVENTS.map((event) => ({ label: patrolEventLabel(event), event })),
    key: (snapshot) => patrolConfigurationKey(snapshot),
    noOps: false,
  };
}

/**
 * Every configuration a Patrol machine can reach under
 * {@link PATROL_EXPLORATION_EVENTS}: the generic explorer (`exploreKind`) with
 * {@link patrolExploration}, breadth-first with a shortest path to each
 * configuration. Events that change nothing are not edges.
 *
 * @example
 * const graph = explorePatrolMachine(patrolMachine);
 * graph.configurations.size;
 */
export function explorePatrolMachine(machine: PatrolMachine): PatrolGraph {
  const graph = exploreKind(machine as AnyStateMachine, patrolExploration());
  const configurations = new Map<string, PatrolConfiguration>();
  for (const [key, c] of graph.configurations)
    configurations.set(key, { ...c, projection: projectPatrolSnapshot(c.snapshot) });
  return { ...graph, configurations };
}

/**
 * The events of a shortest path from the initial configuration to `key`.
 *
 * @example
 * shortestPatrolPath(graph, key).map((e) => e.event.type); // ['START', 'PHASE_FAILED', 'RECORDED', 'DISPATCH_DONE']
 */
export function shortestPatrolPath(graph: PatrolGraph, key: string): PatrolEdge[] {
  return kindPathTo(graph, key);
}

/**
 * Every path of states (self-loops folded) from the initial state to a
 * configuration with no way out: the runs the machine allows, phase by phase.
 *
 * @example
 * patrolStatePaths(graph)[0]; // ['idle', 'gating', 'recording', 'dispatching', 'done']
 */
export function patrolStatePaths(graph: PatrolGraph): string[][] {
  const found = new Set<string>();
  const walk = (key: string, path: string[], seen: Set<string>) => {
    const state = graph.configurations.get(key)!.state;
    const next = path[path.length - 1] === state ? path : [...path, state];
    const out = graph.outgoing.get(key) ?? [];
    if (out.length === 0) {
      found.add(JSON.stringify(next));
      return;
    }
    for (const i of out) {
      const to = graph.edges[i]!.to;
      if (seen.has(to)) continue;
      seen.add(to);
      walk(to, next, seen);
      seen.delete(to);
    }
  };
  for (const start of graph.initial) walk(start, [], new Set([start]));
  return [...found].map((p) => JSON.parse(p) as string[]).sort();
}
