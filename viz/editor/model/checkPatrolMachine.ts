import { MachineDefinitionError } from 'assistant-safety';
import {
  createPatrolMachine,
  explorePatrolMachine,
  parsePatrolMachineDefinition,
  PATROL_INVARIANTS,
  PATROL_PROTOCOL_INVARIANTS,
  shortestPatrolPath,
} from 'assistant-safety/patrol';

/** Every Patrol invariant the command line checks: the run's rules (P1 to P4) and its protocol (P5, P6). */
const INVARIANTS = [...PATROL_INVARIANTS, ...PATROL_PROTOCOL_INVARIANTS];
import type { MachineDefinition } from 'assistant-safety';
import type { PatrolEdge, PatrolGraph, PatrolInvariant } from 'assistant-safety/patrol';
import { patrolTransitionTaken } from '../../model/patrolTransitionTaken.js';
import type { CounterexampleStep } from './CheckReport.js';
import type { MachineCheck } from './checkMachine.js';

/**
 * A shortest run that breaks an invariant: of the configurations in the
 * order exploration reached them, the first whose shortest path, checked
 * alone, shows one of the graph's own violations (a violation seen only on
 * the cut-down path, such as a run that cannot end there, is not one).
 */
function shortestWitness(
  graph: PatrolGraph,
  invariant: PatrolInvariant,
  broken: readonly string[],
): { path: PatrolEdge[]; message: string } | undefined {
  const real = new Set(broken);
  for (const key of graph.configurations.keys()) {
    const path = shortestPatrolPath(graph, key);
    const keys = new Set([...graph.initial, ...path.map((e) => e.to)]);
    const sub: PatrolGraph = {
      ...graph,
      configurations: new Map([...keys].map((k) => [k, graph.configurations.get(k)!])),
      edges: path,
      outgoing: new Map(),
    };
    const message = invariant.check(sub).find((m) => real.has(m));
    if (message !== undefined) return { path, message };
  }
  return undefined;
}

/** One step of a Patrol counterexample, for the report and the diagram. */
function stepOf(definition: MachineDefinition, edge: PatrolEdge): CounterexampleStep {
  const from = String(edge.before.value);
  const to = String(edge.after.value);
  const transition = patrolTransitionTaken(definition, from, edge.event.type, to);
  return {
    text: `${from} · ${edge.event.type} → ${to}`,
    from,
    to,
    ...(transition !== undefined && { transition }),
    decision: null,
  };
}

/**
 * Validates a Patrol run machine's JSON (the shared schema, then the Patrol
 * kind's guards, actions and events) and, when it is well formed, explores
 * it and checks every Patrol invariant (P1 to P6) over its graph: each broken
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
  const definition = json as MachineDefinition;
  const violations = INVARIANTS.map((invariant) => ({ invariant, broken: invariant.check(graph) }))
    .filter(({ broken }) => broken.length > 0)
    .map(({ invariant, broken }) => {
      const witness = shortestWitness(graph, invariant, broken);
      return {
        id: invariant.id,
        name: invariant.name,
        sentence: invariant.sentence,
        message: witness?.message ?? broken[0]!,
        config: '',
        steps: (witness?.path ?? []).map((edge) => stepOf(definition, edge)),
        edges: broken.length,
      };
    });
  return {
    ok: true,
    report: {
      configurations: graph.configurations.size,
      edges: graph.edges.length,
      checks: INVARIANTS.length,
      violations,
      ms: performance.now() - started,
    },
  };
}
