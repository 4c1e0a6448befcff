import { assign, setup, type AnyStateMachine } from 'xstate';
import {
  guardOperands,
  parseMachineDefinitionOfKind,
  type MachineDefinition,
  type NamedRef,
  type TransitionMap,
} from './MachineDefinition.js';
import type { AnyMachineKind } from './MachineKind.js';
import { guardsOf, kindGuardTests, type GuardTest } from './guardsOf.js';

/** The one XState action a transition with several named actions is bound to (see `bind` below). */
export const APPLY_ACTIONS = 'applyActions';

type Patch = (c: object, e: { type: string }, p: unknown) => object;
type Apply = (draft: object, e: { type: string }, p: unknown) => void;

/** The kind's implementations bound once per kind: every machine of the kind built from JSON shares them. */
const bound = new WeakMap<AnyMachineKind, ReturnType<typeof bind>>();

function bind(kind: AnyMachineKind, tests: Record<string, GuardTest<object, { type: string }>> = kindGuardTests(kind)) {
  const guards = Object.fromEntries(
    Object.entries(tests).map(([name, test]) => [
      name,
      // XState hands a guard the params of its reference as the second argument.
      ({ context, event }: { context: object; event: { type: string } }, params: unknown) =>
        test(context, event, params),
    ]),
  );
  const patches = kind.actions as Record<string, { run: Patch; apply?: Apply }>;
  const actions = Object.fromEntries(
    Object.entries(patches).map(([name, impl]) => [
      name,
      assign(({ context, event }: { context: object; event: { type: string } }, params: unknown) =>
        impl.run(context, event, params),
      ),
    ]),
  );
  /*
   * A transition's named actions run as one `assign`: XState rebuilds the whole snapshot
   * (context, state value, tags) for every assign, so a transition with three named actions
   * paid for three snapshots. The steps run in the order the JSON lists them, each seeing the
   * context the one before produced, as separate assigns would. The JSON, the editor and the
   * checker still see the named actions; only XState's inspection shows them as this one
   * action with the steps as its params. The name cannot clash: machine JSON may only name
   * registered actions, and this is not one.
   */
  const applyActions = assign(({ context, event }: { context: object; event: { type: string } }, params: unknown) => {
    // One copy for the whole transition, as the compiled table does: a draft action writes into it.
    const draft = { ...context };
    for (const step of (params as { steps: readonly { type: string; params?: unknown }[] }).steps) {
      const impl = patches[step.type]!;
      if (impl.apply !== undefined) impl.apply(draft, event, step.params);
      else Object.assign(draft, impl.run(draft, event, step.params));
    }
    return draft;
  });
  return setup({
    guards: guards as Record<string, () => boolean>,
    actions: { ...actions, [APPLY_ACTIONS]: applyActions } as unknown as Record<string, never>,
  });
}

function toXStateRef(ref: NamedRef) {
  return typeof ref === 'string'
    ? ref
    : ref.params === undefined
      ? { type: ref.type }
      : { type: ref.type, params: ref.params };
}

function toXStateOn(map: TransitionMap | undefined, root: boolean) {
  if (!map) return undefined;
  return Object.fromEntries(
    Object.entries(map).map(([event, transitions]) => [
      event,
      transitions.map((t) => ({
        // From the root, a child state is addressed as `.NAME`.
        ...(t.target !== undefined && { target: root ? `.${t.target}` : t.target }),
        ...(t.guard !== undefined && { guard: toXStateRef(t.guard) }),
        ...(t.actions !== undefined && {
          actions:
            t.actions.length > 1
              ? [
                  {
                    type: APPLY_ACTIONS,
                    params: { steps: t.actions.map((a) => (typeof a === 'string' ? { type: a } : a)) },
                  },
                ]
              : t.actions.map(toXStateRef),
        }),
        description: t.description,
      })),
    ]),
  );
}

const definitions = new WeakMap<AnyStateMachine, MachineDefinition>();

/**
 * Builds the XState machine of any kind from its JSON definition, after validating it against
 * the schema and the kind's guards, actions and events. The safety machine is built with it
 * (`createSafetyMachine`); so is any other kind.
 *
 * @throws {MachineDefinitionError} naming the path and the problem of each issue.
 * @example
 * const machine = createMachineOfKind(doorKind, JSON.parse(readFileSync('machines/door.json', 'utf8')));
 * createActor(machine).start().send({ type: 'OPEN' });
 */
export function createMachineOfKind(kind: AnyMachineKind, json: unknown): AnyStateMachine {
  const def = parseMachineDefinitionOfKind(json, kind);
  let kindSetup = bound.get(kind);
  if (!kindSetup) bound.set(kind, (kindSetup = bind(kind)));
  // Guards the JSON derives (`not`, `and`, `or`) belong to this definition: bound for it alone.
  if (Object.values(def.guards).some((g) => guardOperands(g).length > 0)) kindSetup = bind(kind, guardsOf(kind, def));
  const machine = kindSetup.createMachine({
    id: def.id,
    description: def.description,
    initial: def.initial,
    context: ({ input }: { input?: unknown }) => kind.initialContext(input),
    ...(def.on && { on: toXStateOn(def.on, true) }),
    states: Object.fromEntries(
      Object.entries(def.states).map(([name, state]) => [
        name,
        { description: state.description, ...(state.on && { on: toXStateOn(state.on, false) }) },
      ]),
    ),
  } as never) as unknown as AnyStateMachine;
  definitions.set(machine, def);
  // XState's `.provide()` returns a new machine whose guards and actions are functions: remember
  // where it came from, so a session can say why it cannot run the decision table.
  const provide = machine.provide.bind(machine);
  Object.defineProperty(machine, 'provide', {
    value: (implementations: Parameters<typeof provide>[0]) => {
      const changed = provide(implementations);
      provided.add(changed);
      return changed;
    },
  });
  return machine;
}

const provided = new WeakSet<AnyStateMachine>();

/**
 * Why the compiled decision table cannot run a machine, or undefined when it can: the table is
 * compiled from the JSON and the kind's named implementations, and nothing else.
 *
 * @example
 * compiledUnavailable(safetyMachine); // undefined
 */
export function compiledUnavailable(machine: AnyStateMachine): string | undefined {
  if (definitions.has(machine)) return undefined;
  return provided.has(machine)
    ? "the machine was changed with .provide(): its guards and actions are now functions the compiled table cannot read (change the kind's named implementations instead)"
    : 'the machine was not built from JSON (createMachineOfKind or createSafetyMachine), so there is no definition to compile';
}

/**
 * The validated definition a machine was built from.
 *
 * @example
 * definitionOf(safetyMachine)?.initial; // 'RESOLVING'
 */
export function definitionOf(machine: AnyStateMachine): MachineDefinition | undefined {
  return definitions.get(machine);
}
