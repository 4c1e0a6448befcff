import { createSafetyMachine } from '../createSafetyMachine.js';
import {
  MachineDefinitionError,
  type MachineDefinition,
  type NamedRef,
  type TransitionDefinition,
  type TransitionMap,
} from '../MachineDefinition.js';
import type { SafetyEvent } from '../SafetyEvent.js';
import { EQUIVALENT_MUTANTS } from './equivalentMutants.js';
import { exploreMachine, type ExploreOptions } from './exploreMachine.js';
import { invariants as allInvariants, type Invariant } from './invariants.js';
import { stepOf, type SafetySnapshotLike } from './Step.js';

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
  /** Stable and readable: `drop-guard states.VERIFYING.on.CHECK_TOOL[0] (isWrite)`. */
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

const refName = (ref: NamedRef) => (typeof ref === 'string' ? ref : ref.type);
const refText = (ref: NamedRef) =>
  typeof ref === 'string'
    ? ref
    : ref.params && 'reasonCode' in ref.params
      ? `${ref.type}(${String(ref.params.reasonCode)})`
      : ref.type;

/** Every transition list of a definition, with its JSON path (mutable, on a copy). */
function transitionLists(def: MachineDefinition) {
  const lists: Array<{ path: string; source: string | null; event: string }> = [];
  for (const [name, state] of Object.entries(def.states))
    for (const event of Object.keys(state.on ?? {}))
      lists.push({ path: `states.${name}.on.${event}`, source: name, event });
  for (const event of Object.keys(def.on ?? {})) lists.push({ path: `on.${event}`, source: null, event });
  return lists;
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
  for (const { path, source, event } of transitionLists(def)) {
    listOf(def, source, event).list.forEach((t, i) => {
      const at = `${path}[${i}]`;
      if (t.guard !== undefined) {
        const name = refName(t.guard);
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
      (t.actions ?? []).forEach((a, j) => {
        mutate(`drop-action ${at} ${refText(a)}`, 'drop-action', source, event, (list) => {
          list[i]!.actions!.splice(j, 1);
        });
      });
      mutate(`drop-transition ${at}`, 'drop-transition', source, event, (list, map) => {
        list.splice(i, 1);
        if (list.length === 0) delete map[event];
      });
    });
  }
  return mutants;
}

class Killed extends Error {
  constructor(
    readonly invariant: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/**
 * Runs the exhaustive check on one mutant, stopping at the first broken
 * invariant (exploration is breadth-first, so that is near the start).
 *
 * @example
 * const [first] = generateMutants(safetyMachineDefinition);
 * tryMutant(first!).status; // 'killed' when an invariant catches it
 */
export function tryMutant(
  mutant: Mutant,
  options: { invariants?: readonly Invariant[]; explore?: ExploreOptions } = {},
): MutantResult {
  const started = performance.now();
  const done = (status: MutantResult['status'], extra: Partial<MutantResult> = {}): MutantResult => ({
    mutant,
    status,
    ...extra,
    ms: performance.now() - started,
  });
  let machine;
  try {
    machine = createSafetyMachine(mutant.json);
  } catch (e) {
    if (e instanceof MachineDefinitionError)
      return done('rejected', { detail: e.issues.map((i) => i.message).join('; ') });
    throw e;
  }
  const invariants = options.invariants ?? allInvariants;
  const onStep = (before: SafetySnapshotLike, event: SafetyEvent, after: SafetySnapshotLike) => {
    if ((after as { status?: string }).status === 'error')
      throw new Killed('crash', `${event.type} crashed the machine`);
    const step = stepOf(before, event, after);
    for (const inv of invariants) {
      const message = inv.check(step);
      if (message !== null)
        throw new Killed(inv.id, `${inv.id}: ${message} (on ${event.type} in ${String(before.value)})`);
    }
  };
  try {
    exploreMachine(machine, { ...options.explore, onStep });
  } catch (e) {
    if (e instanceof Killed) return done('killed', { invariant: e.invariant, detail: e.detail });
    throw e;
  }
  const reason = EQUIVALENT_MUTANTS[mutant.id];
  return reason !== undefined ? done('equivalent', { detail: reason }) : done('survived');
}

/**
 * Generates every single-point mutant of a definition and tries each.
 *
 * @example
 * const report = runMutants(parseMachineDefinition(json));
 * console.log(`${report.score}% (${report.killed} killed, ${report.equivalent} equivalent)`);
 */
export function runMutants(
  def: MachineDefinition,
  options: { invariants?: readonly Invariant[]; onResult?: (r: MutantResult) => void } = {},
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
