import { definitionOf } from '../safety/createSafetyMachine.js';
import type { RecordedBlockCode } from '../safety/RecordingEntry.js';
import type { SafetyConfig } from '../safety/SafetyContext.js';
import type { BlockReasonCode, SessionState } from '../safety/toolKind.js';
import { safetyMachineKind } from '../safety/safetyMachineKind.js';
import { pathName } from './describeStep.js';
import type { GraphEdge, MachineGraph } from './exploreMachine.js';
import { coveringPaths, edgeCoverageItems } from './kindPaths.js';
import type { Move } from './Move.js';
import type { StepDecision } from './Step.js';

/** What the graph predicts a session shows after a step. */
export interface StepExpectation {
  state: SessionState;
  wroteThisEpisode: boolean;
  readAfterWrite: boolean;
  /** For a check: allowed or blocked; null for anything else. */
  decision: StepDecision;
  reasonCode?: BlockReasonCode;
  /** Shadow mode: the call was allowed, and enforcement would have blocked it for this reason. */
  wouldBlock?: RecordedBlockCode;
}

export interface PlanStep {
  label: string;
  /** The configuration the step leads to. */
  configuration: string;
  move: Move;
  expect: StepExpectation;
}

/**
 * A path plan: moves from a new session and what each must show. JSON, so
 * other tools (and people) can use it; `test-paths` runs it against the
 * implementation.
 */
export interface PathPlan {
  /** Readable and unique: `RESOLVING · begin read · read ok ⇒ READING`. */
  name: string;
  /** `shortest`: to a configuration; `coverage`: added to reach a transition or guard outcome; `simple`: bounded depth. */
  strategy: 'shortest' | 'coverage' | 'simple';
  /** The session settings the path starts with. */
  config: SafetyConfig;
  /** The configuration the path ends in. */
  target: string;
  steps: PlanStep[];
}

export type PathStrategy = 'shortest' | 'simple';

function expectationOf(edge: GraphEdge): StepExpectation {
  const c = edge.after.context;
  const expect: StepExpectation = {
    state: edge.after.value as SessionState,
    wroteThisEpisode: c.wroteThisEpisode,
    readAfterWrite: c.readAfterWrite,
    decision: edge.decision,
  };
  if (edge.reasonCode === undefined) return expect;
  // Shadow mode: what enforcement would refuse is allowed, and said so.
  if (c.config.mode === 'shadow') return { ...expect, decision: 'allowed', wouldBlock: edge.reasonCode };
  return { ...expect, reasonCode: edge.reasonCode };
}

/** A plan from a list of edges starting at an initial configuration. */
function planOf(graph: MachineGraph, edges: GraphEdge[], strategy: PathPlan['strategy'], start: string): PathPlan {
  const first = graph.configurations.get(start)!;
  return {
    name: pathName(edges, { state: first.state, config: first.config }),
    strategy,
    config: first.config,
    target: edges.at(-1)?.to ?? start,
    steps: edges.map((edge) => ({
      label: edge.label,
      configuration: edge.to,
      move: edge.move,
      expect: expectationOf(edge),
    })),
  };
}

/**
 * Shortest paths to every configuration, then, for each transition, guard
 * outcome or move-in-a-state those leave out, a shortest path through an edge that covers it
 * (blocked checks and no-ops are self-loops, which no path *to* a
 * configuration takes). The paths are the generic generator's ({@link coveringPaths}).
 *
 * @example
 * const plans = shortestPlans(exploreMachine(safetyMachine));
 * plans[1].name; // 'RESOLVING · check resolve ⇒ RESOLVING, resolve allowed' (or similar)
 */
export function shortestPlans(graph: MachineGraph): PathPlan[] {
  if (!definitionOf(graph.machine))
    throw new Error('the machine was not built by createSafetyMachine: no definition to cover');
  const perEdge = edgeCoverageItems({ ...graph, definition: definitionOf(graph.machine)! }, safetyMachineKind);
  return coveringPaths(graph, perEdge).map((p) => planOf(graph, p.edges, p.strategy, p.start));
}

/**
 * Simple paths (no configuration visited twice) of `depth` steps from each
 * initial configuration, or shorter where every move leads back into the path.
 *
 * @example
 * simplePlans(exploreMachine(safetyMachine), 3).length;
 */
export function simplePlans(graph: MachineGraph, depth: number): PathPlan[] {
  const plans: PathPlan[] = [];
  const path: GraphEdge[] = [];
  const onPath = new Set<string>();
  const walk = (key: string, start: string) => {
    onPath.add(key);
    let extended = false;
    if (path.length < depth) {
      for (const index of graph.outgoing.get(key) ?? []) {
        const edge = graph.edges[index]!;
        if (onPath.has(edge.to)) continue;
        extended = true;
        path.push(edge);
        walk(edge.to, start);
        path.pop();
      }
    }
    if (!extended && path.length > 0) plans.push(planOf(graph, [...path], 'simple', start));
    onPath.delete(key);
  };
  for (const start of graph.initial) walk(start, start);
  return plans;
}

/**
 * A plan from move labels, followed through the graph from the initial
 * configuration of a session config: a scenario written by a person, checked
 * against the graph, named like the generated ones.
 *
 * @throws {Error} naming the first label that is not a move of the configuration reached.
 * @example
 * planFromLabels(graph, ['onToolSuccess resolve', 'begin write', 'begin read', 'write ok', 'read ok (began before the write)', 'final answer']).name;
 * // 'RESOLVING · onToolSuccess resolve · ... ⇒ VERIFYING, final answer refused (FINAL_ANSWER_UNVERIFIED)'
 */
export function planFromLabels(graph: MachineGraph, labels: string[], configIndex = 0): PathPlan {
  const start = graph.initial[configIndex];
  if (start === undefined) throw new Error(`no initial configuration #${configIndex}`);
  const edges: GraphEdge[] = [];
  let at = start;
  for (const label of labels) {
    const edge = (graph.outgoing.get(at) ?? []).map((i) => graph.edges[i]!).find((e) => e.label === label);
    if (!edge) {
      const possible = (graph.outgoing.get(at) ?? []).map((i) => graph.edges[i]!.label);
      throw new Error(`"${label}" is not a move in ${at} (possible: ${possible.join(', ')})`);
    }
    edges.push(edge);
    at = edge.to;
  }
  return planOf(graph, edges, 'shortest', start);
}

/**
 * Plans by strategy: shortest paths, or every simple path of `depth` steps.
 *
 * @example
 * generatePlans(exploreMachine(safetyMachine), 'simple', 3).length;
 */
export function generatePlans(graph: MachineGraph, strategy: PathStrategy, depth = 3): PathPlan[] {
  return strategy === 'shortest' ? shortestPlans(graph) : simplePlans(graph, depth);
}
