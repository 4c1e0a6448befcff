import type { SafetyMachine } from 'assistant-safety';
import type { MachineDefinition } from 'assistant-safety';
import { summariseContext, type RecordingEntry } from 'assistant-safety';
import { applyCall, type CallOutcome, type Divergence } from 'assistant-safety';
import type { PendingRecovery, SafetyContext } from 'assistant-safety';
import { createSafetySession, restoreSafetySession, type SafetySession } from 'assistant-safety';
import { eventOfCall } from 'assistant-safety';
import { transitionTaken } from './transitionTaken.js';

/*
 * An incremental replay of a recording against the current machine: feed it
 * entries in chunks (a 100,000-event file is analysed in slices between
 * frames; a live session one message at a time) and it keeps, per entry,
 * the transition taken, the full context after it, and every divergence
 * from what was recorded. The comparison follows the core's
 * `replayRecording` field by field (a test holds them to the same answers).
 */

/** What the replay knows about one entry. */
export interface StepDetail {
  transition: string | undefined;
  /** The replayed session's context after the entry. */
  context: SafetyContext | undefined;
}

const sameJSON = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export class Analyzer {
  /** How many entries have been analysed. */
  done = 0;
  readonly divergences: Divergence[] = [];
  private readonly byIndex = new Map<number, Divergence[]>();
  private readonly transitions: (string | undefined)[] = [];
  private readonly contexts: (SafetyContext | undefined)[] = [];
  private readonly sessions = new Map<string, SafetySession>();
  private clock = 0;
  private readonly now = () => this.clock;

  constructor(
    private readonly definition: MachineDefinition,
    private readonly machine: SafetyMachine,
  ) {}

  /** Analyses the next entries (those after the `done` first of the list). */
  push(entries: readonly RecordingEntry[], upTo = entries.length): void {
    for (let index = this.done; index < upTo; index++) this.step(entries[index]!, index);
    this.done = Math.max(this.done, upTo);
  }

  divergencesAt(index: number): readonly Divergence[] {
    return this.byIndex.get(index) ?? [];
  }

  detailAt(index: number): StepDetail | undefined {
    if (index >= this.done) return undefined;
    return { transition: this.transitions[index], context: this.contexts[index] };
  }

  /** Pending recoveries live at `at`, from the context after entry `index`. */
  recoveriesAt(index: number, at: number): readonly PendingRecovery[] | undefined {
    const context = this.contexts[index];
    if (!context || index >= this.done) return undefined;
    return context.pendingRecoveries.filter((r) => at - r.createdAt <= context.config.recoveryTtlMs);
  }

  private step(entry: RecordingEntry, index: number): void {
    this.clock = entry.at;
    const diverge = (field: Divergence['field'], recorded: unknown, actual: unknown) => {
      const d: Divergence = { index, session: entry.session, seq: entry.seq, field, recorded, actual };
      this.divergences.push(d);
      const list = this.byIndex.get(index);
      if (list) list.push(d);
      else this.byIndex.set(index, [d]);
    };
    const base = { id: entry.session, now: this.now, machine: this.machine };
    this.transitions[index] = undefined;

    if (entry.call.type === 'create' || entry.call.type === 'restore') {
      try {
        const session =
          entry.call.type === 'create'
            ? createSafetySession({ ...base, ...entry.call.config })
            : restoreSafetySession(entry.call.snapshot, base);
        this.sessions.set(entry.session, session);
        if (session.state !== entry.after) diverge('after', entry.after, session.state);
        this.contexts[index] = session.context;
      } catch (e) {
        diverge('error', null, (e as Error).message);
        this.contexts[index] = undefined;
      }
      return;
    }
    let session = this.sessions.get(entry.session);
    if (!session) {
      // A recording that starts mid-session (a cut file): replay from a fresh default session.
      session = createSafetySession(base);
      this.sessions.set(entry.session, session);
    }
    if (session.state !== entry.before) diverge('before', entry.before, session.state);
    const event = eventOfCall(entry.call, entry.at, session.context);
    if (event) this.transitions[index] = transitionTaken(this.definition, session.state, session.context, event);
    let outcome: CallOutcome;
    try {
      outcome = applyCall(session, entry.call);
    } catch (e) {
      diverge('error', null, (e as Error).message);
      this.contexts[index] = session.context;
      return;
    }
    this.contexts[index] = session.context;
    if (outcome.decision !== entry.decision) diverge('decision', entry.decision, outcome.decision);
    if (outcome.reasonCode !== entry.reasonCode) diverge('reasonCode', entry.reasonCode, outcome.reasonCode);
    if (outcome.result !== entry.result) diverge('result', entry.result, outcome.result);
    if (session.state !== entry.after) diverge('after', entry.after, session.state);
    const summary = summariseContext(session.context);
    if (!sameJSON(summary, entry.context)) diverge('context', entry.context, summary);
  }
}
