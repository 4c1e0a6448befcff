import { assign, setup, type AnyStateMachine } from 'xstate';
import { actionImplementations } from './actions.js';
import { guardImplementations } from './guards.js';
import {
  parseMachineDefinition,
  type MachineDefinition,
  type NamedRef,
  type TransitionMap,
} from './MachineDefinition.js';
import { DEFAULT_CONFIG, initialContext, type SafetyConfig, type SafetyContext } from './SafetyContext.js';
import type { SafetyEvent } from './SafetyEvent.js';

/** Input of the machine's actor: the session's settings. */
export interface SafetyMachineInput {
  config?: SafetyConfig;
}

const guards = Object.fromEntries(
  Object.entries(guardImplementations).map(([name, impl]) => [
    name,
    ({ context, event }: { context: SafetyContext; event: SafetyEvent }) => impl(context, event),
  ]),
);

type Patch = (c: SafetyContext, e: SafetyEvent, p: unknown) => Partial<SafetyContext>;
const patches = actionImplementations as Record<string, { run: Patch }>;

const actions = Object.fromEntries(
  Object.entries(patches).map(([name, impl]) => [
    name,
    assign(({ context, event }: { context: SafetyContext; event: SafetyEvent }, params: unknown) =>
      impl.run(context, event, params),
    ),
  ]),
);

/** The one XState action a transition with several named actions is bound to (see {@link applyActions}). */
const APPLY_ACTIONS = 'applyActions';

/**
 * A transition's named actions run as one `assign`: XState rebuilds the whole
 * snapshot (context, state value, tags) for every assign, so a transition with
 * three named actions paid for three snapshots (the gate benchmark measured
 * about a fifth of the time per call going to it). The steps run in the order
 * the JSON lists them, each seeing the context the one before produced, as
 * separate assigns would. The JSON, the editor and the checker still see the
 * named actions; only XState's inspection shows them as this one action with
 * the steps as its params. The name cannot clash: machine JSON may only name
 * registered actions, and this is not one.
 */
const applyActions = assign(({ context, event }: { context: SafetyContext; event: SafetyEvent }, params: unknown) => {
  let next = context;
  for (const step of (params as { steps: readonly { type: string; params?: unknown }[] }).steps) {
    next = { ...next, ...patches[step.type]!.run(next, event, step.params) };
  }
  return next;
});

/** The implementations bound once: every machine built from JSON shares them. */
const safetySetup = setup({
  types: {
    context: {} as SafetyContext,
    events: {} as SafetyEvent,
    input: {} as SafetyMachineInput,
  },
  guards: guards as Record<string, () => boolean>,
  actions: { ...actions, [APPLY_ACTIONS]: applyActions } as unknown as Record<string, never>,
});

/** Never called: gives the machine its static type (states are data, known only at run time). */
function typedSkeleton() {
  return safetySetup.createMachine({
    context: ({ input }) => initialContext(input?.config ?? DEFAULT_CONFIG),
    initial: 'RESOLVING',
    states: { RESOLVING: {}, READING: {}, WRITING: {}, VERIFYING: {} },
  });
}

/** The type of every machine built by {@link createSafetyMachine}. */
export type SafetyMachine = ReturnType<typeof typedSkeleton>;

const definitions = new WeakMap<AnyStateMachine, MachineDefinition>();

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

/**
 * Builds the XState machine from a machine definition (the parsed JSON of
 * `machines/*.json`), after validating it against the schema and the guard
 * and action registries.
 *
 * @throws {MachineDefinitionError} naming the path and the problem of each issue.
 * @example
 * const machine = createSafetyMachine(JSON.parse(readFileSync('machines/assistant-safety.json', 'utf8')));
 * const session = createSafetySession({ machine });
 */
export function createSafetyMachine(json: unknown): SafetyMachine {
  const def = parseMachineDefinition(json);
  const machine = safetySetup.createMachine({
    id: def.id,
    description: def.description,
    initial: def.initial,
    context: ({ input }: { input?: SafetyMachineInput }) => initialContext(input?.config ?? DEFAULT_CONFIG),
    ...(def.on && { on: toXStateOn(def.on, true) }),
    states: Object.fromEntries(
      Object.entries(def.states).map(([name, state]) => [
        name,
        { description: state.description, ...(state.on && { on: toXStateOn(state.on, false) }) },
      ]),
    ),
  } as never) as unknown as SafetyMachine;
  definitions.set(machine, def);
  return machine;
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
