import { parseMachineDefinitionOfKind, type MachineDefinition } from './MachineDefinition.js';
import { guardsOf, type GuardTest } from './guardsOf.js';
import { indexMachine, refName, refParams, type IndexedTransition } from './MachineIndex.js';
import type { AnyMachineKind, KindAction, KindGuard, MachineKind } from './MachineKind.js';

/** One action of a compiled transition: its name, its params from the JSON, and its implementation. */
export interface CompiledAction<C, E> {
  readonly type: string;
  readonly params: unknown;
  readonly run: KindAction<C, E, unknown>['run'];
  /** The action's draft form, when it has one (see `KindAction`). */
  readonly apply: KindAction<C, E, unknown>['apply'];
}

/** One guarded transition of the table, with its guard and actions resolved to their implementations. */
export interface CompiledTransition<C = object, E = { type: string }> {
  /** Where the JSON defines it: `STATE.EVENT[i]`, or `*.EVENT[i]` for the machine's own (root) transitions. */
  readonly id: string;
  /** The state whose `on` holds it; `undefined` for the machine's own transitions. */
  readonly source: string | undefined;
  readonly event: string;
  readonly index: number;
  readonly target: string | undefined;
  readonly guard: string | undefined;
  readonly test: KindGuard<C, E> | undefined;
  readonly actions: readonly CompiledAction<C, E>[];
}

/** Where one event left the machine: the state, the context, and the transition taken (none: nothing ran). */
export interface CompiledStep<C, E> {
  readonly value: string;
  readonly context: C;
  readonly transition: CompiledTransition<C, E> | undefined;
}

/**
 * A machine definition compiled into a decision table: for each state and event type, the
 * ordered guarded transitions XState would try (the state's own, then the machine's), each
 * guard and action resolved to its implementation once. Stepping it is plain code: no actor,
 * no snapshot objects, one context copy per event that runs actions.
 */
export interface CompiledMachine<C extends object = object, E extends { type: string } = { type: string }> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the input type plays no part in the table
  readonly kind: MachineKind<C, E, any>;
  readonly definition: MachineDefinition;
  readonly initial: string;
  /** The state names, in the JSON's order. */
  readonly states: readonly string[];
  /** The transitions tried, in order, for an event type in a state (empty when none). */
  candidates(value: string, eventType: string): readonly CompiledTransition<C, E>[];
  /** The transition the event takes from `value` with `context`: the first whose guard passes. */
  select(value: string, context: C, event: E): CompiledTransition<C, E> | undefined;
  /** Takes one event. The context is a new object when actions ran, the same object otherwise. */
  step(value: string, context: C, event: E): CompiledStep<C, E>;
  /** Whether the event would take a transition that changes something (XState's `snapshot.can`). */
  can(value: string, context: C, event: E): boolean;
}

const NO_TRANSITIONS: readonly never[] = Object.freeze([]);

/*
 * Tables are cached per kind and JSON object: sessions of one machine share a table, and an
 * edited machine (a new object) compiles afresh. The JSON must not be mutated after compiling.
 */
const tables = new WeakMap<AnyMachineKind, WeakMap<object, CompiledMachine>>();

/**
 * Compiles a machine's JSON into a decision table, after validating it exactly as
 * {@link createMachineOfKind} does: the JSON stays the one definition, the table is generated
 * from it. XState remains the reference executor; a test runs every explored edge and long
 * random walks through both and compares state, context and outcome after each event.
 *
 * The selection rule is XState's for a flat machine: the current state's transitions for the
 * event in their JSON order, then the machine's own (root) transitions; the first whose guard
 * passes is taken. Its actions run in order, each seeing the context the one before produced,
 * applied to one copy of the context.
 *
 * @throws {MachineDefinitionError} naming the path and the problem of each issue.
 * @example
 * const table = compileMachine(safetyMachineKind, safetyMachineDefinition);
 * const context = safetyMachineKind.initialContext(undefined);
 * table.step('RESOLVING', context, { type: 'CHECK_FINAL_ANSWER', at: 0 }).value; // 'RESOLVING'
 */
export function compileMachine<C extends object, E extends { type: string }>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the input type plays no part in the table
  kind: MachineKind<C, E, any>,
  json: unknown,
): CompiledMachine<C, E> {
  let byJson = tables.get(kind as AnyMachineKind);
  if (!byJson) tables.set(kind as AnyMachineKind, (byJson = new WeakMap()));
  const cached = typeof json === 'object' && json !== null ? byJson.get(json) : undefined;
  if (cached) return cached as unknown as CompiledMachine<C, E>;
  const compiled = buildTable(
    kind as MachineKind<C, E, unknown>,
    parseMachineDefinitionOfKind(json, kind as AnyMachineKind),
  );
  if (typeof json === 'object' && json !== null) byJson.set(json, compiled as unknown as CompiledMachine);
  return compiled;
}

function buildTable<C extends object, E extends { type: string }>(
  kind: MachineKind<C, E, unknown>,
  def: MachineDefinition,
): CompiledMachine<C, E> {
  type T = CompiledTransition<C, E>;
  const guards = guardsOf<C, E>(kind, def);
  const actions = kind.actions as Record<string, KindAction<C, E, unknown>>;
  // The machine index is the one walker of the JSON: ids, names and XState's order of candidates.
  const index = indexMachine(def);
  const compiled = new Map<IndexedTransition, T>();
  for (const t of index.transitions) {
    const refs = t.definition.actions ?? [];
    compiled.set(t, {
      id: t.id,
      source: t.source ?? undefined,
      event: t.event,
      index: t.index,
      target: t.target,
      guard: t.guard,
      test: t.guard === undefined ? undefined : withParams(guards[t.guard]!, refParams(t.definition.guard!)),
      actions: refs.map((a) => {
        const impl = actions[refName(a)]!;
        return { type: refName(a), params: refParams(a), run: impl.run, apply: impl.apply };
      }),
    });
  }
  const copyContext = kind.copyContext ?? ((context: C): C => ({ ...context }));
  const states = [...index.states];
  const events = new Set(index.transitions.map((t) => t.event));
  const table = new Map<string, Map<string, readonly T[]>>();
  for (const name of states) {
    const row = new Map<string, readonly T[]>();
    for (const event of events) {
      const list = index.candidates(name, event).map((t) => compiled.get(t)!);
      if (list.length > 0) row.set(event, list);
    }
    table.set(name, row);
  }
  const candidates = (value: string, eventType: string): readonly T[] => {
    const row = table.get(value);
    if (!row) throw new Error(`machine "${def.id}" has no state "${value}"`);
    return row.get(eventType) ?? NO_TRANSITIONS;
  };
  const select = (value: string, context: C, event: E): T | undefined => {
    const list = candidates(value, event.type);
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      if (t.test === undefined || t.test(context, event)) return t;
    }
    return undefined;
  };
  return {
    kind,
    definition: def,
    initial: def.initial,
    states,
    candidates,
    select,
    step(value, context, event) {
      const transition = select(value, context, event);
      if (!transition) return { value, context, transition };
      let next = context;
      const steps = transition.actions;
      if (steps.length > 0) {
        const copy = copyContext(context);
        for (let i = 0; i < steps.length; i++) {
          const action = steps[i]!;
          // A draft action writes its fields into the copy by name; merging a patch (Object.assign)
          // cost most of a step, as its keyed stores see every field of every action.
          if (action.apply !== undefined) action.apply(copy, event, action.params);
          else Object.assign(copy, action.run(copy, event, action.params));
        }
        next = copy;
      }
      return { value: transition.target ?? value, context: next, transition };
    },
    can(value, context, event) {
      const t = select(value, context, event);
      return t !== undefined && (t.target !== undefined || t.actions.length > 0);
    },
  };
}

/** A guard with the params its reference gives, as the table calls it (a guard without params as it is). */
function withParams<C, E>(test: GuardTest<C, E>, params: unknown): KindGuard<C, E> {
  return params === undefined ? test : (context, event) => test(context, event, params);
}
