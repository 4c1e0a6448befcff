import type { MachineRunner, MachineState, MachineStep, NamedAction } from './MachineRunner.js';

/*
 * The shell every session shares, whatever its kind: a runner stepped one event at a time, a clock
 * that never goes backwards, a numbered recording whose recorder cannot change a decision, and
 * listeners told after each step whose errors are reported, not thrown. The kind session adds
 * checked events on it; the safety session its call vocabulary (checks, lifecycle, recoveries,
 * attestations). Neither repeats any of this.
 */

/** What the shell takes from a session's options. */
export interface SessionShellOptions<Entry> {
  /** Clock, epoch milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Receives one entry per start and per call or event. */
  recorder?: { record(entry: Entry): void };
  /** Called when the recorder throws; the decision stands. Default: `console.error`. */
  onRecorderError?: (error: unknown, entry: Entry) => void;
  /** Called when a listener throws; the decision stands. Default: `console.error`. */
  onListenerError?: (error: unknown) => void;
}

/** One step as the shell saw it: where the machine was, where it is, and what it ran. */
export interface ShellStep<C> {
  before: MachineState<C>;
  after: MachineState<C>;
  actions: readonly NamedAction[];
}

/** Reads a clock once: a finite number, or undefined for anything else (NaN, a string, a bigint, a throw). */
function readingOf(now: () => number): number | undefined {
  let t: unknown;
  try {
    t = now();
  } catch {
    return undefined;
  }
  return typeof t === 'number' && Number.isFinite(t) ? t : undefined;
}

/** Where a session's warnings go when its options name no `onWarning`: the console, marked as ours. */
export const warnOnConsole = (message: string): void => console.warn(`assistant-safety: ${message}`);

/** A session's first time: its clock's first reading, which must be finite epoch milliseconds. `fail` words the error. */
export function firstReading(now: unknown, fail: (message: string) => Error): number {
  if (typeof now !== 'function') throw fail(`expected a function, got ${typeof now}`);
  const first = readingOf(now as () => number);
  if (first === undefined) throw fail('the clock must return finite epoch milliseconds (a number)');
  return first;
}

/** Calls an error handler; a handler that throws too is not allowed to change anything either. */
export function report(handler: (error: unknown) => void, error: unknown): void {
  try {
    handler(error);
  } catch {
    // Nothing left to tell: the decision stands.
  }
}

/**
 * The shell a session class extends. `Self` is what listeners receive (the session's public face).
 */
export abstract class SessionShell<C, E extends { type: string }, Entry, Self> {
  protected seq = 0;
  /** Session time: the latest good clock reading. It never goes backwards; a bad reading leaves it as it is. */
  private latest: number;
  private readonly now: () => number;
  /** Made at the first `subscribe`: most sessions never have a listener, and a restore makes one session per call. */
  private listeners: Set<(session: Self) => void> | undefined;

  /** `time` is the session's first time (a restore's is never below what its snapshot mentions). */
  protected constructor(
    readonly id: string,
    protected readonly runner: MachineRunner<C, E>,
    private readonly shell: SessionShellOptions<Entry>,
    time: number,
  ) {
    this.now = shell.now ?? Date.now;
    this.latest = time;
  }

  /** The session's time now (the clock read again): see {@link SessionShell.latest}. */
  protected clock(): number {
    const t = readingOf(this.now);
    if (t !== undefined && t > this.latest) this.latest = t;
    return this.latest;
  }

  /** The session's time as last read, without reading the clock. */
  protected get time(): number {
    return this.latest;
  }

  /**
   * Sends one event. `idleLikely` marks an event that usually takes no transition (an allowed
   * check): on XState, its own `can` (transition selection and guards, no microstep, no snapshot)
   * costs a quarter of a send, so a send that could not change anything is skipped. The compiled
   * table's step is that cheap already.
   */
  protected step(event: E, idleLikely = false): ShellStep<C> {
    const before = this.runner.state;
    if (idleLikely && this.runner.executor === 'xstate' && !this.runner.can(event))
      return { before, after: before, actions: [] };
    let step: MachineStep<C>;
    try {
      step = this.runner.send(event);
    } catch (error) {
      throw new Error(`assistant-safety: the machine failed on ${event.type}: ${String(error)}`, { cause: error });
    }
    return { before, after: step.state, actions: step.actions };
  }

  /** Hands an entry to the recorder (if any); its error goes to `onRecorderError`, never to the caller. */
  protected emit(entry: Entry): void {
    const recorder = this.shell.recorder;
    if (!recorder) return;
    try {
      recorder.record(entry);
    } catch (error) {
      const onError =
        this.shell.onRecorderError ?? ((e: unknown) => console.error('assistant-safety: recorder failed:', e));
      report((e) => onError(e, entry), error);
    }
  }

  /** Whether entries are wanted: building one costs, so a session without a recorder skips it. */
  protected get recording(): boolean {
    return this.shell.recorder !== undefined;
  }

  /** Tells every listener; one that throws is reported and the others still hear. */
  protected notify(self: Self): void {
    if (this.listeners === undefined || this.listeners.size === 0) return; // no iterator for the usual session
    const onError = this.shell.onListenerError ?? ((e) => console.error('assistant-safety: listener failed:', e));
    for (const listener of this.listeners) {
      try {
        listener(self);
      } catch (error) {
        report(onError, error);
      }
    }
  }

  /** Adds a listener called after every call or event; returns its removal. */
  protected listen(listener: (session: Self) => void): () => void {
    const listeners = (this.listeners ??= new Set());
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }
}
