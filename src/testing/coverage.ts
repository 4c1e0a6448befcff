import type { MachineDefinition } from '../core/MachineDefinition.js';
import { indexMachine, refParams, type IndexedTransition } from '../core/MachineIndex.js';
import type { AnyMachineKind } from '../core/MachineKind.js';
import { guardsOf } from '../core/guardsOf.js';
import { safetyMachineKind } from '../safety/safetyMachineKind.js';

/*
 * Coverage is measured against the machine JSON itself: every state, every
 * transition (by its id in the machine index, `STATE.EVENT[i]`), and both
 * outcomes of every guarded transition. XState picks transitions child first,
 * then the root's `on`, and within a list the first whose guard passes;
 * `resolveTransition` replays that choice over the index's candidates so each
 * step can say which guards it evaluated and how (a test checks it picks the
 * transition XState's own `getTransitionData` picks, on every explored edge).
 */

/** A transition of the machine JSON, named by its id: `VERIFYING.CHECK_TOOL[0]`, `*.RESET[0]` for the root's. */
export type TransitionInfo = IndexedTransition;

/**
 * Every transition of a definition, states first (in JSON order), then the root's: the machine index's.
 *
 * @example
 * transitionsOf(safetyMachineDefinition)[0].id; // 'RESOLVING.CHECK_TOOL[0]'
 */
export function transitionsOf(def: MachineDefinition): TransitionInfo[] {
  return indexMachine(def).transitions;
}

/** Which transition a step took and how every guard it tried came out. */
export interface Resolution {
  /** The transition taken, or undefined when none applied (the event changed nothing). */
  taken?: TransitionInfo;
  guards: Array<{ transition: TransitionInfo; result: boolean }>;
}

/**
 * Replays XState's choice of transition for an event in a state, with the kind's guards
 * (the safety machine's by default), over the machine index's candidates. The fifth argument
 * is not read (the index is built once per definition); it stays for callers that pass a list.
 *
 * @example
 * const r = resolveTransition(safetyMachineDefinition, 'VERIFYING', initialContext(), { type: 'CHECK_FINAL_ANSWER', at: 0 });
 * r.taken?.id; // 'VERIFYING.CHECK_FINAL_ANSWER[1]' (hasReadAfterWrite was false)
 */
export function resolveTransition(
  def: MachineDefinition,
  state: string,
  context: object,
  event: { type: string },
  _transitions?: readonly TransitionInfo[],
  kind: AnyMachineKind = safetyMachineKind,
): Resolution {
  const guards: Resolution['guards'] = [];
  const impls = guardsOf<object, { type: string }>(kind, def);
  for (const t of indexMachine(def).candidates(state, event.type)) {
    if (t.guard === undefined) return { taken: t, guards };
    // An unknown guard (a machine still being edited) never passes.
    const impl = Object.hasOwn(impls, t.guard) ? impls[t.guard] : undefined;
    const result = impl ? impl(context, event, t.definition.guard && refParams(t.definition.guard)) : false;
    guards.push({ transition: t, result });
    if (result) return { taken: t, guards };
  }
  return { guards };
}

/** Covered and total items of one kind, with the missing ones named. */
export interface CoverageFigure {
  covered: number;
  total: number;
  missing: string[];
}

export interface Coverage {
  states: CoverageFigure;
  transitions: CoverageFigure;
  /** Both outcomes of each guarded transition: `X.E[0] isWrite=true`. */
  guardOutcomes: CoverageFigure;
}

/** Accumulates coverage over steps; `report()` gives the figures. */
export class CoverageTracker {
  private readonly transitions: TransitionInfo[];
  private readonly states = new Set<string>();
  private readonly taken = new Set<string>();
  private readonly outcomes = new Set<string>();

  constructor(
    private readonly def: MachineDefinition,
    private readonly kind: AnyMachineKind = safetyMachineKind,
  ) {
    this.transitions = transitionsOf(def);
  }

  /** Notes a state visited. */
  visit(state: string): void {
    this.states.add(state);
  }

  /** Notes a step: the transition it took and the guard outcomes it saw; returns the resolution. */
  step(state: string, context: object, event: { type: string }, after: string): Resolution {
    const resolution = resolveTransition(this.def, state, context, event, undefined, this.kind);
    this.visit(state);
    this.visit(after);
    if (resolution.taken) this.taken.add(resolution.taken.id);
    for (const g of resolution.guards) this.outcomes.add(outcomeId(g.transition, g.result));
    return resolution;
  }

  report(): Coverage {
    const figure = (all: string[], seen: Set<string>): CoverageFigure => {
      const missing = all.filter((x) => !seen.has(x));
      return { covered: all.length - missing.length, total: all.length, missing };
    };
    return {
      states: figure(Object.keys(this.def.states), this.states),
      transitions: figure(
        this.transitions.map((t) => t.id),
        this.taken,
      ),
      guardOutcomes: figure(guardOutcomeIds(this.transitions), this.outcomes),
    };
  }
}

/**
 * The id of one guard outcome of a transition.
 *
 * @example
 * outcomeId(transitionsOf(safetyMachineDefinition)[0], true); // 'RESOLVING.CHECK_TOOL[0] isWrite=true'
 */
export function outcomeId(t: TransitionInfo, result: boolean): string {
  return `${t.id} ${t.guard}=${result}`;
}

/**
 * Every guard outcome the coverage asks for: true and false of each guarded transition.
 *
 * @example
 * guardOutcomeIds(transitionsOf(safetyMachineDefinition)).length; // 32 for the shipped machine
 */
export function guardOutcomeIds(transitions: TransitionInfo[]): string[] {
  return transitions.filter((t) => t.guard !== undefined).flatMap((t) => [outcomeId(t, true), outcomeId(t, false)]);
}

/**
 * One coverage figure in words, with what is missing.
 *
 * @example
 * formatFigure('states', { covered: 4, total: 4, missing: [] }); // 'states: 4/4 (100%)'
 */
export function formatFigure(name: string, f: CoverageFigure): string {
  const pct = f.total === 0 ? 100 : Math.round((1000 * f.covered) / f.total) / 10;
  return `${name}: ${f.covered}/${f.total} (${pct}%)${f.missing.length ? `, missing ${f.missing.join('; ')}` : ''}`;
}
