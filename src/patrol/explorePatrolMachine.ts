import type { AnyStateMachine } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { patrolDefinitionOf, type PatrolMachine } from './createPatrolMachine.js';
import {
  projectPatrolSnapshot,
  type PatrolEvent,
  type PatrolProjection,
  type PatrolSnapshotLike,
} from './patrolMachineKind.js';

/**
 * The events exploration sends in every state: each kind of event once, with
 * the values that matter to the guards (no unmatched signal, one, two; no
 * missing verdict, one). Events a state does not handle change nothing, so a
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
  { type: 'RECONCILED', resolved: 1 },
  { type: 'RECORDED' },
  { type: 'DISPATCH', findingId: 'f1' },
  { type: 'DISPATCH_DONE' },
  { type: 'PHASE_FAILED', message: 'failed' },
];

/** A reachable configuration of a run: its projection, with the growing counts capped. */
export interface PatrolConfiguration {
  key: string;
  projection: PatrolProjection;
  snapshot: PatrolSnapshotLike;
  depth: number;
  /** Index in `edges` of the last step of a shortest path here; absent for the initial one. */
  parent?: number;
}

export interface PatrolEdge {
  index: number;
  from: string;
  to: string;
  event: PatrolEvent;
  before: PatrolProjection;
  after: PatrolProjection;
}

export interface PatrolGraph {
  initial: string;
  /** States with no transitions in the machine's definition: where a run ends. */
  finalStates: string[];
  configurations: Map<string, PatrolConfiguration>;
  edges: PatrolEdge[];
  outgoing: Map<string, number[]>;
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

/**
 * Every configuration a Patrol machine can reach under
 * {@link PATROL_EXPLORATION_EVENTS}, with XState's `getAdjacencyMap`, laid
 * out breadth-first with a shortest path to each configuration. Events that
 * change nothing are not edges.
 *
 * @example
 * const graph = explorePatrolMachine(patrolMachine);
 * graph.configurations.size;
 */
export function explorePatrolMachine(machine: PatrolMachine): PatrolGraph {
  const adjacency = getAdjacencyMap(machine as AnyStateMachine, {
    serializeState: (s) => patrolConfigurationKey(s as unknown as PatrolSnapshotLike),
    serializeEvent: (e) => JSON.stringify(e),
    events: () => PATROL_EXPLORATION_EVENTS as never,
  }) as unknown as Record<string, { state: unknown; transitions: Record<string, unknown> }>;
  const entries = Object.entries(adjacency);
  const initial = entries[0]![0];
  const configurations = new Map<string, PatrolConfiguration>();
  const edges: PatrolEdge[] = [];
  const outgoing = new Map<string, number[]>();
  const snapshotOf = (key: string) => adjacency[key]!.state as unknown as PatrolSnapshotLike;
  configurations.set(initial, {
    key: initial,
    projection: projectPatrolSnapshot(snapshotOf(initial)),
    snapshot: snapshotOf(initial),
    depth: 0,
  });
  const queue = [initial];
  for (let i = 0; i < queue.length; i++) {
    const from = queue[i]!;
    const list: number[] = [];
    for (const t of Object.values(adjacency[from]!.transitions) as Array<{
      event: PatrolEvent;
      state: PatrolSnapshotLike;
    }>) {
      const to = patrolConfigurationKey(t.state);
      if (to === from) continue;
      const edge: PatrolEdge = {
        index: edges.length,
        from,
        to,
        event: t.event,
        before: configurations.get(from)!.projection,
        after: projectPatrolSnapshot(t.state),
      };
      edges.push(edge);
      list.push(edge.index);
      if (!configurations.has(to)) {
        const snapshot = adjacency[to] ? snapshotOf(to) : t.state;
        configurations.set(to, {
          key: to,
          projection: projectPatrolSnapshot(snapshot),
          snapshot,
          depth: configurations.get(from)!.depth + 1,
          parent: edge.index,
        });
        queue.push(to);
      }
    }
    outgoing.set(from, list);
  }
  const definition = patrolDefinitionOf(machine);
  const finalStates = definition
    ? Object.entries(definition.states)
        .filter(([, st]) => Object.keys(st.on ?? {}).length === 0)
        .map(([name]) => name)
    : [];
  return { initial, finalStates, configurations, edges, outgoing };
}

/**
 * The events of a shortest path from the initial configuration to `key`.
 *
 * @example
 * shortestPatrolPath(graph, key).map((e) => e.event.type); // ['START', 'PHASE_FAILED', 'RECORDED', 'DISPATCH_DONE']
 */
export function shortestPatrolPath(graph: PatrolGraph, key: string): PatrolEdge[] {
  const path: PatrolEdge[] = [];
  let at = graph.configurations.get(key);
  while (at?.parent !== undefined) {
    const edge = graph.edges[at.parent]!;
    path.push(edge);
    at = graph.configurations.get(edge.from);
  }
  return path.reverse();
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
    const state = graph.configurations.get(key)!.projection.state;
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
  walk(graph.initial, [], new Set([graph.initial]));
  return [...found].map((p) => JSON.parse(p) as string[]).sort();
}
