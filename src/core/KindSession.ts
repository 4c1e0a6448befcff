import * as z from 'zod/mini';
import type { AnyStateMachine } from 'xstate';
import { formatIssues, issuesOf, IssueError, safeParseInput, type Issue } from './Issue.js';
import type { AnyMachineKind } from './MachineKind.js';
import {
  createMachineRunner,
  executorFor,
  type Executor,
  type MachineRunner,
  type MachineStep,
} from './MachineRunner.js';
import { firstReading, SessionShell, warnOnConsole } from './SessionShell.js';
import { readSnapshot } from './readSnapshot.js';
import { RecordingHeader } from './RecordingHeader.js';
import { argumentProblem, keysOf } from './knownKeys.js';
import { createReplayer, type ReplayDivergence, type ReplayerOptions } from './createReplayer.js';

/*
 * The session of any machine kind: its events checked against the kind's schemas, run on the
 * compiled table (or XState), recorded with the kind's recorded projection, persisted with the
 * kind's snapshot version and migrations, and replayed. Nothing here names a state, an event or a
 * context field: a kind and its JSON are all it needs. The safety machine's `SafetySession` adds
 * its call vocabulary (checks, lifecycle, recoveries, attestations) on the same runner.
 */

const KIND_SNAPSHOT_FORMAT = 'assistant-safety/kind-session';

/** The snapshot of a kind session: plain JSON, versioned by the kind. */
export const KindSnapshot = z.strictObject({
  format: z.literal(KIND_SNAPSHOT_FORMAT),
  kind: z.string().check(z.minLength(1)),
  version: z.int().check(z.nonnegative()),
  id: z.string().check(z.minLength(1)),
  state: z.string().check(z.minLength(1)),
  context: z.unknown(),
});
export type KindSnapshot = z.infer<typeof KindSnapshot>;

/** One line of a kind session's recording: how it started, or one event and what it did. */
export const KindRecordingEntry = z.strictObject({
  ...RecordingHeader,
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
  /** What runs the machine. Default as for sessions: the compiled table (XState, with a warning, for a machine it cannot run). */
  executor?: Executor;
  /** Told why a machine runs on XState instead of the compiled table, once per machine. Default: `console.warn`. */
  onWarning?: (message: string) => void;
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
    super(
      id,
      runner,
      options,
      firstReading(options.now ?? Date.now, (m) => new KindSessionError(`options.now: ${m}`)),
    );
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
      format: KIND_SNAPSHOT_FORMAT,
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

const OPTION_KEYS = keysOf<KindSessionOptions>({
  id: true,
  now: true,
  recorder: true,
  onRecorderError: true,
  onListenerError: true,
  executor: true,
  onWarning: true,
});

/**
 * Refuses what would make the options mean something else than they say: a polluted
 * `Object.prototype` (every object would lend the fields it lacks), an option the session does not
 * have (a misspelling is never a silent default), options that throw when read.
 */
function checkOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null)
    throw new KindSessionError(`options: expected an object, got ${options === null ? 'null' : typeof options}`);
  const problem = argumentProblem('options', options, OPTION_KEYS);
  if (problem === undefined) return;
  const issues =
    problem.key === undefined
      ? []
      : [{ code: 'unrecognized_keys', path: ['options', problem.key], message: problem.message }];
  throw new KindSessionError(`${problem.path}: ${problem.message}`, issues);
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
  checkOptions(options);
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
  checkOptions(options);
  const refuse = (issues: Issue[]) => new KindSessionError(`invalid snapshot: ${formatIssues(issues)}`, issues);
  const read = readSnapshot(
    snapshot,
    { format: KIND_SNAPSHOT_FORMAT, kind: kind.name, ...kind.snapshot },
    (message) => new KindSessionError(message),
  );
  const parsed = safeParseInput(KindSnapshot, read);
  if (!parsed.success) throw refuse(issuesOf(parsed.error));
  const value = parsed.data;
  const context = safeParseInput(kind.context, value.context);
  if (!context.success) throw refuse(issuesOf(context.error).map((i) => ({ ...i, path: ['context', ...i.path] })));
  const broken = kind.snapshot.check?.(value.state, context.data) ?? [];
  if (broken.length > 0) throw refuse(broken.map((i) => ({ code: 'custom', ...i })));
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

/** The session's executor (see {@link executorFor}): its errors are the kind session's. */
function executorOf(machine: AnyStateMachine, options: KindSessionOptions): Executor {
  return executorFor(
    machine,
    options.executor,
    (message) => new KindSessionError(`options.executor: ${message}`),
    options.onWarning ?? warnOnConsole,
  );
}

/** Where a replayed entry disagreed with its recording. */
export type KindDivergence = ReplayDivergence<'before' | 'after' | 'actions' | 'context' | 'error'>;

/**
 * Replays a kind session's recording on a machine of the kind, with the replayer every kind shares:
 * each session started as recorded, each event sent again on the recorded clock, the state before
 * and after, the actions and the recorded projection compared. An entry that is not one (or an event
 * the kind does not accept) is a divergence.
 *
 * @example
 * replayKindRecording(doorKind, machine, recorded).divergences; // [] when the machine decides the same
 */
export function replayKindRecording(
  kind: AnyMachineKind,
  machine: AnyStateMachine,
  entries: readonly unknown[],
  options: Pick<KindSessionOptions, 'executor'> & Pick<ReplayerOptions<unknown, string>, 'maxLiveSessions'> = {},
): { count: number; divergences: KindDivergence[]; sessions: Record<string, string> } {
  const { maxLiveSessions, executor } = options;
  const optionsOf = (o: { id: string; now: () => number }) => (executor === undefined ? o : { ...o, executor });
  const replayer = createReplayer<KindSession, KindRecordingEntry, KindDivergence['field']>(
    {
      read: (raw) => {
        const parsed = safeParseInput(KindRecordingEntry, raw);
        if (parsed.success) return parsed.data;
        throw new KindSessionError(formatIssues(issuesOf(parsed.error)));
      },
      start: ({ start }, o) => {
        if (start === undefined) return undefined;
        return 'snapshot' in start
          ? restoreKindSession(kind, machine, start.snapshot, optionsOf(o))
          : createKindSession(kind, machine, start.input ?? undefined, optionsOf(o));
      },
      orphan: (entry) => {
        throw new KindSessionError(`session ${JSON.stringify(entry.session)} has no start entry`);
      },
      step: (session, entry, diverge) => {
        const actions = session.send(entry.event as { type: string }).actions.map((a) => a.type);
        if (JSON.stringify(actions) !== JSON.stringify(entry.actions ?? [])) diverge('actions', entry.actions, actions);
      },
      contextMatches: (session, entry) =>
        JSON.stringify(kind.recorded(session.context)) === JSON.stringify(entry.context),
      summary: (session) => kind.recorded(session.context),
      persist: (session) => session.persist(),
      restore: (snapshot, o) => restoreKindSession(kind, machine, snapshot, optionsOf(o)),
    },
    { keepDivergences: Infinity, ...(maxLiveSessions !== undefined && { maxLiveSessions }) },
  );
  for (const entry of entries) replayer.push(entry);
  return { count: replayer.count, divergences: replayer.divergences(), sessions: replayer.sessions() };
}
