import { refName, type MachineDefinition, type TransitionDefinition } from './MachineDefinition.js';

/*
 * One normalised view of a machine definition, built once per definition and
 * shared by every walker of the JSON (the loader's checks, coverage, mutants,
 * the diagram): its states, every transition with one id, and the guard and
 * action each transition names. A transition's id is `STATE.EVENT[i]`, or
 * `*.EVENT[i]` for one of the root's `on` (it applies in any state): the id
 * the app, the reports and the mutants show.
 */

/** The source that stands for "any state": the root's `on`. */
export const ANY_STATE = '*';

export { refName, refParams } from './MachineDefinition.js';

/**
 * The id of the transition at `index` of `event` in `source` (a state name, or null for the root's `on`).
 *
 * @example
 * transitionId('RESOLVING', 'BEGIN_CALL', 2); // 'RESOLVING.BEGIN_CALL[2]'
 * transitionId(null, 'RESET', 0); // '*.RESET[0]'
 */
export const transitionId = (source: string | null, event: string, index: number): string =>
  `${source ?? ANY_STATE}.${event}[${index}]`;

/** Where a transition sits in the JSON: its state (null for the root's `on`), its event, its index. */
export interface TransitionAddress {
  source: string | null;
  event: string;
  index: number;
}

const SHORT_ID = /^([^.[\]]+)\.([^.[\]]+)\[(\d+)\]$/;
const JSON_PATH_ID = /^(?:states\.([^.[\]]+)\.)?on\.([^.[\]]+)\[(\d+)\]$/;

/**
 * The address of a transition id: `STATE.EVENT[i]` or `*.EVENT[i]`, and the JSON path form
 * earlier reports used (`states.STATE.on.EVENT[i]`, `on.EVENT[i]`); undefined for anything else.
 *
 * @example
 * parseTransitionId('VERIFYING.CHECK_TOOL[1]'); // { source: 'VERIFYING', event: 'CHECK_TOOL', index: 1 }
 * parseTransitionId('states.VERIFYING.on.CHECK_TOOL[1]'); // the same
 */
export function parseTransitionId(id: string): TransitionAddress | undefined {
  const path = JSON_PATH_ID.exec(id);
  if (path) return { source: path[1] ?? null, event: path[2]!, index: Number(path[3]) };
  const short = SHORT_ID.exec(id);
  if (!short || short[1] === 'on' || short[1] === 'states') return undefined;
  return { source: short[1] === ANY_STATE ? null : short[1]!, event: short[2]!, index: Number(short[3]) };
}

/** One transition of a definition, as every walker sees it. */
export interface IndexedTransition extends TransitionAddress {
  /** `STATE.EVENT[i]`, or `*.EVENT[i]` for the root's `on`. */
  id: string;
  /** The guard's name, if the transition has one. */
  guard?: string;
  /** The target state; absent for a transition that stays where it is. */
  target?: string;
  /** The actions' names, in order. */
  actions: string[];
  description: string;
  /** The transition in the JSON. */
  definition: TransitionDefinition;
}

/** The normalised view of a definition: see {@link indexMachine}. */
export interface MachineIndex {
  definition: MachineDefinition;
  /** State names, in JSON order. */
  states: string[];
  initial: string;
  /** Every transition: states first (in JSON order), then the root's. */
  transitions: IndexedTransition[];
  /** Every transition by id. */
  byId: ReadonlyMap<string, IndexedTransition>;
  /** Guard and action names the transitions use. */
  guardsUsed: ReadonlySet<string>;
  actionsUsed: ReadonlySet<string>;
  /**
   * The transitions an event may take in a state, in the order XState tries them:
   * the state's own, then the root's (tried when none of the state's own applies).
   */
  candidates(state: string, event: string): readonly IndexedTransition[];
}

const indexes = new WeakMap<MachineDefinition, MachineIndex>();

/**
 * The index of a definition, built once (cached by definition object).
 *
 * @example
 * const index = indexMachine(safetyMachineDefinition);
 * index.byId.get('RESOLVING.BEGIN_CALL[2]')?.guard; // 'isWrite'
 * index.candidates('READING', 'RESET').map((t) => t.id); // ['*.RESET[0]']
 */
export function indexMachine(def: MachineDefinition): MachineIndex {
  const known = indexes.get(def);
  if (known) return known;
  const transitions: IndexedTransition[] = [];
  const lists = new Map<string, IndexedTransition[]>();
  const add = (map: Record<string, TransitionDefinition[]> | undefined, source: string | null) => {
    for (const [event, list] of Object.entries(map ?? {})) {
      const indexed = list.map((t, index): IndexedTransition => ({
        id: transitionId(source, event, index),
        source,
        event,
        index,
        ...(t.guard !== undefined && { guard: refName(t.guard) }),
        ...(t.target !== undefined && { target: t.target }),
        actions: (t.actions ?? []).map(refName),
        description: t.description,
        definition: t,
      }));
      lists.set(`${source ?? ANY_STATE} ${event}`, indexed);
      transitions.push(...indexed);
    }
  };
  for (const [name, state] of Object.entries(def.states)) add(state.on, name);
  add(def.on, null);
  const candidates = new Map<string, IndexedTransition[]>();
  const index: MachineIndex = {
    definition: def,
    states: Object.keys(def.states),
    initial: def.initial,
    transitions,
    byId: new Map(transitions.map((t) => [t.id, t])),
    guardsUsed: new Set(transitions.flatMap((t) => (t.guard === undefined ? [] : [t.guard]))),
    actionsUsed: new Set(transitions.flatMap((t) => t.actions)),
    candidates: (state, event) => {
      const key = `${state}\u0000${event}`;
      let list = candidates.get(key);
      if (!list)
        candidates.set(
          key,
          (list = [...(lists.get(`${state} ${event}`) ?? []), ...(lists.get(`${ANY_STATE} ${event}`) ?? [])]),
        );
      return list;
    },
  };
  indexes.set(def, index);
  return index;
}
