import * as z from 'zod/mini';
import type { AnyStateMachine } from 'xstate';
import { formatIssues, issuesOf, IssueError, safeParseInput, type Issue } from './Issue.js';
import type { AnyMachineKind } from './MachineKind.js';
import { compiledUnavailable } from './createMachineOfKind.js';
import {
  createMachineRunner,
  defaultExecutor,
  type Executor,
  type MachineRunner,
  type MachineStep,
} from './MachineRunner.js';
import { migrateSnapshot, readingOf, SessionShell } from './SessionShell.js';

/*
 * The session of any machine kind: its events checked against the kind's schemas, run on the
 * compiled table (or XState), recorded with the kind's recorded projection, persisted with the
 * kind's snapshot version and migrations, and replayed. Nothing here names a state, an event or a
 * context field: a kind and its JSON are all it needs. The safety machine's `SafetySession` adds
 * its call vocabulary (checks, lifecycle, recoveries, attestations) on the same runner.
 */

/** The snapshot of a kind session: plain JSON, versioned by the kind. */
export const KindSnapshot = z.strictObject({
  format: z.literal('assistant-safety/kind-session'),
  kind: z.string().check(z.minLength(1)),
  version: z.int().check(z.nonnegative()),
  id: z.string().check(z.minLength(1)),
  state: z.string().check(z.minLength(1)),
  context: z.unknown(),
});
export type KindSnapshot = z.infer<typeof KindSnapshot>;

/** One line of a kind session's recording: how it started, or one event and what it did. */
export const KindRecordingEntry = z.strictObject({
  v: z.literal(1),
  session: z.string().check(z.minLength(1)),
  seq: z.int().check(z.nonnegative()),
  at: z.number(),
  /** The first entry of a session: created from an input, or restored from a snapshot. */
  start: z.optional(z.union([z.strictObject({ input: z.unknown() }), z.strictObject({ snapshot: KindSnapshot })])),
  /** Every other entry: the event sent (checked against the kind's events on replay). */
  event: z.optional(z.looseObject({ type: z.string() })),
  before: z.optional(z.string()),
  after: z.string(),
  /** The named actions of the transition taken. */
  actions: z.optional(z.array(z.string())),
  /** The kind's recorded projection of the context after the entry. */
  context: z.unknown(),
});
export type KindRecordingEntry = z.infer<typeof KindRecordingEntry>;

/** Thrown for an event, snapshot or entry the kind does not accept; nothing was applied. */
export class KindSessionError extends IssueError {
  readonly code = 'INVALID_KIND_INPUT' as const;
  constructor(message: string, issues: Issue[] = []) {
    super(message, issues);
    this.name = 'KindSessionError';
  }
}

export interface KindSessionOptions {
  /** Session id. Default a random UUID. */
  id?: string;
  /** Clock, epoch milliseconds, for the recording; it never goes backwards. Default `Date.now`. */
  now?: () => number;
  /** Receives one entry per start and per event; an error it throws goes to `onRecorderError`. */
  recorder?: { record(entry: KindRecordingEntry): void };
  /** Called when the recorder throws; the event stands. Default: `console.error`. */
  onRecorderError?: (error: unknown, entry: KindRecordingEntry) => void;
  /** Called when a listener throws; the event stands. Default: `console.error`. */
  onListenerError?: (error: unknown) => void;
  /** What runs the machine. Default as for sessions: the compiled table. */
  executor?: Executor;
}

/** A running machine of a kind. See {@link createKindSession}. */
export interface KindSession<C = unknown, E extends { type: string } = { type: string }> {
  readonly id: string;
  readonly state: string;
  readonly context: Readonly<C>;
  /**
   * Checks the event against the kind's event schemas, then sends it.
   * @throws {KindSessionError} naming the bad field; nothing was sent.
   */
  send(event: E): MachineStep<C>;
  /** Calls the listener after every event; returns its removal. A listener's error never reaches `send`. */
  subscribe(listener: (session: KindSession<C, E>) => void): () => void;
  persist(): KindSnapshot;
}

class Session<C, E extends { type: string }>
  extends SessionShell<C, E, KindRecordingEntry, KindSession<C, E>>
  implements KindSession<C, E>
{
  constructor(
    id: string,
    private readonly kind: AnyMachineKind,
    runner: MachineRunner<C, E>,
    options: KindSessionOptions,
    start: NonNullable<KindRecordingEntry['start']>,
  ) {
    super(id, runner, options, firstTime(options.now));
    this.record({ start, after: runner.state.value }, this.time);
  }
  get state() {
    return this.runner.state.value;
  }
  get context() {
    return this.runner.state.context;
  }
  send(event: E): MachineStep<C> {
    const parsed = safeParseInput(this.kind.events, event);
    if (!parsed.success) {
      const issues = issuesOf(parsed.error);
      throw new KindSessionError(`${this.kind.name}: invalid event: ${formatIssues(issues)}`, issues);
    }
    const { before, after, actions } = this.step(parsed.data as E);
    this.record({
      event: parsed.data as E,
      before: before.value,
      after: after.value,
      actions: actions.map((a) => a.type),
    });
    this.notify(this);
    return { state: after, actions };
  }
  subscribe(listener: (session: KindSession<C, E>) => void): () => void {
    if (typeof listener !== 'function') throw new KindSessionError('subscribe: listener: expected a function');
    return this.listen(listener);
  }
  persist(): KindSnapshot {
    return {
      format: 'assistant-safety/kind-session',
      kind: this.kind.name,
      version: this.kind.snapshot.version,
      id: this.id,
      state: this.runner.state.value,
      context: structuredClone(this.runner.state.context),
    };
  }
  private record(part: Omit<KindRecordingEntry, 'v' | 'session' | 'seq' | 'at' | 'context'>, at = this.clock()): void {
    if (!this.recording) return;
    this.emit({
      v: 1,
      session: this.id,
      seq: this.seq++,
      at,
      ...part,
      context: this.kind.recorded(this.runner.state.context as object),
    });
  }
}

/** A kind session's first time: its clock's first reading, which must be finite epoch milliseconds. */
function firstTime(now: unknown = Date.now): number {
  const t = typeof now === 'function' ? readingOf(now as () => number) : undefined;
  if (t === undefined) throw new KindSessionError('options.now: expected a clock giving finite epoch milliseconds');
  return t;
}

/**
 * Starts a session of any machine kind, from the kind's input.
 *
 * @example
 * const door = createKindSession(doorKind, createMachineOfKind(doorKind, doorJson), { hasKey: true });
 * door.send({ type: 'OPEN' }).state.value; // 'OPEN'
 */
export function createKindSession<C, E extends { type: string }>(
  kind: AnyMachineKind,
  machine: AnyStateMachine,
  input?: unknown,
  options: KindSessionOptions = {},
): KindSession<C, E> {
  const runner = createMachineRunner<C, E>(kind, machine, { input }, executorOf(machine, options));
  return new Session(options.id ?? globalThis.crypto.randomUUID(), kind, runner, options, { input: input ?? null });
}

/**
 * Restores a kind session from `persist()` output: the kind and format checked, older versions
 * migrated with the kind's migrations, the context checked against the kind's context schema.
 *
 * @throws {KindSessionError} naming what is wrong.
 * @example
 * const again = restoreKindSession(doorKind, machine, JSON.parse(JSON.stringify(door.persist())));
 */
export function restoreKindSession<C, E extends { type: string }>(
  kind: AnyMachineKind,
  machine: AnyStateMachine,
  snapshot: unknown,
  options: KindSessionOptions = {},
): KindSession<C, E> {
  // Read once, as JSON: a getter that throws or a hostile Proxy is the kind's error, not a raw one.
  let plain: unknown;
  try {
    plain = typeof snapshot === 'string' ? JSON.parse(snapshot) : JSON.parse(JSON.stringify(snapshot) ?? 'null');
  } catch (e) {
    throw new KindSessionError(`invalid snapshot: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = safeParseInput(KindSnapshot, plain);
  if (!parsed.success) {
    const issues = issuesOf(parsed.error);
    throw new KindSessionError(`invalid snapshot: ${formatIssues(issues)}`, issues);
  }
  let value = parsed.data as KindSnapshot & Record<string, unknown>;
  if (value.kind !== kind.name)
    throw new KindSessionError(`invalid snapshot: kind: expected "${kind.name}", got ${JSON.stringify(value.kind)}`);
  value = migrateSnapshot(
    value,
    kind.snapshot,
    (version) =>
      new KindSessionError(
        `unsupported snapshot version ${JSON.stringify(version)} of kind "${kind.name}": this build reads versions up to ${kind.snapshot.version}`,
      ),
  );
  const context = safeParseInput(kind.context, value.context);
  if (!context.success) {
    const issues = issuesOf(context.error).map((i) => ({ ...i, path: ['context', ...i.path] }));
    throw new KindSessionError(`invalid snapshot: ${formatIssues(issues)}`, issues);
  }
  const broken = kind.snapshot.check?.(value.state, context.data) ?? [];
  if (broken.length > 0) {
    const issues = broken.map((i) => ({ code: 'custom', ...i }));
    throw new KindSessionError(`invalid snapshot: ${formatIssues(issues)}`, issues);
  }
  let runner: MachineRunner<C, E>;
  try {
    runner = createMachineRunner<C, E>(
      kind,
      machine,
      { state: { value: value.state, context: context.data as C } },
      executorOf(machine, options),
    );
  } catch (e) {
    throw new KindSessionError(`invalid snapshot: state: ${(e as Error).message}`);
  }
  return new Session(options.id ?? value.id, kind, runner, options, { snapshot: value });
}

/** The executor named, else the default; the compiled table named for a machine it cannot run is refused. */
function executorOf(machine: AnyStateMachine, options: KindSessionOptions): Executor {
  const why = options.executor === 'compiled' ? compiledUnavailable(machine) : undefined;
  if (why !== undefined) throw new KindSessionError(`executor "compiled" cannot run this machine: ${why}`);
  return options.executor ?? defaultExecutor();
}

/** Where a replayed entry disagreed with its recording. */
export interface KindDivergence {
  index: number;
  session: string;
  seq: number;
  field: 'before' | 'after' | 'actions' | 'context' | 'error';
  recorded: unknown;
  actual: unknown;
}

/**
 * Replays a kind session's recording on a machine of the kind: each session started as recorded,
 * each event sent again, the state before and after, the actions and the recorded projection
 * compared. An entry that is not one (or an event the kind does not accept) is a divergence.
 *
 * @example
 * replayKindRecording(doorKind, machine, recorded).divergences; // [] when the machine decides the same
 */
export function replayKindRecording(
  kind: AnyMachineKind,
  machine: AnyStateMachine,
  entries: readonly unknown[],
  options: Pick<KindSessionOptions, 'executor'> = {},
): { count: number; divergences: KindDivergence[]; sessions: Record<string, string> } {
  const sessions = new Map<string, KindSession>();
  const divergences: KindDivergence[] = [];
  entries.forEach((raw, index) => {
    const parsed = safeParseInput(KindRecordingEntry, raw);
    if (!parsed.success) {
      divergences.push({
        index,
        session: '',
        seq: -1,
        field: 'error',
        recorded: raw,
        actual: formatIssues(issuesOf(parsed.error)),
      });
      return;
    }
    const entry = parsed.data;
    const diverge = (field: KindDivergence['field'], recorded: unknown, actual: unknown) =>
      divergences.push({ index, session: entry.session, seq: entry.seq, field, recorded, actual });
    try {
      let session = sessions.get(entry.session);
      if (entry.start !== undefined) {
        const opts = { id: entry.session, ...options };
        session =
          'snapshot' in entry.start
            ? restoreKindSession(kind, machine, entry.start.snapshot, opts)
            : createKindSession(kind, machine, entry.start.input ?? undefined, opts);
        sessions.set(entry.session, session);
      } else {
        if (!session) throw new KindSessionError(`session ${JSON.stringify(entry.session)} has no start entry`);
        if (session.state !== entry.before) diverge('before', entry.before, session.state);
        const step = session.send(entry.event as { type: string });
        const actions = step.actions.map((a) => a.type);
        if (JSON.stringify(actions) !== JSON.stringify(entry.actions ?? [])) diverge('actions', entry.actions, actions);
      }
      if (session.state !== entry.after) diverge('after', entry.after, session.state);
      const context = kind.recorded(session.context);
      if (JSON.stringify(context) !== JSON.stringify(entry.context)) diverge('context', entry.context, context);
    } catch (e) {
      diverge('error', null, (e as Error).message);
    }
  });
  return {
    count: entries.length,
    divergences,
    sessions: Object.fromEntries([...sessions].map(([id, s]) => [id, s.state])),
  };
}
