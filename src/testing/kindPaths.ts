import { createActor, type AnyStateMachine } from 'xstate';
import type { AnyMachineKind } from '../core/MachineKind.js';
import { resolveTransition, type TransitionInfo } from './coverage.js';
import { kindPathTo, type KindEdge, type KindGraph, type KindStep } from './exploreKind.js';

/*
 * The path generator of any machine kind: a shortest path to every
 * configuration of the explored graph, then one through each edge that
 * covers something those miss (a state, a move in a state, a transition of
 * the JSON, a guard outcome). The safety machine's plans (`shortestPlans`)
 * choose their paths here too, and add what a session must show at each step.
 */

/** Graph edges the path generator reads. */
interface PathEdge {
  index: number;
  from: string;
  to: string;
  label: string;
  before: { value: unknown };
  after: { value: unknown };
  steps: readonly KindStep<unknown, { type: string }>[];
}

/** What the path generator reads of a graph. */
interface PathGraph<Edge extends PathEdge> {
  configurations: ReadonlyMap<string, { parent?: number }>;
  edges: readonly Edge[];
}

/**
 * What each edge covers: its states, its move in its state, the transition of the JSON each of
 * its steps takes and the guard outcomes it sees (with the kind's guards).
 *
 * @example
 * edgeCoverageItems(graph, safetyMachineKind)[0]; // ['state RESOLVING', 'state RESOLVING', 'move RESOLVING · ...', ...]
 */
export function edgeCoverageItems(
  graph: PathGraph<PathEdge> & { definition?: KindGraph['definition'] },
  kind: AnyMachineKind,
): string[][] {
  const def = graph.definition;
  if (!def) throw new Error('the machine was not built from JSON: no definition to cover');
  // A graph has some 10^5 edges and a few hundred distinct items: each item's text is built once and
  // shared, which spares the garbage and lets `coveringPaths` compare them by reference.
  const stateItem = memo((value: string) => `state ${value}`);
  const moveItems = memo((state: string) => memo((label: string) => `move ${state} · ${label}`));
  const transitionItem = memo((t: TransitionInfo) => `transition ${t.id}`);
  const guardItems = memo((t: TransitionInfo) => [`guard ${t.id} ${t.guard}=false`, `guard ${t.id} ${t.guard}=true`]);
  return graph.edges.map((edge) => {
    // Besides the JSON's items, every move is tried at least once in every state it can be made in.
    const before = String(edge.before.value);
    const items = [stateItem(before), stateItem(String(edge.after.value)), moveItems(before)(edge.label)];
    for (const step of edge.steps) {
      const r = resolveTransition(
        def,
        String(step.before.value),
        step.before.context as object,
        step.event,
        undefined,
        kind,
      );
      if (r.taken) items.push(transitionItem(r.taken));
      for (const g of r.guards) items.push(guardItems(g.transition)[g.result ? 1 : 0]!);
    }
    return items;
  });
}

/** A function's results by argument, each computed once. */
function memo<K, V>(make: (key: K) => V): (key: K) => V {
  const made = new Map<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = make(key)));
    return value;
  };
}

/** One path chosen by {@link coveringPaths}. */
export interface CoveringPath<Edge> {
  strategy: 'shortest' | 'coverage';
  /** The initial configuration it starts from. */
  start: string;
  edges: Edge[];
}

/**
 * Shortest paths to every configuration, then, for each edge covering an item those leave out,
 * a shortest path through it (edges are in breadth-first order of their source, so the first
 * that covers an item is on a shortest path).
 *
 * @example
 * coveringPaths(graph, edgeCoverageItems(graph, kind)).length;
 */
export function coveringPaths<Edge extends PathEdge>(
  graph: PathGraph<Edge>,
  perEdge: string[][],
): CoveringPath<Edge>[] {
  const paths: CoveringPath<Edge>[] = [];
  const covered = new Set<string>();
  const cover = (edges: Edge[]) => {
    for (const e of edges) for (const item of perEdge[e.index]!) covered.add(item);
  };
  for (const [key, configuration] of graph.configurations) {
    if (configuration.parent === undefined) continue;
    const edges = kindPathTo(graph, key);
    cover(edges);
    paths.push({ strategy: 'shortest', start: edges[0]?.from ?? key, edges });
  }
  for (const edge of graph.edges) {
    if (perEdge[edge.index]!.every((item) => covered.has(item))) continue;
    const edges = [...kindPathTo(graph, edge.from), edge];
    cover(edges);
    paths.push({ strategy: 'coverage', start: edges[0]?.from ?? edge.from, edges });
  }
  return paths;
}

/** A path plan of any kind: the events from a new actor and the state after each. */
export interface KindPathPlan<E = { type: string }, I = unknown> {
  /** `START · label · label ⇒ END`. */
  name: string;
  strategy: 'shortest' | 'coverage';
  /** The actor's input. */
  input: I;
  /** The configuration the path ends in. */
  target: string;
  steps: Array<{ label: string; event: E; state: string }>;
}

/**
 * Path plans of any kind's explored graph: see {@link coveringPaths}.
 *
 * @example
 * const plans = kindPlans(exploreKind(machine, testing.exploration()), testing.kind);
 * plans.every((p) => runKindPlan(machine, p).ok); // true
 */
export function kindPlans<C, E extends { type: string }, M, I>(
  graph: KindGraph<C, E, M, I>,
  kind: AnyMachineKind,
): KindPathPlan<E, I>[] {
  return coveringPaths(graph as unknown as PathGraph<KindEdge<C, E, M>>, edgeCoverageItems(graph as never, kind)).map(
    ({ strategy, start, edges }) => {
      const first = graph.configurations.get(start)!;
      const steps = edges.flatMap((e) =>
        e.steps.map((s) => ({ label: e.label, event: s.event, state: String(s.after.value) })),
      );
      return {
        name:
          [first.state, ...edges.map((e) => e.label)].join(' · ') +
          ` ⇒ ${String(edges.at(-1)?.after.value ?? first.state)}`,
        strategy,
        input: first.input,
        target: edges.at(-1)?.to ?? start,
        steps,
      };
    },
  );
}

/**
 * Runs a plan on a fresh actor of the machine, comparing the state after each event.
 *
 * @example
 * runKindPlan(machine, plan); // { ok: true }
 */
export function runKindPlan(
  machine: AnyStateMachine,
  plan: KindPathPlan<{ type: string }, unknown>,
): { ok: true } | { ok: false; failure: string } {
  const actor = createActor(machine, plan.input === undefined ? {} : { input: plan.input }).start();
  try {
    for (const [i, step] of plan.steps.entries()) {
      actor.send(step.event);
      const state = String(actor.getSnapshot().value);
      if (state !== step.state)
        return { ok: false, failure: `step ${i + 1} (${step.label}): expected ${step.state}, got ${state}` };
    }
    return { ok: true };
  } finally {
    actor.stop();
  }
}
