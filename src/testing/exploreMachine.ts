import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import type { AnyStateMachine } from 'xstate';
import type { SafetyMachine, SafetyMachineInput } from '../safety/createSafetyMachine.js';
import type { MachineDefinition } from '../core/MachineDefinition.js';
import {
  DEFAULT_CONFIG,
  RECOVERY_TTL_MS,
  type InFlightCall,
  type SafetyConfig,
  type SafetyContext,
} from '../safety/SafetyContext.js';
import type { SafetyEvent } from '../safety/SafetyEvent.js';
import type { BlockReasonCode, SessionState } from '../safety/toolKind.js';
import {
  callShapes,
  moveLabel,
  moveSetOf,
  movesFrom,
  moveToEvent,
  shapeOf,
  type Move,
  type MoveOptions,
} from './Move.js';
import { exploreKind, kindPathTo, type KindExploration, type KindStep } from './exploreKind.js';
import { decisionOf, stepOf, type SafetySnapshotLike, type Step, type StepDecision } from './Step.js';

/** One reachable configuration: the control-relevant part of a snapshot. */
export interface Configuration {
  /** The serialised control-relevant part: `VERIFYING wrote blocks=1+ calls=read@stale`. */
  key: string;
  state: SessionState;
  /** A concrete snapshot with this key: the first one exploration reached. */
  snapshot: SafetySnapshotLike;
  config: SafetyConfig;
  /** The machine's input the configuration was reached from: `{ config }`. */
  input: SafetyMachineInput;
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
  /** The machine steps of the edge, as the generic walkers read them (see {@link stepsOfEdge}). */
  steps: KindStep<SafetyContext, SafetyEvent>[];
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
  /** States with no transitions in the definition (none for the safety machine). */
  finalStates: string[];
  definition?: MachineDefinition;
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

const EXPLORE_OPTION_KEYS = keysOf<ExploreOptions>({
  configs: true,
  counterCap: true,
  onStep: true,
  maxCallsPerKind: true,
  maxCallsInFlight: true,
});

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
  { ...DEFAULT_CONFIG, targets: 'bind', profile: 'coding' },
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
  if (c.userWords.length > 0) parts.push(`words=${c.userWords.join('|')}`);
  // The moves approve one call per reason code, so the code tells approvals apart.
  if (c.approvals.length > 0)
    parts.push(
      `approved=${c.approvals
        .map((a) => a.reasonCode)
        .sort()
        .join(',')}`,
    );
  // The coding profile: the files edited and unchecked, and for each call in flight which of them
  // it began after (a guard compares a file's epoch with a call's and nothing else: a call begun
  // now began after every one).
  if (c.editedFiles.length > 0) {
    parts.push(
      `edited=${c.editedFiles
        .map((f) => f.target)
        .sort()
        .join(',')}`,
    );
    const calls = [...Object.values(c.calls), ...Object.values(c.shadowCalls)].filter((k) => k.epoch < c.writeEpoch);
    const after = (k: InFlightCall) =>
      c.editedFiles
        .filter((f) => f.epoch <= k.epoch)
        .map((f) => f.target)
        .sort()
        .join('+');
    if (calls.length > 0)
      parts.push(
        `began=${calls
          .map((k) => `${shapeOf(c, k)}>${after(k) || 'none'}`)
          .sort()
          .join(',')}`,
      );
  }
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
 * How the safety machine is explored, as data for the generic explorer ({@link exploreKind}): its
 * session configs as inputs, its moves (calls of each kind, outcomes, checks, resets) as event
 * classes, its control-relevant serialisation as key, and `RUN_UNGATED` after a call the gate
 * blocks in shadow mode.
 *
 * @example
 * const graph = exploreKind(safetyMachine, safetyExploration());
 */
export function safetyExploration(
  options: ExploreOptions = {},
): KindExploration<SafetyContext, SafetyEvent, Move, SafetyMachineInput> {
  const counterCap = options.counterCap ?? 1;
  return {
    inputs: (options.configs ?? EXPLORED_CONFIGS).map((config) => ({ config })),
    key: (snapshot) => serializeConfiguration(snapshot as SafetySnapshotLike, counterCap),
    moves: (snapshot) =>
      movesFrom(snapshot.context, options).flatMap((move) => {
        // The graph is about control, not time: every event reads the same clock.
        const event = moveToEvent(move, snapshot.context, 0);
        return event ? [{ label: moveLabel(move), event, move }] : [];
      }),
    followUp: ({ before, event, after }) =>
      event.type === 'BEGIN_CALL' &&
      before.context.config.mode === 'shadow' &&
      decisionOf(before as SafetySnapshotLike, event, after as SafetySnapshotLike) === 'blocked'
        ? { ...event, type: 'RUN_UNGATED' }
        : undefined,
  };
}

/**
 * Explores every configuration the machine can reach under the move
 * generators, breadth-first from the initial snapshot of every session config
 * at once (so the first violation found is one of the closest to a start,
 * whichever config shows it). The graph is complete (no depth limit); it is
 * finite because snapshots are serialised to their control-relevant part.
 * In shadow mode, a call the gate blocks is followed by `RUN_UNGATED`, as the
 * session sends it: one edge, two machine steps. The walk is the generic
 * explorer's ({@link exploreKind}) with {@link safetyExploration}.
 *
 * @example
 * const graph = exploreMachine(safetyMachine);
 * console.log(graph.configurations.size, graph.edges.length);
 */
export function exploreMachine(machine: SafetyMachine, options: ExploreOptions = {}): MachineGraph {
  refuseUnknownOptions('exploreMachine', options, EXPLORE_OPTION_KEYS);
  const onStep = options.onStep;
  const graph = exploreKind(machine as AnyStateMachine, safetyExploration(options), {
    ...(onStep && { onStep: (s) => onStep(s.before as SafetySnapshotLike, s.event, s.after as SafetySnapshotLike) }),
  });
  const configurations = new Map<string, Configuration>();
  for (const [key, c] of graph.configurations)
    configurations.set(key, {
      key,
      state: c.state as SessionState,
      snapshot: c.snapshot as SafetySnapshotLike,
      config: c.input.config!,
      input: c.input,
      depth: c.depth,
      ...(c.parent !== undefined && { parent: c.parent }),
    });
  const edges = graph.edges.map((e): GraphEdge => {
    const first = e.steps[0]!;
    const decision = decisionOf(first.before as SafetySnapshotLike, first.event, first.after as SafetySnapshotLike);
    const mid = first.after as SafetySnapshotLike;
    const ungated = e.steps.length > 1 ? { mid, event: e.steps[1]!.event } : undefined;
    return {
      index: e.index,
      from: e.from,
      to: e.to,
      move: e.move,
      label: e.label,
      event: e.event,
      before: e.before as SafetySnapshotLike,
      after: e.after as SafetySnapshotLike,
      steps: e.steps as GraphEdge['steps'],
      decision,
      ...(decision === 'blocked' && mid.context.lastBlock && { reasonCode: mid.context.lastBlock.reasonCode }),
      ...(ungated && { ungated }),
    };
  });
  return {
    machine,
    configurations,
    edges,
    outgoing: graph.outgoing,
    initial: graph.initial,
    finalStates: graph.finalStates,
    ...(graph.definition && { definition: graph.definition }),
    ms: graph.ms,
  };
}

/**
 * The edges of a shortest path from an initial configuration to `key` (empty for an initial one).
 *
 * @example
 * shortestPathTo(graph, 'WRITING calls=write@now').map((e) => e.label); // ['onToolSuccess resolve', 'begin write']
 */
export function shortestPathTo(graph: MachineGraph, key: string): GraphEdge[] {
  return kindPathTo(graph, key);
}
