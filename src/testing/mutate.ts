import { createMachineOfKind } from '../core/createMachineOfKind.js';
import {
  MachineDefinitionError,
  type MachineDefinition,
  type TransitionDefinition,
  type TransitionMap,
} from '../core/MachineDefinition.js';
import { formatRef } from '../export/describeTransition.js';
import { indexMachine } from '../core/MachineIndex.js';
import { exploreKind, type KindStep } from './exploreKind.js';
import type { ExploreOptions } from './exploreMachine.js';
import type { Invariant } from './invariants.js';
import type { AnyMachineKindTesting } from './MachineKindTesting.js';
import { safetyKindTesting } from './safetyKindTesting.js';

/*
 * Mutation testing of the machine JSON: every single-point change a careless
 * edit could make (drop a guard, swap a guard for another, retarget a
 * transition, drop an action, drop a transition). A mutant is killed when the
 * exhaustive check finds a violated invariant, or when validation rejects it.
 * One that survives is either equivalent (listed with the reason) or a sign
 * that an invariant is missing.
 */

export type MutationOperator = 'drop-guard' | 'swap-guard' | 'retarget' | 'drop-action' | 'drop-transition';

export interface Mutant {
  /** Stable and readable: `drop-guard VERIFYING.CHECK_TOOL[0] (isWrite)` (the transition's id in the machine index). */
  id: string;
  operator: MutationOperator;
  /** The mutated machine JSON. */
  json: MachineDefinition;
}

export interface MutantResult {
  mutant: Mutant;
  status: 'killed' | 'rejected' | 'survived' | 'equivalent';
  /** Killed: the invariant and what broke; rejected: the validation message; equivalent: the reason. */
  detail?: string;
  /** The first invariant broken, for a killed mutant. */
  invariant?: string;
  ms: number;
}

export interface MutationReport {
  results: MutantResult[];
  killed: number;
  rejected: number;
  equivalent: number;
  survived: number;
  /** (killed + rejected) / (all − equivalent), in percent. */
  score: number;
  ms: number;
}

function listOf(def: MachineDefinition, source: string | null, event: string) {
  const map: TransitionMap = source === null ? def.on! : def.states[source]!.on!;
  return { map, list: map[event]! };
}

/**
 * Every single-point mutant of a machine definition.
 *
 * @example
 * generateMutants(parseMachineDefinition(json)).length; // a few hundred
 */
export function generateMutants(def: MachineDefinition): Mutant[] {
  const mutants: Mutant[] = [];
  const guardNames = Object.keys(def.guards);
  const stateNames = Object.keys(def.states);
  const mutate = (
    id: string,
    operator: MutationOperator,
    source: string | null,
    event: string,
    edit: (list: TransitionDefinition[], map: TransitionMap) => void,
  ) => {
    const json = structuredClone(def);
    const { map, list } = listOf(json, source, event);
    edit(list, map);
    mutants.push({ id, operator, json });
  };
  for (const t of indexMachine(def).transitions) {
    const { source, event, index: i, id: at } = t;
    if (t.guard !== undefined) {
      const name = t.guard;
      mutate(`drop-guard ${at} (${name})`, 'drop-guard', source, event, (list) => {
        delete list[i]!.guard;
      });
      for (const other of guardNames) {
        if (other === name) continue;
        mutate(`swap-guard ${at} ${name}→${other}`, 'swap-guard', source, event, (list) => {
          list[i]!.guard = other;
        });
      }
    }
    for (const state of stateNames) {
      // A state's targetless transition already stays in that state: with no entry or exit
      // actions (and XState 5's `reenter: false`), targeting it is the same transition, not a mutant.
      if (state === (t.target ?? source)) continue;
      mutate(`retarget ${at} ${t.target ?? '(stay)'}→${state}`, 'retarget', source, event, (list) => {
        list[i]!.target = state;
      });
    }
    (t.definition.actions ?? []).forEach((a, j) => {
      mutate(`drop-action ${at} ${formatRef(a)}`, 'drop-action', source, event, (list) => {
        list[i]!.actions!.splice(j, 1);
      });
    });
    mutate(`drop-transition ${at}`, 'drop-transition', source, event, (list, map) => {
      list.splice(i, 1);
      if (list.length === 0) delete map[event];
    });
  }
  return mutants;
}

class Killed extends Error {
  constructor(
    readonly invariant: string,
    readonly detail: string,
    readonly input: unknown,
  ) {
    super(detail);
  }
}

/** Options of {@link tryMutant} and {@link runMutants}. */
export interface MutantOptions {
  /** The kind's testing data (event classes, invariants); default: the safety machine's. */
  testing?: AnyMachineKindTesting;
  /** The safety machine only, without `testing`: the invariants to check (default all). */
  invariants?: readonly Invariant[];
  /** The safety machine only, without `testing`: how to explore. */
  explore?: ExploreOptions;
}

/**
 * Runs the exhaustive check on one mutant, stopping at the first broken step
 * invariant (exploration is breadth-first, so that is near the start), then
 * checking the kind's graph-wide invariants.
 *
 * @example
 * const [first] = generateMutants(safetyMachineDefinition);
 * tryMutant(first!).status; // 'killed' when an invariant catches it
 */
export function tryMutant(mutant: Mutant, options: MutantOptions = {}): MutantResult {
  const started = performance.now();
  const testing = options.testing ?? safetyKindTesting(options.explore, options.invariants);
  const done = (status: MutantResult['status'], extra: Partial<MutantResult> = {}): MutantResult => ({
    mutant,
    status,
    ...extra,
    ms: performance.now() - started,
  });
  let machine;
  try {
    machine = createMachineOfKind(testing.kind, mutant.json);
  } catch (e) {
    if (e instanceof MachineDefinitionError)
      return done('rejected', { detail: e.issues.map((i) => i.message).join('; ') });
    throw e;
  }
  const stepRules = testing.invariants.filter((i) => i.checkStep);
  const onStep = (s: KindStep<unknown, { type: string }>, input: unknown) => {
    if ((s.after as { status?: string }).status === 'error')
      throw new Killed('crash', `${s.event.type} crashed the machine`, input);
    const step = testing.step(s);
    for (const inv of stepRules) {
      const message = inv.checkStep!(step);
      if (message !== null)
        throw new Killed(inv.id, `${inv.id}: ${message} (on ${s.event.type} in ${String(s.before.value)})`, input);
    }
  };
  const exploration = testing.exploration();
  const inputs = exploration.inputs ?? [];
  // Mutants come grouped by transition, and those of one transition most often die in the same
  // session config: try that config alone first (a coding-profile mutant dies deep in its own
  // config, after the breadth of all the others otherwise). A miss falls back to the whole graph,
  // so the verdict is the same either way; only the time and which invariant is named first differ.
  const transition = mutant.id.split(' ')[1];
  let killedBy: Killed | undefined;
  let steps = 0;
  const counted = (s: KindStep<unknown, { type: string }>, input: unknown) => {
    steps++;
    onStep(s, input);
  };
  if (inputs.length > 1 && hint.transition === transition) {
    // Bounded by a few times what the last kill took, so a miss costs little.
    const budget = hint.steps * 4;
    try {
      exploreKind(
        machine,
        { ...exploration, inputs: [inputs[hint.input]] },
        {
          onStep: (s, input) => {
            if (steps > budget) throw new GaveUp();
            counted(s, input);
          },
        },
      );
    } catch (e) {
      if (e instanceof Killed) {
        killedBy = e;
        hint.steps = Math.max(MIN_HINT_STEPS, steps);
      } else if (!(e instanceof GaveUp)) throw e;
    }
  }
  if (killedBy) return done('killed', { invariant: killedBy.invariant, detail: killedBy.detail });
  let graph;
  try {
    steps = 0;
    graph = exploreKind(machine, exploration, { onStep: counted });
  } catch (e) {
    if (!(e instanceof Killed)) throw e;
    // The whole graph's breadth took `steps`; the config alone takes about its share.
    Object.assign(hint, {
      transition,
      input: Math.max(0, inputs.indexOf(e.input)),
      steps: Math.max(MIN_HINT_STEPS, Math.ceil(steps / Math.max(1, inputs.length))),
    });
    return done('killed', { invariant: e.invariant, detail: e.detail });
  }
  for (const inv of testing.invariants) {
    const messages = inv.checkGraph?.(graph) ?? [];
    if (messages.length) return done('killed', { invariant: inv.id, detail: `${inv.id}: ${messages[0]}` });
  }
  const reason = testing.equivalentMutants?.[mutant.id];
  return reason !== undefined ? done('equivalent', { detail: reason }) : done('survived');
}

/** Which session config killed the last mutant, of which transition (see {@link tryMutant}); only speed depends on it. */
const hint: { transition?: string; input: number; steps: number } = { input: 0, steps: 0 };
const MIN_HINT_STEPS = 500;

/** A hinted exploration past its budget: the whole graph decides. */
class GaveUp extends Error {}

/**
 * Generates every single-point mutant of a definition and tries each.
 *
 * @example
 * const report = runMutants(parseMachineDefinition(json));
 * console.log(`${report.score}% (${report.killed} killed, ${report.equivalent} equivalent)`);
 */
export function runMutants(
  def: MachineDefinition,
  options: MutantOptions & { onResult?: (r: MutantResult) => void } = {},
): MutationReport {
  const started = performance.now();
  const results = generateMutants(def).map((m) => {
    const r = tryMutant(m, options);
    options.onResult?.(r);
    return r;
  });
  const count = (s: MutantResult['status']) => results.filter((r) => r.status === s).length;
  const killed = count('killed');
  const rejected = count('rejected');
  const equivalent = count('equivalent');
  const survived = count('survived');
  const scored = results.length - equivalent;
  return {
    results,
    killed,
    rejected,
    equivalent,
    survived,
    score: scored === 0 ? 100 : Math.round((1000 * (killed + rejected)) / scored) / 10,
    ms: performance.now() - started,
  };
}
