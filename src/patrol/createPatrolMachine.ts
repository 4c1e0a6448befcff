import { assign, setup, type AnyStateMachine } from 'xstate';
import {
  issuesOf,
  MachineDefinition,
  MachineDefinitionError,
  type MachineIssue,
  type TransitionDefinition,
} from '../index.js';
import { patrolMachineKind, type PatrolContext, type PatrolEvent } from './patrolMachineKind.js';

const kind = patrolMachineKind;
type TransitionMap = Record<string, TransitionDefinition[]>;
const refName = (ref: string | { type: string }) => (typeof ref === 'string' ? ref : ref.type);
const refParams = (ref: string | { params?: unknown }) => (typeof ref === 'string' ? undefined : ref.params);

/** Checks names and params against the Patrol kind's registries. */
function kindIssues(def: MachineDefinition): MachineIssue[] {
  const issues: MachineIssue[] = [];
  const states = new Set(Object.keys(def.states));
  if (!states.has(def.initial))
    issues.push({ code: 'unknown_state', path: ['initial'], message: `unknown state "${def.initial}"` });
  for (const name of Object.keys(def.guards))
    if (!Object.hasOwn(kind.guards, name))
      issues.push({
        code: 'unknown_guard',
        path: ['guards', name],
        message: `no guard implementation named "${name}"`,
      });
  for (const name of Object.keys(def.actions))
    if (!Object.hasOwn(kind.actions, name))
      issues.push({
        code: 'unknown_action',
        path: ['actions', name],
        message: `no action implementation named "${name}"`,
      });
  const check = (map: TransitionMap | undefined, base: (string | number)[]) => {
    for (const [event, transitions] of Object.entries(map ?? {})) {
      if (!(kind.eventTypes as readonly string[]).includes(event))
        issues.push({
          code: 'unknown_event',
          path: [...base, event],
          message: `unknown event "${event}" (known: ${kind.eventTypes.join(', ')})`,
        });
      transitions.forEach((t, i) => {
        const at = [...base, event, i];
        if (t.target !== undefined && !states.has(t.target))
          issues.push({
            code: 'unknown_state',
            path: [...at, 'target'],
            message: `unknown target state "${t.target}"`,
          });
        if (t.guard !== undefined) {
          const name = refName(t.guard);
          if (!Object.hasOwn(def.guards, name) || !Object.hasOwn(kind.guards, name))
            issues.push({
              code: 'unknown_guard',
              path: [...at, 'guard'],
              message: `unknown or undescribed guard "${name}"`,
            });
          else if (refParams(t.guard) !== undefined)
            issues.push({
              code: 'invalid_params',
              path: [...at, 'guard', 'params'],
              message: `guard "${name}" takes no params`,
            });
        }
        (t.actions ?? []).forEach((a, j) => {
          const name = refName(a);
          const ap = [...at, 'actions', j];
          if (!Object.hasOwn(def.actions, name) || !Object.hasOwn(kind.actions, name)) {
            issues.push({ code: 'unknown_action', path: ap, message: `unknown or undescribed action "${name}"` });
            return;
          }
          const schema = kind.actions[name]!.params;
          const params = refParams(a);
          if (!schema) {
            if (params !== undefined)
              issues.push({
                code: 'invalid_params',
                path: [...ap, 'params'],
                message: `action "${name}" takes no params`,
              });
            return;
          }
          const parsed = schema.safeParse(params);
          if (!parsed.success)
            for (const issue of issuesOf(parsed.error))
              issues.push({ code: 'invalid_params', path: [...ap, 'params', ...issue.path], message: issue.message });
        });
      });
    }
  };
  check(def.on, ['on']);
  for (const [name, state] of Object.entries(def.states)) check(state.on, ['states', name, 'on']);
  return issues;
}

/**
 * Validates a Patrol machine definition (parsed JSON): the shape every
 * machine file shares, then the names and params against the Patrol kind.
 *
 * @throws {MachineDefinitionError} listing every problem, each with its path.
 * @example
 * const def = parsePatrolMachineDefinition(JSON.parse(text));
 */
export function parsePatrolMachineDefinition(json: unknown): MachineDefinition {
  const parsed = MachineDefinition.safeParse(json);
  if (!parsed.success)
    throw new MachineDefinitionError(issuesOf(parsed.error).map((i) => ({ ...i, code: 'invalid_shape' as const })));
  const issues = kindIssues(parsed.data);
  if (issues.length) throw new MachineDefinitionError(issues);
  return parsed.data;
}

const guards = Object.fromEntries(
  Object.entries(kind.guards).map(([name, impl]) => [
    name,
    ({ context, event }: { context: PatrolContext; event: PatrolEvent }) => impl(context, event),
  ]),
);
const actions = Object.fromEntries(
  Object.entries(kind.actions).map(([name, impl]) => [
    name,
    assign(({ context, event }: { context: PatrolContext; event: PatrolEvent }, params: unknown) =>
      impl.run(context, event, params),
    ),
  ]),
);

const patrolSetup = setup({
  types: { context: {} as PatrolContext, events: {} as PatrolEvent },
  guards: guards as Record<string, () => boolean>,
  actions: actions as unknown as Record<string, never>,
});

function typedSkeleton() {
  return patrolSetup.createMachine({ context: kind.initialContext, initial: 'idle', states: { idle: {} } });
}

/** The type of every machine built by {@link createPatrolMachine}. */
export type PatrolMachine = ReturnType<typeof typedSkeleton>;

const definitions = new WeakMap<AnyStateMachine, MachineDefinition>();

function toXStateOn(map: TransitionMap | undefined) {
  if (!map) return undefined;
  return Object.fromEntries(
    Object.entries(map).map(([event, transitions]) => [
      event,
      transitions.map((t) => ({
        ...(t.target !== undefined && { target: t.target }),
        ...(t.guard !== undefined && { guard: t.guard }),
        ...(t.actions !== undefined && { actions: t.actions }),
        description: t.description,
      })),
    ]),
  );
}

/**
 * Builds the XState machine of a Patrol run from its JSON (a
 * `machines/patrol.json` or an edited copy), binding the named guards and
 * actions with `setup()`.
 *
 * @throws {MachineDefinitionError} for a malformed definition.
 * @example
 * const machine = createPatrolMachine(JSON.parse(readFileSync('machines/patrol.json', 'utf8')));
 */
export function createPatrolMachine(json: unknown): PatrolMachine {
  const def = parsePatrolMachineDefinition(json);
  const machine = patrolSetup.createMachine({
    id: def.id,
    description: def.description,
    initial: def.initial,
    context: kind.initialContext,
    states: Object.fromEntries(
      Object.entries(def.states).map(([name, state]) => [
        name,
        { description: state.description, ...(state.on && { on: toXStateOn(state.on) }) },
      ]),
    ),
  } as never) as unknown as PatrolMachine;
  definitions.set(machine, def);
  return machine;
}

/**
 * The definition a Patrol machine was built from.
 *
 * @example
 * patrolDefinitionOf(patrolMachine)?.initial; // 'idle'
 */
export function patrolDefinitionOf(machine: AnyStateMachine): MachineDefinition | undefined {
  return definitions.get(machine);
}
