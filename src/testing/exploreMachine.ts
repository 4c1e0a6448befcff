import { createEmptyActor, type AnyStateMachine } from 'xstate';
import type { SafetyMachine } from '../createSafetyMachine.js';
import { DEFAULT_CONFIG, RECOVERY_TTL_MS, type SafetyConfig } from '../SafetyContext.js';
import type { SafetyEvent } from '../SafetyEvent.js';
import type { BlockReasonCode, SessionState } from '../toolKind.js';
import { callShapes, moveLabel, moveSetOf, movesFrom, moveToEvent, type Move, type MoveOptions } from './Move.js';
import { decisionOf, stepOf, type SafetySnapshotLike, type Step, type StepDecision } from './Step.js';

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
  /**
   * Shadow mode: the gate blocked the call and it ran anyway. The session then sends
   * `RUN_UNGATED`: `mid` is the snapshot after the block, `after` the one after that event.
   */
  ungated?: { mid: SafetySnapshotLike; event: SafetyEvent };
}

/**
 * The machine steps of an edge: one, or two for a call that ran ungated (the block, then `RUN_UNGATED`).
 *
 * @example
 * for (const step of stepsOfEdge(edge)) invariantById('I1')!.check(step);
 */
export function stepsOfEdge(edge: Pick<GraphEdge, 'before' | 'event' | 'after' | 'ungated'>): Step[] {
  if (!edge.ungated) return [stepOf(edge.before, edge.event, edge.after)];
  return [stepOf(edge.before, edge.event, edge.ungated.mid), stepOf(edge.ungated.mid, edge.ungated.event, edge.after)];
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

/**
 * The session configs explored by default: the seed's settings; failed writes needing
 * verification (that guard's both outcomes); target binding; the detection and investigation
 * profiles; shadow mode. Each explores only the move variants its settings tell apart.
 */
export const EXPLORED_CONFIGS: readonly SafetyConfig[] = [
  DEFAULT_CONFIG,
  { ...DEFAULT_CONFIG, failedWriteRequiresVerification: true },
  { ...DEFAULT_CONFIG, targets: 'bind' },
  { ...DEFAULT_CONFIG, profile: 'detection' },
  { ...DEFAULT_CONFIG, profile: 'investigation' },
  { ...DEFAULT_CONFIG, mode: 'shadow' },
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
  // Only where recoveries are tracked and checked by hand does exploration tell pending ones apart.
  if (c.pendingRecoveries.length > 0 && moveSetOf(c.config).recoveries) parts.push('recovering');
  if (c.validatedTargets.length > 0) parts.push(`validated=${[...c.validatedTargets].sort().join(',')}`);
  if (c.uncoveredTargets.length > 0) parts.push(`uncovered=${[...c.uncoveredTargets].sort().join(',')}`);
  const shapes = (ungated: boolean) =>
    [...callShapes(c, ungated)]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([shape, n]) => (n > 1 ? `${n}×${shape}` : shape));
  const calls = shapes(false);
  if (calls.length) parts.push(`calls=${calls.join(',')}`);
  const ungated = shapes(true);
  if (ungated.length) parts.push(`ungated=${ungated.join(',')}`);
  if (c.config.failedWriteRequiresVerification) parts.push('[failed writes verified]');
  if (c.config.targets === 'bind') parts.push('[targets bound]');
  if (c.config.profile !== undefined && c.config.profile !== 'interactive') parts.push(`[${c.config.profile}]`);
  if (c.config.mode === 'shadow') parts.push('[shadow]');
  // Keeps configurations of sessions with other settings apart when several are explored.
  if (c.config.recoveryTtlMs !== RECOVERY_TTL_MS) parts.push(`[recovery ttl ${c.config.recoveryTtlMs} ms]`);
  return parts.join(' ');
}

/**
 * Explores every configuration the machine can reach under the move
 * generators, breadth-first from the initial snapshot of every session config
 * at once (so the first violation found is one of the closest to a start,
 * whichever config shows it). The graph is complete (no depth limit); it is
 * finite because snapshots are serialised to their control-relevant part.
 * In shadow mode, a call the gate blocks is followed by `RUN_UNGATED`, as the
 * session sends it: one edge, two machine steps.
 *
 * @example
 * const graph = exploreMachine(safetyMachine);
 * console.log(graph.configurations.size, graph.edges.length);
 */
export function exploreMachine(machine: SafetyMachine, options: ExploreOptions = {}): MachineGraph {
  const started = performance.now();
  const counterCap = options.counterCap ?? 1;
  const logic = machine as AnyStateMachine;
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
  const next = (s: SafetySnapshotLike, e: SafetyEvent) =>
    logic.transition(s as never, e, scope) as unknown as SafetySnapshotLike;
  const configurations = new Map<string, Configuration>();
  const edges: GraphEdge[] = [];
  const outgoing = new Map<string, number[]>();
  const initial: string[] = [];
  const queue: string[] = [];
  const add = (snapshot: SafetySnapshotLike, config: SafetyConfig, depth: number, parent?: number) => {
    const key = serializeConfiguration(snapshot, counterCap);
    if (configurations.has(key)) return key;
    configurations.set(key, {
      key,
      state: snapshot.value as SessionState,
      snapshot,
      config,
      depth,
      ...(parent !== undefined && { parent }),
    });
    queue.push(key);
    return key;
  };
  for (const config of options.configs ?? EXPLORED_CONFIGS)
    initial.push(add(logic.getInitialSnapshot(scope, { config }) as unknown as SafetySnapshotLike, config, 0));
  for (let i = 0; i < queue.length; i++) {
    const from = queue[i]!;
    const source = configurations.get(from)!;
    const before = source.snapshot;
    const context = before.context;
    const list: number[] = [];
    for (const move of movesFrom(context, options)) {
      // The graph is about control, not time: every event reads the same clock.
      const event = moveToEvent(move, context, 0);
      if (!event) continue;
      let after = next(before, event);
      const decision = decisionOf(before, event, after);
      let ungated: GraphEdge['ungated'];
      if (decision === 'blocked' && event.type === 'BEGIN_CALL' && context.config.mode === 'shadow') {
        const run: SafetyEvent = { ...event, type: 'RUN_UNGATED' };
        options.onStep?.(before, event, after);
        ungated = { mid: after, event: run };
        after = next(after, run);
        options.onStep?.(ungated.mid, run, after);
      } else options.onStep?.(before, event, after);
      const edge: GraphEdge = {
        index: edges.length,
        from,
        to: '',
        move,
        label: moveLabel(move),
        event,
        before,
        after,
        decision,
        ...(decision === 'blocked' &&
          (ungated?.mid ?? after).context.lastBlock && {
            reasonCode: (ungated?.mid ?? after).context.lastBlock!.reasonCode,
          }),
        ...(ungated && { ungated }),
      };
      edges.push(edge);
      list.push(edge.index);
      edge.to = add(after, source.config, source.depth + 1, edge.index);
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
