import type { SafetyMachine } from './createSafetyMachine.js';
import {
  createMachineRunner,
  type MachineRunner,
  type MachineState,
  type MachineStep,
  type NamedAction,
} from '../core/MachineRunner.js';
import type { FSMBlockedError } from './FSMBlockedError.js';
import { blockedErrorOf, blockOf } from './stepBlock.js';
import {
  parsePersistedSession,
  PERSISTED_SESSION_FORMAT,
  PERSISTED_SESSION_VERSION,
  type PersistedSession,
} from './PersistedSession.js';
import { RecordedCall, RecordingEntry, summariseContext, type SessionRecorder } from './RecordingEntry.js';
import { inFlightWriteOf, type SafetyConfig, type PendingRecovery, type SafetyContext } from './SafetyContext.js';
import { eventOfCall } from './eventOfCall.js';
import type { SafetyEvent } from './SafetyEvent.js';
import { safetyMachine } from './safetyMachine.js';
import { safetyMachineKind } from './safetyMachineKind.js';
import { BlockReasonCode, type SessionState, type ToolKind } from './toolKind.js';
import { evidenceFor } from './blockReasons.js';
import { safeParseInput } from '../core/Issue.js';
import {
  BLOCK_NAMES,
  checkId,
  checkObject,
  describe,
  PERFORM_NAMES,
  SafetyInputError,
  validCall,
  startCallOf,
  endCallOf,
} from './sessionInput.js';
import { copyWithChecksum } from '../core/snapshotChecksum.js';
import {
  executorFor,
  configFrom,
  latestTimeOf,
  overridesConfig,
  firstReading,
  readingOf,
  trustedSnapshot,
} from './sessionSnapshot.js';
import type {
  CallOutcome,
  SafetySession,
  SafetySessionOptions,
  ToolCallEnd,
  ToolCallStart,
  LoopBlock,
  TargetSource,
} from './SafetySessionTypes.js';

export type {
  CallOutcome,
  ExecutionProfile,
  GateMode,
  InFlightWrite,
  LoopBlock,
  SafetySession,
  SafetySessionOptions,
  TargetMode,
  TargetSource,
  ToolCallEnd,
  ToolCallStart,
} from './SafetySessionTypes.js';
export { SafetyInputError } from './sessionInput.js';

/** Blocks for a missing target, with no resolve or read ever seen, after which the session warns. */
const NO_DISCOVERY_BLOCKS = 3;

/** The warning (and recording note) of a session whose every call is a write: usually a missing classification. */
const NO_DISCOVERY_WARNING =
  'no tool was classified as resolve or read, so every write is blocked for a missing target; see docs/classification.md';

/** Calls an error handler; a handler that throws too is not allowed to change anything either. */
function report(handler: (error: unknown) => void, error: unknown): void {
  try {
    handler(error);
  } catch {
    // Nothing left to tell: the decision stands.
  }
}

type Snapshot = MachineState<SafetyContext>;

/** An outcome, plus the recovery a `checkRecoverySuccess` took (its method returns it whole). */
interface Outcome extends CallOutcome {
  taken?: PendingRecovery;
}

class Session implements SafetySession {
  readonly id: string;
  private readonly runner: MachineRunner<SafetyContext, SafetyEvent>;
  private readonly now: () => number;
  private readonly recorder: SessionRecorder | undefined;
  private readonly onRecorderError: (error: unknown, entry: RecordingEntry) => void;
  private readonly onListenerError: (error: unknown) => void;
  private readonly onWarning: (message: string) => void;
  /** For the misconfiguration warning: a resolve or read was seen; blocks for a missing target so far; warned. */
  private sawDiscovery = false;
  private noTargetBlocks = 0;
  private readonly listeners = new Set<(session: SafetySession) => void>();
  private snap: Snapshot;
  private seq = 0;
  private blockStreak: number;
  /** Session time: the latest good clock reading. It never goes backwards, and a bad reading leaves it as it is. */
  private time: number;

  constructor(
    id: string,
    machine: SafetyMachine,
    options: SafetySessionOptions,
    start: { config: SafetyConfig } | { snapshot: PersistedSession },
  ) {
    this.id = id;
    this.now = options.now ?? Date.now;
    const first = firstReading(this.now);
    this.time = 'config' in start ? first : Math.max(first, latestTimeOf(start.snapshot.context));
    this.recorder = options.recorder;
    this.onRecorderError = options.onRecorderError ?? ((e) => console.error('assistant-safety: recorder failed:', e));
    this.onListenerError = options.onListenerError ?? ((e) => console.error('assistant-safety: listener failed:', e));
    this.onWarning = options.onWarning ?? ((m) => console.warn(`assistant-safety: ${m}`));
    if ('snapshot' in start) this.sawDiscovery = start.snapshot.state !== 'RESOLVING';
    const executor = executorFor(machine, options.executor, this.onWarning);
    if ('config' in start) {
      this.runner = createMachineRunner(safetyMachineKind, machine, { input: { config: start.config } }, executor);
      this.blockStreak = 0;
    } else {
      const { state: value, context } = start.snapshot;
      this.runner = createMachineRunner(safetyMachineKind, machine, { state: { value, context } }, executor);
      this.blockStreak = start.snapshot.blockStreak;
    }
    this.snap = this.runner.state;
    if (this.recorder) {
      const call: RecordedCall =
        'config' in start ? { type: 'create', config: start.config } : { type: 'restore', snapshot: start.snapshot };
      this.record(this.time, call, this.snap, { decision: 'applied' });
    }
  }

  /** The session's time now: see {@link Session.time}. */
  private clock(): number {
    const t = readingOf(this.now);
    if (t !== undefined && t > this.time) this.time = t;
    return this.time;
  }

  // ---- reading ----

  get state(): SessionState {
    return this.snap.value as SessionState;
  }
  get context(): Readonly<SafetyContext> {
    return this.snap.context;
  }
  get wroteThisEpisode() {
    return this.snap.context.wroteThisEpisode;
  }
  get readAfterWrite() {
    return this.snap.context.readAfterWrite;
  }
  get consecutiveVerifyBlocks() {
    return this.snap.context.consecutiveVerifyBlocks;
  }
  get lastWriteTool() {
    return this.snap.context.lastWriteTool ?? undefined;
  }
  get lastWriteAt() {
    return this.snap.context.lastWriteAt ?? undefined;
  }
  get lastReadTool() {
    return this.snap.context.lastReadTool ?? undefined;
  }
  get lastReadAt() {
    return this.snap.context.lastReadAt ?? undefined;
  }
  get pendingRecoveries(): readonly PendingRecovery[] {
    const { pendingRecoveries, config } = this.snap.context;
    if (pendingRecoveries.length === 0) return pendingRecoveries;
    const now = this.clock();
    return pendingRecoveries.filter((r) => now - r.createdAt <= config.recoveryTtlMs);
  }
  get inFlightWrite() {
    return inFlightWriteOf(this.snap.context);
  }

  // ---- compatible API ----

  canExecuteTool(kind: ToolKind, toolName: string, targets?: string[]): FSMBlockedError | null {
    const call: RecordedCall = { type: 'canExecuteTool', kind, tool: toolName };
    if (targets !== undefined) call.targets = targets;
    return this.run(validCall('canExecuteTool', call, { tool: 'toolName' })).blocked ?? null;
  }

  onToolSuccess(kind: ToolKind, toolName: string, targets?: string[]): void {
    const call: RecordedCall = { type: 'onToolSuccess', kind, tool: toolName };
    if (targets !== undefined) call.targets = targets;
    this.run(validCall('onToolSuccess', call, { tool: 'toolName' }));
  }

  canFinalAnswer(): FSMBlockedError | null {
    return this.run({ type: 'canFinalAnswer' }).blocked ?? null;
  }

  completeVerification(): void {
    this.run({ type: 'completeVerification' });
  }

  targetEstablished(options?: { targets?: string[]; source?: TargetSource }): void {
    const call: RecordedCall = { type: 'targetEstablished' };
    if (options !== undefined) {
      checkObject('targetEstablished: options', options);
      if (options.targets !== undefined) call.targets = options.targets;
      if (options.source !== undefined) call.source = options.source;
    }
    this.run(validCall('targetEstablished', call, { targets: 'options.targets', source: 'options.source' }));
  }

  userMessage(text: string, options?: { source?: 'user' | 'system' }): void {
    const call: RecordedCall = { type: 'userMessage', text };
    if (options !== undefined) {
      checkObject('userMessage: options', options);
      if (options.source !== undefined) call.source = options.source;
    }
    this.run(validCall('userMessage', call, { source: 'options.source' }));
  }

  get validatedTargets(): readonly string[] {
    return this.snap.context.validatedTargets;
  }

  attest(block: FSMBlockedError, attestation: { by: string; note?: string }): boolean {
    checkObject('attest: block', block);
    checkObject('attest: attestation', attestation);
    const reasonCode = safeParseInput(BlockReasonCode, block.reasonCode);
    if (!reasonCode.success)
      throw new SafetyInputError(
        'attest: block.reasonCode',
        `expected a block reason code, got ${describe(block.reasonCode)}`,
      );
    const evidence = evidenceFor(reasonCode.data);
    if (evidence === undefined) return false; // a write in flight or a profile's refusal: nothing a person can supply
    const call: RecordedCall = { type: 'attest', reasonCode: reasonCode.data, evidence, by: attestation.by };
    if (evidence === 'target' && block.targets !== undefined && block.targets.length > 0)
      call.targets = [...block.targets];
    if (attestation.note !== undefined) call.note = attestation.note;
    if (typeof block.digest === 'string') call.digest = block.digest;
    return (
      this.run(validCall('attest', call, { by: 'attestation.by', note: 'attestation.note' })).decision === 'applied'
    );
  }

  reset(): void {
    this.run({ type: 'reset' });
  }

  resetKeepProgress(): void {
    this.run({ type: 'resetKeepProgress' });
  }

  trackPendingRecovery(errorCode: string, toolName: string): string {
    const call = validCall(
      'trackPendingRecovery',
      { type: 'trackPendingRecovery', errorCode, tool: toolName },
      { tool: 'toolName' },
    );
    return this.run(call).result ?? '';
  }

  checkRecoverySuccess(toolName: string): PendingRecovery | undefined {
    const call = validCall(
      'checkRecoverySuccess',
      { type: 'checkRecoverySuccess', tool: toolName },
      { tool: 'toolName' },
    );
    return this.run(call).taken;
  }

  // ---- call-lifecycle API ----

  beginToolCall(call: ToolCallStart): FSMBlockedError | null {
    return this.run(startCallOf(call), 'beginToolCall').blocked ?? null;
  }

  can(call: ToolCallStart): FSMBlockedError | null {
    const start = startCallOf(call, 'can');
    const { id } = call; // checked by startCallOf
    if (Object.hasOwn(this.snap.context.calls, id) || Object.hasOwn(this.snap.context.shadowCalls, id))
      throw new SafetyInputError('can: call.id', `call ${JSON.stringify(id)} is already in flight`);
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
    checkObject('recordLoopBlock: block', block);
    const { id, kind, tool, code } = block;
    this.run(validCall('recordLoopBlock', { type: 'recordLoopBlock', id, kind, tool, code }, BLOCK_NAMES));
  }

  perform(call: RecordedCall): CallOutcome {
    checkObject('perform: call', call);
    const outcome = this.run(validCall('perform', call, PERFORM_NAMES), 'perform');
    if (outcome.taken === undefined) return outcome; // no rest-spread copy on the replayer's hot path
    const { taken: _, ...rest } = outcome;
    return rest;
  }

  /**
   * Every call, whichever method it came through: the one place that decides
   * its outcome, tells the recorder and the listeners, and returns it.
   */
  private run(call: RecordedCall, method: string = call.type): Outcome {
    if ('kind' in call && (call.kind === 'resolve' || call.kind === 'read') && call.type !== 'recordLoopBlock')
      this.sawDiscovery = true;
    switch (call.type) {
      case 'canExecuteTool':
      case 'canFinalAnswer':
        return this.decide(call);
      case 'beginToolCall':
        if (Object.hasOwn(this.snap.context.calls, call.id) || Object.hasOwn(this.snap.context.shadowCalls, call.id)) {
          throw new SafetyInputError(`${method}: call.id`, `call ${JSON.stringify(call.id)} is already in flight`);
        }
        return this.decide(call);
      case 'endToolCall': {
        if (call.unknown === true && call.ok) {
          throw new SafetyInputError(
            `${method}: result.unknown`,
            'an unknown outcome is not a success: give ok: false',
          );
        }
        if (
          !Object.hasOwn(this.snap.context.calls, call.id) &&
          !Object.hasOwn(this.snap.context.shadowCalls, call.id)
        ) {
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
    // A deep copy keeps callers that mutate the result from reaching in; the same walk computes
    // the checksum that lets a restore of this snapshot skip the schema check. The id is left out
    // of the checksum: a restore may give the session another id anyway (`options.id`), and
    // snapshots of sessions in the same state then share a checksum (the replayer keeps one copy).
    const body = {
      format: PERSISTED_SESSION_FORMAT,
      version: PERSISTED_SESSION_VERSION,
      state: this.state,
      context: this.snap.context,
      blockStreak: this.blockStreak,
    } as const;
    const copied = copyWithChecksum(body);
    const { format, version, state, context, blockStreak } = copied?.copy ?? {
      ...body,
      context: structuredClone(body.context),
    };
    return {
      format,
      version,
      id: this.id,
      state,
      context,
      blockStreak,
      ...(copied && { checksum: copied.checksum }),
    };
  }

  subscribe(listener: (session: SafetySession) => void): () => void {
    if (typeof listener !== 'function')
      throw new SafetyInputError('subscribe: listener', `expected a function, got ${describe(listener)}`);
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  // ---- internals ----

  /** The event the call sends (one rule with the checker and the visualiser: {@link eventOfCall}). */
  private eventOf(call: RecordedCall, at: number): SafetyEvent {
    const event = eventOfCall(call, at, this.snap.context);
    if (!event) throw new Error(`assistant-safety: internal error: ${call.type} sends no event here`);
    return event;
  }

  private send(event: SafetyEvent): { before: Snapshot; after: Snapshot; actions: readonly NamedAction[] } {
    const before = this.snap;
    // Most checks are allowed, and an allowed check takes no transition. On XState, its own
    // `can` (transition selection and guards, no microstep, no snapshot) says so for a
    // quarter of a full send, so the session skips a send that could not change anything.
    // The compiled table's step is that cheap already.
    if (
      this.runner.executor === 'xstate' &&
      (event.type === 'CHECK_TOOL' || event.type === 'CHECK_FINAL_ANSWER') &&
      !this.runner.can(event)
    ) {
      return { before, after: before, actions: [] };
    }
    let step: MachineStep<SafetyContext>;
    try {
      step = this.runner.send(event);
    } catch (error) {
      throw new Error(`assistant-safety: the machine failed on ${event.type}: ${String(error)}`, { cause: error });
    }
    this.snap = step.state;
    return { before, after: step.state, actions: step.actions };
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
    if (this.recorder) this.record(at, call, before, outcome, after);
    if (this.listeners.size === 0) return; // no iterator for the usual session, which has no listener
    for (const listener of this.listeners) {
      try {
        listener(this);
      } catch (error) {
        report(this.onListenerError, error);
      }
    }
  }

  private record(at: number, call: RecordedCall, before: Snapshot, outcome: Outcome, after: Snapshot = before): void {
    // Field by field, in the recording's order (a literal with conditional spreads is slow to build).
    const entry = { v: 1, session: this.id, seq: this.seq++, at, call, decision: outcome.decision } as RecordingEntry;
    if (outcome.reasonCode !== undefined) entry.reasonCode = outcome.reasonCode;
    if (outcome.result !== undefined) entry.result = outcome.result;
    if (outcome.note !== undefined) entry.note = outcome.note;
    if (outcome.wouldBlock !== undefined) entry.wouldBlock = outcome.wouldBlock;
    entry.before = before.value as SessionState;
    entry.after = after.value as SessionState;
    entry.context = summariseContext(after.context);
    try {
      this.recorder!.record(entry);
    } catch (error) {
      report((e) => this.onRecorderError(e, entry), error);
    }
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
  const snapshot = trustedSnapshot(persisted) ?? parsePersistedSession(persisted);
  const config = overridesConfig(options) ? configFrom(options, snapshot.context.config) : snapshot.context.config;
  const id = options.id ?? snapshot.id;
  if (options.id !== undefined) checkId(id);
  // Both snapshots are the session's own objects already: change them only where options differ.
  if (id !== snapshot.id) snapshot.id = id;
  if (config !== snapshot.context.config) snapshot.context = { ...snapshot.context, config };
  return new Session(id, options.machine ?? safetyMachine, options, { snapshot });
}
