import type { AnyMachineKind } from '../core/MachineKind.js';
import type { KindExploration, KindGraph, KindStep } from './exploreKind.js';

/**
 * A rule every run of a machine kind keeps: over one step (checked on every edge of the explored
 * graph, stopping a mutant at its first violation), or over the whole graph (reachability,
 * counts along paths).
 */
export interface KindInvariant<S = KindStep, G = KindGraph> {
  id: string;
  name: string;
  sentence: string;
  /** `null` when the step keeps the rule; otherwise what went wrong, in one sentence. */
  checkStep?(step: S): string | null;
  /** Every violation on the graph, each one sentence. */
  checkGraph?(graph: G): string[];
}

/**
 * What the generic walkers (explorer, invariant checker, path generator, mutants, the
 * `check|paths|mutate` commands) need to test machines of one kind, besides the kind itself: its
 * event classes (how to explore it) and its invariants, as data.
 */
export interface MachineKindTesting<
  C = unknown,
  E extends { type: string } = { type: string },
  M = unknown,
  I = unknown,
  S = KindStep<C, E>,
> {
  kind: AnyMachineKind;
  /** The `id`s of the machine JSON files of this kind: how the commands pick the kind of a file. */
  machineIds: readonly string[];
  /** How to explore a machine of the kind. */
  exploration(): KindExploration<C, E, M, I>;
  /** The step the invariants read, from a machine step (the safety machine adds its decision). */
  step(step: KindStep<C, E>): S;
  invariants: readonly KindInvariant<S, KindGraph<C, E, M, I>>[];
  /** Mutants that change no behaviour, by mutant id, with the reason. */
  equivalentMutants?: Readonly<Record<string, string>>;
}

/** A {@link MachineKindTesting} of any kind: what the walkers take. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the walkers only pass values through
export type AnyMachineKindTesting = MachineKindTesting<any, any, any, any, any>;
