import { createEmptyActor, type AnyStateMachine } from 'xstate';
import { definitionOf } from '../core/createMachineOfKind.js';
import type { MachineDefinition } from '../core/MachineDefinition.js';

/*
 * The explorer of any machine kind: breadth-first over every configuration a
 * machine reaches under the kind's event classes (its moves), from one initial
 * snapshot per input. What is kind-specific is data: which events to send in
 * a snapshot, what makes two snapshots the same configuration, and whether an
 * event is followed by another (the safety machine's shadow mode). The safety
 * machine's `exploreMachine`, Patrol's `explorePatrolMachine` and any other
 * kind's exploration run through here.
 */

/** A snapshot as the walkers read it: its state value and its context. */
export interface KindSnapshot<C = unknown> {
  value: unknown;
  context: C;
}

/** One machine step: the snapshot before, the event, the snapshot after. */
export interface KindStep<C = unknown, E = { type: string }> {
  before: KindSnapshot<C>;
  event: E;
  after: KindSnapshot<C>;
}

/** One move of a kind's event classes: what exploration sends, with a label for paths and reports. */
export interface KindMove<E = { type: string }, M = unknown> {
  label: string;
  event: E;
  /** What the kind knows the move as (the safety machine's `Move`); the event itself by default. */
  move?: M;
}

/** How a machine kind is explored: its event classes and what tells configurations apart. */
export interface KindExploration<C = unknown, E extends { type: string } = { type: string }, M = unknown, I = unknown> {
  /** One initial snapshot is explored per input. Default: one, with no input. */
  inputs?: readonly I[];
  /** The moves to try in a snapshot (each event class with the values its guards tell apart). */
  moves(snapshot: KindSnapshot<C>): readonly KindMove<E, M>[];
  /** The configuration a snapshot stands for: snapshots with the same key are one node. Default: value and context as JSON. */
  key?(snapshot: KindSnapshot<C>): string;
  /** An event to send right after a step, as part of the same edge (the safety machine's `RUN_UNGATED` in shadow mode). */
  followUp?(step: KindStep<C, E>): E | undefined;
  /** Keep edges whose event changes nothing at all (same state, same context). Default true. */
  noOps?: boolean;
}

/** A reachable configuration. */
export interface KindConfiguration<C = unknown, I = unknown> {
  key: string;
  /** The state value, as a string. */
  state: string;
  /** A concrete snapshot with this key: the first one exploration reached. */
  snapshot: KindSnapshot<C>;
  /** The input of the initial snapshot the configuration was reached from. */
  input: I;
  depth: number;
  /** Index in `edges` of the last step of a shortest path here; absent for an initial configuration. */
  parent?: number;
}

/** One edge: a move from a configuration, its machine steps, and where it leads. */
export interface KindEdge<C = unknown, E = { type: string }, M = unknown> {
  index: number;
  from: string;
  to: string;
  label: string;
  move: M;
  event: E;
  before: KindSnapshot<C>;
  after: KindSnapshot<C>;
  /** The machine steps: one, or two when the kind follows the event up. */
  steps: KindStep<C, E>[];
}

/** The explored graph of a machine. */
export interface KindGraph<C = unknown, E = { type: string }, M = unknown, I = unknown> {
  machine: AnyStateMachine;
  /** The definition the machine was built from, when it was built from JSON. */
  definition?: MachineDefinition;
  configurations: Map<string, KindConfiguration<C, I>>;
  edges: KindEdge<C, E, M>[];
  outgoing: Map<string, number[]>;
  /** Keys of the initial configurations, one per input. */
  initial: string[];
  /** States with no transitions in the definition: where a run ends. */
  finalStates: string[];
  ms: number;
}

/** Options of {@link exploreKind}. */
export interface ExploreKindOptions<C, E, I = unknown> {
  /** Sees every step as exploration takes it, with the input it was explored under; throwing stops the exploration (how mutants stop early). */
  onStep?: (step: KindStep<C, E>, input: I) => void;
}

/**
 * Explores every configuration a machine reaches under a kind's exploration. The graph is
 * complete (no depth limit); the kind's key keeps it finite.
 *
 * @example
 * const graph = exploreKind(doorMachine, { moves: () => [{ label: 'open', event: { type: 'OPEN' } }] });
 * graph.configurations.size;
 */
export function exploreKind<C, E extends { type: string }, M = E, I = undefined>(
  machine: AnyStateMachine,
  exploration: KindExploration<C, E, M, I>,
  options: ExploreKindOptions<C, E, I> = {},
): KindGraph<C, E, M, I> {
  const started = performance.now();
  // The scope XState's graph tools use: transitions are pure, no actor runs.
  const self = createEmptyActor();
  const scope = {
    self,
    logger: () => {},
    id: '',
    sessionId: 'explore',
    defer: () => {},
    system: self.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as never;
  const next = (s: KindSnapshot<C>, e: E) => machine.transition(s as never, e, scope) as unknown as KindSnapshot<C>;
  const key = exploration.key ?? ((s: KindSnapshot<C>) => JSON.stringify([s.value, s.context]));
  const noOps = exploration.noOps ?? true;
  const changesNothing = (a: KindSnapshot<C>, b: KindSnapshot<C>) =>
    a === b || (a.value === b.value && JSON.stringify(a.context) === JSON.stringify(b.context));
  const configurations = new Map<string, KindConfiguration<C, I>>();
  const edges: KindEdge<C, E, M>[] = [];
  const outgoing = new Map<string, number[]>();
  const initial: string[] = [];
  const queue: string[] = [];
  const add = (snapshot: KindSnapshot<C>, input: I, depth: number, parent?: number) => {
    const k = key(snapshot);
    if (configurations.has(k)) return k;
    configurations.set(k, {
      key: k,
      state: String(snapshot.value),
      snapshot,
      input,
      depth,
      ...(parent !== undefined && { parent }),
    });
    queue.push(k);
    return k;
  };
  for (const input of exploration.inputs ?? [undefined as I])
    initial.push(add(machine.getInitialSnapshot(scope, input) as unknown as KindSnapshot<C>, input, 0));
  for (let i = 0; i < queue.length; i++) {
    const from = queue[i]!;
    const source = configurations.get(from)!;
    const before = source.snapshot;
    const list: number[] = [];
    for (const m of exploration.moves(before)) {
      const first: KindStep<C, E> = { before, event: m.event, after: next(before, m.event) };
      options.onStep?.(first, source.input);
      const steps = [first];
      const more = exploration.followUp?.(first);
      if (more !== undefined) {
        const second: KindStep<C, E> = { before: first.after, event: more, after: next(first.after, more) };
        options.onStep?.(second, source.input);
        steps.push(second);
      }
      const after = steps.at(-1)!.after;
      if (!noOps && changesNothing(before, after)) continue;
      const edge: KindEdge<C, E, M> = {
        index: edges.length,
        from,
        to: '',
        label: m.label,
        move: (m.move ?? m.event) as M,
        event: m.event,
        before,
        after,
        steps,
      };
      edges.push(edge);
      list.push(edge.index);
      edge.to = add(after, source.input, source.depth + 1, edge.index);
    }
    outgoing.set(from, list);
  }
  const definition = definitionOf(machine);
  const finalStates = definition
    ? Object.entries(definition.states)
        .filter(([, state]) => Object.keys(state.on ?? {}).length === 0)
        .map(([name]) => name)
    : [];
  return {
    machine,
    ...(definition && { definition }),
    configurations,
    edges,
    outgoing,
    initial,
    finalStates,
    ms: performance.now() - started,
  };
}

/**
 * The edges of a shortest path from an initial configuration to `key` (empty for an initial one).
 *
 * @example
 * kindPathTo(graph, key).map((e) => e.label);
 */
export function kindPathTo<Edge extends { from: string }>(
  graph: { configurations: ReadonlyMap<string, { parent?: number }>; edges: readonly Edge[] },
  key: string,
): Edge[] {
  const path: Edge[] = [];
  let at = graph.configurations.get(key);
  while (at?.parent !== undefined) {
    const edge = graph.edges[at.parent]!;
    path.push(edge);
    at = graph.configurations.get(edge.from);
  }
  return path.reverse();
}
