import type { AnyStateMachine } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import type { SafetyMachine } from '../createSafetyMachine.js';
import { DEFAULT_CONFIG, RECOVERY_TTL_MS, type SafetyConfig } from '../SafetyContext.js';
import type { SafetyEvent } from '../SafetyEvent.js';
import type { BlockReasonCode, SessionState } from '../toolKind.js';
import { callShapes, moveLabel, movesFrom, moveToEvent, type Move, type MoveOptions } from './Move.js';
import { decisionOf, type SafetySnapshotLike, type StepDecision } from './Step.js';

/** One reachable configuration: the control-relevant part of a snapshot. */
export interface Configuration {
  /** The serialised control-relevant part: `VERIFYING wrote blocks=1+ calls=read@stale`. */
  key: string;
  state: SessionState;
  /** A concrete snapshot with this key: the first one exploration reached. */
  snapshot: SafetySnapshotLike;
  config: SafetyConfig;
  /** Steps on a shortest path from an initial configuration. */
  depth: number;
  /** Index in `edges` of the last step of a shortest path here; undefined for an initial configuration. */
  parent?: number;
}

/** One edge: a move from a configuration and where it leads. */
export interface GraphEdge {
  index: number;
  from: string;
  to: string;
  move: Move;
  label: string;
  event: SafetyEvent;
  before: SafetySnapshotLike;
  after: SafetySnapshotLike;
  decision: StepDecision;
  reasonCode?: BlockReasonCode;
}

export interface MachineGraph {
  machine: SafetyMachine;
  /** Configurations in breadth-first order from the initial ones. */
  configurations: Map<string, Configuration>;
  edges: GraphEdge[];
  /** Outgoing edge indexes by configuration key. */
  outgoing: Map<string, number[]>;
  /** Keys of the initial configurations, one per session config explored. */
  initial: string[];
  /** Wall time of the exploration, milliseconds. */
  ms: number;
}

export interface ExploreOptions extends MoveOptions {
  /**
   * Session configs to start from. Default: the default config, and the one
   * where failed writes need verification (so that guard's both outcomes are reached).
   */
  configs?: SafetyConfig[];
  /** consecutiveVerifyBlocks is kept up to this value, then shown as `N+`. Default 1: no guard can read it (the guard registry has none that does), so `1+` stands for any count and the block after any number of blocks is on the graph. */
  counterCap?: number;
  /**
   * Sees every edge as exploration takes it, breadth-first; throwing stops the
   * exploration (how `mutate` stops at a mutant's first violation).
   */
  onStep?: (before: SafetySnapshotLike, event: SafetyEvent, after: SafetySnapshotLike) => void;
}

/** The session configs explored by default. */
export const EXPLORED_CONFIGS: readonly SafetyConfig[] = [
  DEFAULT_CONFIG,
  { ...DEFAULT_CONFIG, failedWriteRequiresVerification: true },
];

/**
 * Serialises a snapshot to its control-relevant part: the state, the flags,
 * the shape of the calls in flight (kind and whether each began at the current
 * write epoch), the verify-block counter capped, and whether recoveries are
 * pending. Tool names, clock readings, call ids and the epoch's absolute value
 * are dropped: no guard can tell two snapshots apart on them, which is what
 * keeps the reachable graph finite.
 *
 * @example
 * serializeConfiguration(snapshot); // 'VERIFYING wrote blocks=1+ calls=read@stale'
 */
export function serializeConfiguration(snapshot: SafetySnapshotLike, counterCap = 1): string {
  const c = snapshot.context;
  const parts = [String(snapshot.value)];
  if (c.wroteThisEpisode) parts.push('wrote');
  if (c.readAfterWrite) parts.push('readAfterWrite');
  if (c.consecutiveVerifyBlocks > 0)
    parts.push(
      `blocks=${c.consecutiveVerifyBlocks >= counterCap ? `${counterCap}+` : String(c.consecutiveVerifyBlocks)}`,
    );
  if (c.pendingRecoveries.length > 0) parts.push('recovering');
  const shapes = [...callShapes(c)]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([shape, n]) => (n > 1 ? `${n}×${shape}` : shape));
  if (shapes.length) parts.push(`calls=${shapes.join(',')}`);
  if (c.config.failedWriteRequiresVerification) parts.push('[failed writes verified]');
  // Keeps configurations of sessions with other settings apart when several are explored.
  if (c.config.recoveryTtlMs !== RECOVERY_TTL_MS) parts.push(`[recovery ttl ${c.config.recoveryTtlMs} ms]`);
  return parts.join(' ');
}

/**
 * Explores every configuration the machine can reach under the move
 * generators, with XState's `getAdjacencyMap`, for each session config.
 * The graph is complete (no depth limit); it is finite because snapshots are
 * serialised to their control-relevant part.
 *
 * @example
 * const graph = exploreMachine(safetyMachine);
 * console.log(graph.configurations.size, graph.edges.length);
 */
export function exploreMachine(machine: SafetyMachine, options: ExploreOptions = {}): MachineGraph {
  const started = performance.now();
  const counterCap = options.counterCap ?? 1;
  const keys = new WeakMap<SafetySnapshotLike, string>();
  const serialize = (s: SafetySnapshotLike) => {
    let key = keys.get(s);
    if (key === undefined) keys.set(s, (key = serializeConfiguration(s, counterCap)));
    return key;
  };
  const moveOf = new WeakMap<object, Move>();
  const configurations = new Map<string, Configuration>();
  const edges: GraphEdge[] = [];
  const outgoing = new Map<string, number[]>();
  const initial: string[] = [];
  const adjacencies: Array<{ config: SafetyConfig; adj: ReturnType<typeof explore> }> = [];

  function explore(config: SafetyConfig) {
    return getAdjacencyMap(machine as AnyStateMachine, {
      input: { config },
      serializeState: (s, event, prev) => {
        if (options.onStep && event && prev)
          options.onStep(prev as SafetySnapshotLike, event as SafetyEvent, s as SafetySnapshotLike);
        return serialize(s as SafetySnapshotLike);
      },
      serializeEvent: (e) => moveLabel(moveOf.get(e)!),
      events: (s) => {
        const context = (s as SafetySnapshotLike).context;
        const events: SafetyEvent[] = [];
        for (const move of movesFrom(context, options)) {
          // The graph is about control, not time: every event reads the same clock.
          const event = moveToEvent(move, context, 0);
          if (!event) continue;
          moveOf.set(event, move);
          events.push(event);
        }
        return events as never;
      },
    });
  }

  for (const config of options.configs ?? EXPLORED_CONFIGS) adjacencies.push({ config, adj: explore(config) });

  // Merge the per-config maps into one graph and lay it out breadth-first from the initial configurations.
  const bySource = new Map<string, { snapshot: SafetySnapshotLike; config: SafetyConfig; transitions: object }>();
  for (const { config, adj } of adjacencies) {
    let first = true;
    for (const [key, value] of Object.entries(adj)) {
      // getAdjacencyMap inserts the start snapshot first (keys are never integer-like, so order holds).
      if (first) initial.push(key);
      first = false;
      bySource.set(key, { snapshot: value.state as SafetySnapshotLike, config, transitions: value.transitions });
    }
  }
  const queue: string[] = [];
  for (const key of initial) {
    const source = bySource.get(key)!;
    configurations.set(key, {
      key,
      state: source.snapshot.value as SessionState,
      snapshot: source.snapshot,
      config: source.config,
      depth: 0,
    });
    queue.push(key);
  }
  for (let i = 0; i < queue.length; i++) {
    const from = queue[i]!;
    const source = bySource.get(from)!;
    const list: number[] = [];
    for (const t of Object.values(source.transitions) as Array<{ event: SafetyEvent; state: SafetySnapshotLike }>) {
      const to = serialize(t.state);
      const decision = decisionOf(source.snapshot, t.event, t.state);
      const edge: GraphEdge = {
        index: edges.length,
        from,
        to,
        move: moveOf.get(t.event)!,
        label: moveLabel(moveOf.get(t.event)!),
        event: t.event,
        before: source.snapshot,
        after: t.state,
        decision,
        ...(decision === 'blocked' &&
          t.state.context.lastBlock && { reasonCode: t.state.context.lastBlock.reasonCode }),
      };
      edges.push(edge);
      list.push(edge.index);
      if (!configurations.has(to)) {
        const target = bySource.get(to)!;
        configurations.set(to, {
          key: to,
          state: target.snapshot.value as SessionState,
          snapshot: target.snapshot,
          config: target.config,
          depth: configurations.get(from)!.depth + 1,
          parent: edge.index,
        });
        queue.push(to);
      }
    }
    outgoing.set(from, list);
  }
  return { machine, configurations, edges, outgoing, initial, ms: performance.now() - started };
}

/**
 * The edges of a shortest path from an initial configuration to `key` (empty for an initial one).
 *
 * @example
 * shortestPathTo(graph, 'WRITING calls=write@now').map((e) => e.label); // ['onToolSuccess resolve', 'begin write']
 */
export function shortestPathTo(graph: MachineGraph, key: string): GraphEdge[] {
  const path: GraphEdge[] = [];
  let at = graph.configurations.get(key);
  while (at?.parent !== undefined) {
    const edge = graph.edges[at.parent]!;
    path.push(edge);
    at = graph.configurations.get(edge.from);
  }
  return path.reverse();
}
