import { createActor, transition, type AnyStateMachine } from 'xstate';
import { compileMachine, type CompiledMachine } from './compileMachine.js';
import { APPLY_ACTIONS, compiledUnavailable, definitionOf } from './createMachineOfKind.js';
import type { AnyMachineKind } from './MachineKind.js';

/** Where a machine is: its state and its context. */
export interface MachineState<C> {
  readonly value: string;
  readonly context: C;
}

/**
 * Which executor runs a session's machine. `'compiled'` (the default): the decision table
 * generated from the machine's JSON. `'xstate'`: an XState actor, the reference the table is
 * proven equal to; choose it to debug with XState's tools.
 */
export type Executor = 'compiled' | 'xstate';

/** A named action of the machine JSON, as the transition taken lists it. */
export interface NamedAction {
  readonly type: string;
  readonly params?: unknown;
}

/** What one event did: the state it left, and the named actions of the transition it took (none: nothing ran). */
export interface MachineStep<C> {
  readonly state: MachineState<C>;
  readonly actions: readonly NamedAction[];
}

const NO_ACTIONS: readonly NamedAction[] = Object.freeze([]);

/** One running machine: the state after the last event, one event at a time. */
export interface MachineRunner<C, E> {
  readonly executor: Executor;
  readonly state: MachineState<C>;
  /**
   * Takes one event and returns the state it left (the same object when nothing changed) and the
   * named actions the machine ran for it: the machine's own report of what it decided.
   */
  send(event: E): MachineStep<C>;
  /** What `send(event)` would return, with nothing changed: the machine's pure step (a dry run). */
  peek(event: E): MachineStep<C>;
  /** Whether the event would take a transition that changes something. */
  can(event: E): boolean;
}

/**
 * The executor used when a session does not name one: `ASSISTANT_SAFETY_EXECUTOR` in the
 * environment (`xstate` or `compiled`) where there is one, so a whole process (a test run, a
 * server being debugged) can switch without code changes; `'compiled'` otherwise.
 */
function defaultExecutor(): Executor {
  // Read once: the environment is slow to read (a system call per access in Node) and fixed per process.
  if (envExecutor === undefined) {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    envExecutor = env?.['ASSISTANT_SAFETY_EXECUTOR'] === 'xstate' ? 'xstate' : 'compiled';
  }
  return envExecutor;
}

let envExecutor: Executor | undefined;

/** Machines whose fallback to XState was reported already: a warning per machine, not per session. */
const warned = new WeakSet<AnyStateMachine>();

/**
 * The executor a session of any kind runs its machine on. The compiled table is the default; a machine
 * it cannot run (changed with `.provide()`, or not built from JSON) runs on XState, which decides the
 * same at a tenth of the speed. Asked for by name, that is the session's input error (`fail`); by
 * default, `warn` says why, once per machine.
 *
 * @example
 * executorFor(machine.provide({}), undefined, (m) => new Error(m), console.warn); // 'xstate', and a warning
 */
export function executorFor(
  machine: AnyStateMachine,
  asked: unknown,
  fail: (message: string) => Error,
  warn: (message: string) => void,
): Executor {
  const executor = asked ?? defaultExecutor();
  if (executor !== 'compiled' && executor !== 'xstate')
    throw fail(
      `expected "compiled" or "xstate", got ${typeof executor === 'string' ? JSON.stringify(executor) : typeof executor}`,
    );
  const why = executor === 'compiled' ? compiledUnavailable(machine) : undefined;
  if (why === undefined) return executor;
  if (asked === 'compiled') throw fail(`"compiled" cannot run this machine: ${why}`);
  if (!warned.has(machine)) {
    warned.add(machine);
    warn(`${why}; it runs on XState instead (same decisions, slower). Pass executor: 'xstate' to say so.`);
  }
  return 'xstate';
}

/**
 * Starts a machine of a kind on the chosen executor, fresh (`{ input }`) or where a snapshot left it
 * (`{ state }`). A machine not built from JSON (no definition to compile) runs on XState.
 *
 * @example
 * const runner = createMachineRunner(safetyMachineKind, safetyMachine, { input: {} }, 'compiled');
 * runner.send({ type: 'CHECK_FINAL_ANSWER', at: 0 }).value; // 'RESOLVING'
 */
export function createMachineRunner<C, E extends { type: string }>(
  kind: AnyMachineKind,
  machine: AnyStateMachine,
  start: { input: unknown } | { state: MachineState<C> },
  executor: Executor = defaultExecutor(),
): MachineRunner<C, E> {
  const def = executor === 'compiled' ? definitionOf(machine) : undefined;
  if (def) return compiledRunner(kind, def, start);
  return xstateRunner(machine, start);
}

function compiledRunner<C, E extends { type: string }>(
  kind: AnyMachineKind,
  def: object,
  start: { input: unknown } | { state: MachineState<C> },
): MachineRunner<C, E> {
  const table = compileMachine(kind, def) as unknown as CompiledMachine<C & object, E>;
  if ('state' in start) {
    if (!table.states.includes(start.state.value))
      throw new Error(`machine "${table.definition.id}" has no state "${start.state.value}"`);
    return new CompiledRunner(table, { value: start.state.value, context: start.state.context });
  }
  return new CompiledRunner(table, { value: table.initial, context: kind.initialContext(start.input) as C });
}

/** A class rather than closures: a session is created per restore on the Redis path, so its runner must be cheap. */
class CompiledRunner<C, E extends { type: string }> implements MachineRunner<C, E> {
  readonly executor = 'compiled' as const;
  constructor(
    private readonly table: CompiledMachine<C & object, E>,
    public state: MachineState<C>,
  ) {}
  send(event: E): MachineStep<C> {
    const { state } = this;
    const step = this.table.step(state.value, state.context as C & object, event);
    if (step.transition === undefined) return { state, actions: NO_ACTIONS };
    if (step.value !== state.value || step.context !== state.context)
      this.state = { value: step.value, context: step.context };
    return { state: this.state, actions: step.transition.actions };
  }
  peek(event: E): MachineStep<C> {
    const { state } = this;
    const step = this.table.step(state.value, state.context as C & object, event);
    if (step.transition === undefined) return { state, actions: NO_ACTIONS };
    return { state: { value: step.value, context: step.context }, actions: step.transition.actions };
  }
  can(event: E): boolean {
    return this.table.can(this.state.value, this.state.context as C & object, event);
  }
}

function xstateRunner<C, E extends { type: string }>(
  machine: AnyStateMachine,
  start: { input: unknown } | { state: MachineState<C> },
): MachineRunner<C, E> {
  const actor =
    'state' in start
      ? createActor(machine, {
          snapshot: machine.resolveState({ value: start.state.value, context: start.state.context as never }),
          input: {},
        })
      : createActor(machine, { input: start.input as never });
  actor.start();
  let snap = actor.getSnapshot();
  let state: MachineState<C> = { value: snap.value as string, context: snap.context as C };
  return {
    executor: 'xstate',
    get state() {
      return state;
    },
    send(event) {
      // The transition XState will take, asked of XState itself, for the actions it names.
      const actions = machine.getTransitionData(snap, event as never).flatMap((t) => t.actions.flatMap(namedActionsOf));
      actor.send(event);
      const next = actor.getSnapshot();
      if (next.status === 'error') throw next.error;
      if (next !== snap) {
        snap = next;
        state = { value: next.value as string, context: next.context as C };
      }
      return { state, actions };
    },
    peek(event) {
      // XState's own pure step: the next snapshot, computed without the actor.
      const actions = machine.getTransitionData(snap, event as never).flatMap((t) => t.actions.flatMap(namedActionsOf));
      const [next] = transition(machine, snap, event as never);
      if (next === snap) return { state, actions };
      return { state: { value: next.value as string, context: next.context as C }, actions };
    },
    can(event) {
      return snap.can(event as never);
    },
  };
}

/**
 * The named actions behind one of XState's actions: a transition with several named actions is
 * bound to one `applyActions` whose params list them (see `createMachineOfKind`).
 */
function namedActionsOf(action: unknown): NamedAction[] {
  if (typeof action === 'string') return [{ type: action }];
  if (typeof action !== 'object' || action === null) return [];
  const { type, params } = action as { type?: unknown; params?: unknown };
  if (type === APPLY_ACTIONS) return (params as { steps: NamedAction[] }).steps;
  return typeof type === 'string' ? [{ type, params }] : [];
}
