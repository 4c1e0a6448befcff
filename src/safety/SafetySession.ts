import type { SafetyMachine } from './createSafetyMachine.js';
import { createMachineRunner, executorFor, type MachineState, type NamedAction } from '../core/MachineRunner.js';
import { firstReading, report, SessionShell, warnOnConsole, type ShellStep } from '../core/SessionShell.js';
import type { FSMBlockedError } from './FSMBlockedError.js';
import { blockedErrorOf, blockOf } from './stepBlock.js';
import { persistedSessionOf, type PersistedSession } from './PersistedSession.js';
import { recordingEntryOf, type RecordedCall } from './RecordingEntry.js';
import { SafetyReadings } from './SafetyReadings.js';
import type { SafetyConfig, PendingRecovery, SafetyContext } from './SafetyContext.js';
import { eventOfCall } from './eventOfCall.js';
import type { SafetyEvent } from './SafetyEvent.js';
import { safetyMachine } from './safetyMachine.js';
import { safetyMachineKind } from './safetyMachineKind.js';
import type { BlockReasonCode, ToolKind } from './toolKind.js';
import {
  callOf,
  checkId,
  checkObject,
  describe,
  SafetyInputError,
  validCall,
  refusePolluted,
  checkOptions,
  startCallOf,
  endCallOf,
} from './sessionInput.js';
import { configFrom, latestTimeOf, overridesConfig, snapshotToRestore } from './sessionSnapshot.js';
import type {
  CallOutcome,
  SafetySession,
  SafetySessionOptions,
  ToolCallEnd,
  ToolCallStart,
  LoopBlock,
  TargetSource,
} from './SafetySessionTypes.js';

export { SafetyInputError } from './sessionInput.js';

/** Blocks for a missing target, with no resolve or read ever seen, after which the session warns. */
const NO_DISCOVERY_BLOCKS = 3;

/** The warning (and recording note) of a session whose every call is a write: usually a missing classification. */
const NO_DISCOVERY_WARNING =
  'no tool was classified as resolve or read, so every write is blocked for a missing target; see docs/classification.md';

const VERIFY_PENDING_WARNING =
  'a write was blocked although a read after the last write landed: a bare session completes the verification only when completeVerification() is called (finishToolCall() calls it as the read ends, as the tool loop and the integrations do); see docs/behaviour.md';

type Snapshot = MachineState<SafetyContext>;

/** An outcome, plus the recovery a `checkRecoverySuccess` took (its method returns it whole). */
interface Outcome extends CallOutcome {
  taken?: PendingRecovery;
}

class Session extends SafetyReadings implements SafetySession {
  private readonly onWarning: (message: string) => void;
  /** For the misconfiguration warning: a resolve or read was seen; blocks for a missing target so far. */
  private sawDiscovery: boolean;
  private noTargetBlocks = 0;
  private warnedVerifyPending = false;
  private blockStreak: number;

  constructor(
    id: string,
    machine: SafetyMachine,
    options: SafetySessionOptions,
    start: { config: SafetyConfig } | { snapshot: PersistedSession },
  ) {
    const first = firstReading(options.now ?? Date.now, (m) => new SafetyInputError('options.now', m));
    const onWarning = options.onWarning ?? warnOnConsole;
    const executor = executorFor(
      machine,
      options.executor,
      (message) => new SafetyInputError('options.executor', message),
      onWarning,
    );
    const runner = createMachineRunner<SafetyContext, SafetyEvent>(
      safetyMachineKind,
      machine,
      'config' in start
        ? { input: { config: start.config } }
        : { state: { value: start.snapshot.state, context: start.snapshot.context } },
      executor,
    );
    super(id, runner, options, 'config' in start ? first : Math.max(first, latestTimeOf(start.snapshot.context)));
    this.onWarning = onWarning;
    this.sawDiscovery = 'snapshot' in start && start.snapshot.state !== 'RESOLVING';
    this.blockStreak = 'snapshot' in start ? start.snapshot.blockStreak : 0;
    if (this.recording) {
      const call: RecordedCall =
        'config' in start ? { type: 'create', config: start.config } : { type: 'restore', snapshot: start.snapshot };
      this.record(this.time, call, this.snap, { decision: 'applied' });
    }
  }

  // ---- compatible API ----

  canExecuteTool(kind: ToolKind, toolName: string, targets?: string[]): FSMBlockedError | null {
    return this.run(callOf.compatible('canExecuteTool', kind, toolName, targets)).blocked ?? null;
  }

  onToolSuccess(kind: ToolKind, toolName: string, targets?: string[]): void {
    this.run(callOf.compatible('onToolSuccess', kind, toolName, targets));
  }

  canFinalAnswer(): FSMBlockedError | null {
    return this.run({ type: 'canFinalAnswer' }).blocked ?? null;
  }

  completeVerification(): void {
    this.run({ type: 'completeVerification' });
  }

  targetEstablished(options?: { targets?: string[]; source?: TargetSource }): void {
    this.run(callOf.targetEstablished(options));
  }

  userMessage(text: string, options?: { source?: 'user' | 'system' }): void {
    this.run(callOf.userMessage(text, options));
  }

  attest(block: FSMBlockedError, attestation: { by: string; note?: string }): boolean {
    const call = callOf.attest(block, attestation);
    return call !== undefined && this.run(call).decision === 'applied';
  }

  reset(): void {
    this.run({ type: 'reset' });
  }

  resetKeepProgress(): void {
    this.run({ type: 'resetKeepProgress' });
  }

  trackPendingRecovery(errorCode: string, toolName: string): string {
    return this.run(callOf.trackPendingRecovery(errorCode, toolName)).result ?? '';
  }

  checkRecoverySuccess(toolName: string): PendingRecovery | undefined {
    return this.run(callOf.checkRecoverySuccess(toolName)).taken;
  }

  // ---- call-lifecycle API ----

  beginToolCall(call: ToolCallStart): FSMBlockedError | null {
    return this.run(startCallOf(call), 'beginToolCall').blocked ?? null;
  }

  can(call: ToolCallStart): FSMBlockedError | null {
    const start = startCallOf(call, 'can') as Extract<RecordedCall, { type: 'beginToolCall' }>;
    this.notInFlight(start.id, 'can'); // the copy startCallOf checked, never the caller's object again
    const event = this.eventOf(start, this.clock());
    const { state, actions } = this.runner.peek(event);
    const action = blockOf(actions);
    if (action === undefined || this.snap.context.config.mode === 'shadow') return null;
    return blockedErrorOf(event, this.snap, state, action.reasonCode, this.blockStreak + 1);
  }

  endToolCall(result: ToolCallEnd): void {
    this.run(endCallOf(result), 'endToolCall');
  }

  recordLoopBlock(block: LoopBlock): void {
    this.run(callOf.recordLoopBlock(block));
  }

  perform(call: RecordedCall): CallOutcome {
    checkObject('perform: call', call);
    const outcome = this.run(validCall('perform', call, {}, 'call'), 'perform');
    if (outcome.taken === undefined) return outcome; // no rest-spread copy on the replayer's hot path
    const { taken: _, ...rest } = outcome;
    return rest;
  }

  /**
   * Every call, whichever method it came through: the one place that decides
   * its outcome, tells the recorder and the listeners, and returns it.
   */
  private run(call: RecordedCall, method: string = call.type): Outcome {
    refusePolluted(method);
    if ('kind' in call && (call.kind === 'resolve' || call.kind === 'read') && call.type !== 'recordLoopBlock')
      this.sawDiscovery = true;
    switch (call.type) {
      case 'canExecuteTool':
      case 'canFinalAnswer':
        return this.decide(call);
      case 'beginToolCall':
        this.notInFlight(call.id, method);
        return this.decide(call);
      case 'endToolCall': {
        if (call.unknown === true && call.ok) {
          throw new SafetyInputError(
            `${method}: result.unknown`,
            'an unknown outcome is not a success: give ok: false',
          );
        }
        if (!this.inFlight(call.id)) {
          // Never begun, blocked, or already ended: nothing changes, but the recording says so.
          const outcome: Outcome = { decision: 'ignored', note: 'unknown_call' };
          this.finish(this.clock(), call, this.snap, this.snap, outcome);
          return outcome;
        }
        return this.apply(call);
      }
      case 'recordLoopBlock': {
        // The loop's decision, not the machine's: the machine is not asked and nothing changes.
        // In shadow mode the loop lets the call go on: a would-be block, as the machine's are.
        const outcome: Outcome =
          this.snap.context.config.mode === 'shadow'
            ? { decision: 'allowed', wouldBlock: call.code }
            : { decision: 'blocked', reasonCode: call.code };
        this.finish(this.clock(), call, this.snap, this.snap, outcome);
        return outcome;
      }
      case 'reset':
        this.blockStreak = 0;
        return this.apply(call);
      case 'trackPendingRecovery':
        // The machine's `trackRecovery` appends the recovery it tracks: its id is the result.
        return this.apply(call, (after, _at, actions) => {
          const id = actions.some((a) => a.type === 'trackRecovery')
            ? after.context.pendingRecoveries.at(-1)?.recoveryId
            : undefined;
          return id ? { result: id } : {};
        });
      case 'checkRecoverySuccess': {
        const before = this.snap.context;
        return this.apply(call, (after, at) => {
          const kept = new Set(after.context.pendingRecoveries.map((r) => r.recoveryId));
          const taken = before.pendingRecoveries.find(
            (r) => !kept.has(r.recoveryId) && at - r.createdAt <= before.config.recoveryTtlMs,
          );
          return taken ? { result: taken.recoveryId, taken } : {};
        });
      }
      case 'attest': {
        // Only evidence the machine has a use for is taken: otherwise nothing changes and the call says no.
        const event = this.eventOf(call, this.clock());
        if (!this.runner.can(event)) {
          const outcome: Outcome = { decision: 'ignored', note: 'not_attestable' };
          this.finish(this.clock(), call, this.snap, this.snap, outcome);
          return outcome;
        }
        return this.apply(call);
      }
      case 'create':
      case 'restore':
        throw new SafetyInputError(`${method}: call.type`, `"${call.type}" starts a session; it is not a call on one`);
      default:
        return this.apply(call);
    }
  }

  // ---- persistence and observation ----

  persist(): PersistedSession {
    return persistedSessionOf(this.id, this.state, this.snap.context, this.blockStreak);
  }

  subscribe(listener: (session: SafetySession) => void): () => void {
    if (typeof listener !== 'function')
      throw new SafetyInputError('subscribe: listener', `expected a function, got ${describe(listener)}`);
    return this.listen(listener);
  }

  // ---- internals ----

  /** Whether a call of this id was begun (gated or, in shadow mode, ungated) and has not ended. */
  private inFlight(id: string): boolean {
    return Object.hasOwn(this.snap.context.calls, id) || Object.hasOwn(this.snap.context.shadowCalls, id);
  }

  private notInFlight(id: string, method: string): void {
    if (this.inFlight(id))
      throw new SafetyInputError(`${method}: call.id`, `call ${JSON.stringify(id)} is already in flight`);
  }

  /** The event the call sends (one rule with the checker and the visualiser: {@link eventOfCall}). */
  private eventOf(call: RecordedCall, at: number): SafetyEvent {
    const event = eventOfCall(call, at, this.snap.context);
    if (!event) throw new Error(`assistant-safety: internal error: ${call.type} sends no event here`);
    return event;
  }

  /** Most checks are allowed, and an allowed check takes no transition (see {@link SessionShell.step}). */
  private send(event: SafetyEvent): ShellStep<SafetyContext> {
    return this.step(event, event.type === 'CHECK_TOOL' || event.type === 'CHECK_FINAL_ANSWER');
  }

  /** A check: allowed unless the transition the machine took for it ran a `block` action (the machine says so itself). */
  private decide(call: RecordedCall): Outcome {
    const at = this.clock();
    const event = this.eventOf(call, at);
    const { before, after, actions } = this.send(event);
    let outcome: Outcome = { decision: 'allowed' };
    const action = blockOf(actions);
    if (action !== undefined) {
      this.blockStreak += 1;
      const blocked = blockedErrorOf(event, before, after, action.reasonCode, this.blockStreak);
      outcome =
        this.snap.context.config.mode === 'shadow'
          ? this.runUngated(event, blocked.reasonCode)
          : { decision: 'blocked', reasonCode: blocked.reasonCode, blocked };
      if (
        blocked.reasonCode === 'NO_VALIDATED_TARGET' &&
        !this.sawDiscovery &&
        ++this.noTargetBlocks === NO_DISCOVERY_BLOCKS
      ) {
        outcome.note = NO_DISCOVERY_WARNING;
        report(() => this.onWarning(NO_DISCOVERY_WARNING), undefined);
      }
      // Evidence in and the block still there: the caller, not the model, has a step to take.
      if (blocked.reasonCode === 'UNVERIFIED_WRITE' && before.context.readAfterWrite && !this.warnedVerifyPending) {
        this.warnedVerifyPending = true;
        report(() => this.onWarning(VERIFY_PENDING_WARNING), undefined);
      }
    } else {
      this.blockStreak = 0;
    }
    // In shadow mode an ungated call was handed to the machine after the decision: record where it left it.
    this.finish(at, call, before, this.snap, outcome);
    return outcome;
  }

  /**
   * Shadow mode: the call the machine just blocked runs anyway. A begun call is handed to the
   * machine as ungated, so its outcome is applied as the compatible API applies one.
   */
  private runUngated(event: SafetyEvent, wouldBlock: BlockReasonCode): Outcome {
    if (event.type === 'BEGIN_CALL') this.send({ ...event, type: 'RUN_UNGATED' });
    return { decision: 'allowed', wouldBlock };
  }

  private apply(
    call: RecordedCall,
    extra?: (after: Snapshot, at: number, actions: readonly NamedAction[]) => Partial<Outcome>,
  ): Outcome {
    const at = this.clock();
    const { before, after, actions } = this.send(this.eventOf(call, at));
    const outcome: Outcome = { decision: 'applied', ...extra?.(after, at, actions) };
    this.finish(at, call, before, after, outcome);
    return outcome;
  }

  /** Tells the recorder and the listeners. Neither can change the outcome: their errors are reported, not thrown. */
  private finish(at: number, call: RecordedCall, before: Snapshot, after: Snapshot, outcome: Outcome): void {
    if (this.recording) this.record(at, call, before, outcome, after);
    this.notify(this);
  }

  private record(at: number, call: RecordedCall, before: Snapshot, outcome: Outcome, after: Snapshot = before): void {
    this.emit(recordingEntryOf(this.id, this.seq++, at, call, outcome, before, after));
  }
}

/**
 * Creates one agent session's safety gate: one long-lived XState actor that
 * every call of the session goes through.
 *
 * @example
 * const session = createSafetySession();
 * session.beginToolCall({ id: 'c1', kind: 'resolve', tool: 'find_vm' }); // null: allowed
 * session.endToolCall({ id: 'c1', ok: true });                            // RESOLVING -> READING
 * session.beginToolCall({ id: 'c2', kind: 'write', tool: 'restart_vm' }); // null: READING -> WRITING
 * session.endToolCall({ id: 'c2', ok: true });                            // -> VERIFYING
 * session.canFinalAnswer()?.reasonCode;                                   // 'FINAL_ANSWER_UNVERIFIED'
 */
export function createSafetySession(options: SafetySessionOptions = {}): SafetySession {
  checkOptions(options);
  const id = options.id ?? globalThis.crypto.randomUUID();
  checkId(id);
  return new Session(id, options.machine ?? safetyMachine, options, { config: configFrom(options) });
}

/**
 * Restores a session from `persist()` output (the object or its JSON text).
 * Settings given in `options` override the snapshot's.
 *
 * @throws {SnapshotError} naming the bad field, or the unsupported version.
 * @example
 * const saved = JSON.stringify(session.persist());
 * const again = restoreSafetySession(JSON.parse(saved), { now: clock });
 */
export function restoreSafetySession(persisted: unknown, options: SafetySessionOptions = {}): SafetySession {
  checkOptions(options);
  const snapshot = snapshotToRestore(persisted, options.onWarning);
  const config = overridesConfig(options) ? configFrom(options, snapshot.context.config) : snapshot.context.config;
  const id = options.id ?? snapshot.id;
  if (options.id !== undefined) checkId(id);
  // Both snapshots are the session's own objects already: change them only where options differ.
  if (id !== snapshot.id) snapshot.id = id;
  if (config !== snapshot.context.config) snapshot.context = { ...snapshot.context, config };
  return new Session(id, options.machine ?? safetyMachine, options, { snapshot });
}
