import { createActor, type Actor } from 'xstate';
import type { SafetyMachine } from './createSafetyMachine.js';
import { FSMBlockedError } from './FSMBlockedError.js';
import {
  parsePersistedSession,
  PERSISTED_SESSION_FORMAT,
  PERSISTED_SESSION_VERSION,
  type PersistedSession,
} from './PersistedSession.js';
import {
  LoopBlockCode,
  summariseContext,
  type Decision,
  type RecordedBlockCode,
  type RecordedCall,
  type RecordingEntry,
  type SessionRecorder,
} from './RecordingEntry.js';
import {
  DEFAULT_CONFIG,
  inFlightWriteOf,
  RECOVERY_TTL_MS,
  type PendingRecovery,
  type SafetyConfig,
  type SafetyContext,
} from './SafetyContext.js';
import { eventOfCall } from './eventOfCall.js';
import type { SafetyEvent } from './SafetyEvent.js';
import { safetyMachine } from './safetyMachine.js';
import { TOOL_KINDS, type BlockReasonCode, type SessionState, type ToolKind } from './toolKind.js';

export interface SafetySessionOptions {
  /** Clock, epoch milliseconds. Default `Date.now`. */
  now?: () => number;
  /** How long a pending recovery lives. Default {@link RECOVERY_TTL_MS} (ten minutes). */
  recoveryTtlMs?: number;
  /** Send a failed write to VERIFYING instead of READING (for tools whose failures can be partial). Default false. */
  failedWriteRequiresVerification?: boolean;
  /** Receives one entry for every call the session handles. */
  recorder?: SessionRecorder;
  /** Session id. Default a random UUID (or the snapshot's id when restoring). */
  id?: string;
  /** The machine to run. Default {@link safetyMachine}; pass another built with `createSafetyMachine`. */
  machine?: SafetyMachine;
  /** Called when the recorder throws. The decision stands either way. Default `console.error`. */
  onRecorderError?: (error: unknown, entry: RecordingEntry) => void;
}

/** A tool call as the call-lifecycle API sees it. */
export interface ToolCallStart {
  id: string;
  kind: ToolKind;
  tool: string;
}

/** The end of a tool call. `verified`: the write's own result carries verification evidence. */
export interface ToolCallEnd {
  id: string;
  ok: boolean;
  verified?: boolean;
}

/** A call the tool loop refused before asking the machine. See {@link SafetySession.recordLoopBlock}. */
export interface LoopBlock {
  id: string;
  kind: ToolKind;
  tool: string;
  code: LoopBlockCode;
}

/** The call a write in flight is. */
export interface InFlightWrite {
  id: string;
  tool: string;
  startedAt: number;
}

/** One agent session's safety gate. See {@link createSafetySession}. */
export interface SafetySession {
  readonly id: string;
  readonly state: SessionState;
  readonly wroteThisEpisode: boolean;
  readonly readAfterWrite: boolean;
  readonly consecutiveVerifyBlocks: number;
  readonly lastWriteTool?: string;
  readonly lastWriteAt?: number;
  readonly lastReadTool?: string;
  readonly lastReadAt?: number;
  /** Pending recoveries not expired as of now. */
  readonly pendingRecoveries: readonly PendingRecovery[];
  /** The write in flight (call-lifecycle API only). */
  readonly inFlightWrite?: InFlightWrite;
  /** The machine's whole context (read-only view). */
  readonly context: Readonly<SafetyContext>;

  // compatible API
  canExecuteTool(kind: ToolKind, toolName: string): FSMBlockedError | null;
  onToolSuccess(kind: ToolKind, toolName: string): void;
  canFinalAnswer(): FSMBlockedError | null;
  completeVerification(): void;
  targetEstablished(): void;
  reset(): void;
  resetKeepProgress(): void;
  trackPendingRecovery(errorCode: string, toolName: string): string;
  checkRecoverySuccess(toolName: string): PendingRecovery | undefined;

  // call-lifecycle API
  beginToolCall(call: ToolCallStart): FSMBlockedError | null;
  endToolCall(result: ToolCallEnd): void;
  /**
   * Records a call the tool loop refused before asking the machine
   * (`LOOK_BEFORE_ASKING`, `LOOP_DETECTED`), so recordings and live viewers
   * show it. The machine is not asked and nothing changes, `consecutiveBlocks`
   * included (it counts the machine's blocks).
   */
  recordLoopBlock(block: LoopBlock): void;

  persist(): PersistedSession;
  subscribe(listener: (session: SafetySession) => void): () => void;
}

/** Thrown for a call with malformed arguments; nothing was applied. */
export class SafetyInputError extends TypeError {
  readonly code = 'INVALID_INPUT' as const;
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = 'SafetyInputError';
  }
}

const describe = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : v === null ? 'null' : typeof v);

function checkKind(path: string, kind: unknown): asserts kind is ToolKind {
  if (!(TOOL_KINDS as readonly unknown[]).includes(kind)) {
    throw new SafetyInputError(path, `expected one of ${TOOL_KINDS.join(', ')}, got ${describe(kind)}`);
  }
}
function checkName(path: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new SafetyInputError(path, `expected a non-empty string, got ${describe(name)}`);
  }
}
function checkObject(path: string, value: unknown): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null)
    throw new SafetyInputError(path, `expected an object, got ${describe(value)}`);
}

type Snapshot = ReturnType<Actor<SafetyMachine>['getSnapshot']>;

interface Outcome {
  decision: Decision;
  reasonCode?: RecordedBlockCode;
  result?: string;
  note?: string;
}

class Session implements SafetySession {
  readonly id: string;
  private readonly actor: Actor<SafetyMachine>;
  private readonly now: () => number;
  private readonly recorder: SessionRecorder | undefined;
  private readonly onRecorderError: (error: unknown, entry: RecordingEntry) => void;
  private readonly listeners = new Set<(session: SafetySession) => void>();
  private snap: Snapshot;
  private seq = 0;
  private blockStreak: number;

  constructor(
    id: string,
    machine: SafetyMachine,
    options: SafetySessionOptions,
    start: { config: SafetyConfig } | { snapshot: PersistedSession },
  ) {
    this.id = id;
    this.now = options.now ?? Date.now;
    this.recorder = options.recorder;
    this.onRecorderError = options.onRecorderError ?? ((e) => console.error('assistant-safety: recorder failed:', e));
    if ('config' in start) {
      this.actor = createActor(machine, { input: { config: start.config } });
      this.blockStreak = 0;
    } else {
      const snapshot = machine.resolveState({ value: start.snapshot.state, context: start.snapshot.context });
      this.actor = createActor(machine, { snapshot, input: {} });
      this.blockStreak = start.snapshot.blockStreak;
    }
    this.actor.start();
    this.snap = this.actor.getSnapshot();
    if (this.recorder) {
      const call: RecordedCall =
        'config' in start ? { type: 'create', config: start.config } : { type: 'restore', snapshot: start.snapshot };
      this.record(this.now(), call, this.snap, { decision: 'applied' });
    }
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
    const now = this.now();
    return pendingRecoveries.filter((r) => now - r.createdAt <= config.recoveryTtlMs);
  }
  get inFlightWrite() {
    return inFlightWriteOf(this.snap.context);
  }

  // ---- compatible API ----

  canExecuteTool(kind: ToolKind, toolName: string): FSMBlockedError | null {
    checkKind('canExecuteTool: kind', kind);
    checkName('canExecuteTool: toolName', toolName);
    return this.decide({ type: 'canExecuteTool', kind, tool: toolName });
  }

  onToolSuccess(kind: ToolKind, toolName: string): void {
    checkKind('onToolSuccess: kind', kind);
    checkName('onToolSuccess: toolName', toolName);
    this.apply({ type: 'onToolSuccess', kind, tool: toolName });
  }

  canFinalAnswer(): FSMBlockedError | null {
    return this.decide({ type: 'canFinalAnswer' });
  }

  completeVerification(): void {
    this.apply({ type: 'completeVerification' });
  }

  targetEstablished(): void {
    this.apply({ type: 'targetEstablished' });
  }

  reset(): void {
    this.blockStreak = 0;
    this.apply({ type: 'reset' });
  }

  resetKeepProgress(): void {
    this.apply({ type: 'resetKeepProgress' });
  }

  trackPendingRecovery(errorCode: string, toolName: string): string {
    if (typeof errorCode !== 'string')
      throw new SafetyInputError('trackPendingRecovery: errorCode', `expected a string, got ${describe(errorCode)}`);
    checkName('trackPendingRecovery: toolName', toolName);
    const before = this.snap.context.pendingRecoveries;
    let id = '';
    this.apply({ type: 'trackPendingRecovery', errorCode, tool: toolName }, (after) => {
      const known = new Set(before.map((r) => r.recoveryId));
      id = after.context.pendingRecoveries.find((r) => !known.has(r.recoveryId))?.recoveryId ?? '';
      return id ? { result: id } : {};
    });
    return id;
  }

  checkRecoverySuccess(toolName: string): PendingRecovery | undefined {
    checkName('checkRecoverySuccess: toolName', toolName);
    const before = this.snap.context;
    let taken: PendingRecovery | undefined;
    this.apply({ type: 'checkRecoverySuccess', tool: toolName }, (after, at) => {
      const kept = new Set(after.context.pendingRecoveries.map((r) => r.recoveryId));
      taken = before.pendingRecoveries.find(
        (r) => !kept.has(r.recoveryId) && at - r.createdAt <= before.config.recoveryTtlMs,
      );
      return taken ? { result: taken.recoveryId } : {};
    });
    return taken;
  }

  // ---- call-lifecycle API ----

  beginToolCall(call: ToolCallStart): FSMBlockedError | null {
    checkObject('beginToolCall: call', call);
    const { id, kind, tool } = call;
    checkName('beginToolCall: call.id', id);
    checkKind('beginToolCall: call.kind', kind);
    checkName('beginToolCall: call.tool', tool);
    if (Object.hasOwn(this.snap.context.calls, id)) {
      throw new SafetyInputError('beginToolCall: call.id', `call ${JSON.stringify(id)} is already in flight`);
    }
    return this.decide({ type: 'beginToolCall', id, kind, tool });
  }

  endToolCall(result: ToolCallEnd): void {
    checkObject('endToolCall: result', result);
    const { id, ok, verified } = result;
    checkName('endToolCall: result.id', id);
    if (typeof ok !== 'boolean')
      throw new SafetyInputError('endToolCall: result.ok', `expected a boolean, got ${describe(ok)}`);
    if (verified !== undefined && typeof verified !== 'boolean') {
      throw new SafetyInputError(
        'endToolCall: result.verified',
        `expected a boolean or undefined, got ${describe(verified)}`,
      );
    }
    const call: RecordedCall =
      verified === undefined ? { type: 'endToolCall', id, ok } : { type: 'endToolCall', id, ok, verified };
    if (!Object.hasOwn(this.snap.context.calls, id)) {
      // Never begun, blocked, or already ended: nothing changes, but the recording says so.
      if (this.recorder) this.record(this.now(), call, this.snap, { decision: 'ignored', note: 'unknown_call' });
      for (const listener of this.listeners) listener(this);
      return;
    }
    this.apply(call);
  }

  recordLoopBlock(block: LoopBlock): void {
    checkObject('recordLoopBlock: block', block);
    const { id, kind, tool, code } = block;
    checkName('recordLoopBlock: block.id', id);
    checkKind('recordLoopBlock: block.kind', kind);
    checkName('recordLoopBlock: block.tool', tool);
    if (!LoopBlockCode.safeParse(code).success) {
      throw new SafetyInputError(
        'recordLoopBlock: block.code',
        `expected one of ${LoopBlockCode.options.join(', ')}, got ${describe(code)}`,
      );
    }
    this.finish(this.now(), { type: 'recordLoopBlock', id, kind, tool, code }, this.snap, this.snap, {
      decision: 'blocked',
      reasonCode: code,
    });
  }

  // ---- persistence and observation ----

  persist(): PersistedSession {
    const { context } = this.snap;
    return {
      format: PERSISTED_SESSION_FORMAT,
      version: PERSISTED_SESSION_VERSION,
      id: this.id,
      state: this.state,
      // The context is immutable (every action returns a new one), so sharing it is safe
      // for JSON; a deep copy keeps callers that mutate the result from reaching in.
      context: structuredClone(context),
      blockStreak: this.blockStreak,
    };
  }

  subscribe(listener: (session: SafetySession) => void): () => void {
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

  private send(event: SafetyEvent): { before: Snapshot; after: Snapshot } {
    const before = this.snap;
    // Most checks are allowed, and an allowed check takes no transition. XState's own
    // `can` (transition selection and guards, no microstep, no snapshot) says so for a
    // quarter of a full send: when it says no transition would run, sending would
    // leave the snapshot as it is, so the session skips the send.
    if ((event.type === 'CHECK_TOOL' || event.type === 'CHECK_FINAL_ANSWER') && !before.can(event)) {
      return { before, after: before };
    }
    this.actor.send(event);
    const after = this.actor.getSnapshot();
    if (after.status === 'error')
      throw new Error(`assistant-safety: the machine failed on ${event.type}: ${String(after.error)}`);
    this.snap = after;
    return { before, after };
  }

  /** A check: allowed unless the machine ran a `block` action for it. */
  private decide(call: RecordedCall): FSMBlockedError | null {
    const at = this.now();
    const event = this.eventOf(call, at);
    const { before, after } = this.send(event);
    let blocked: FSMBlockedError | null = null;
    if (after.context.blockCount > before.context.blockCount && after.context.lastBlock) {
      this.blockStreak += 1;
      const block = after.context.lastBlock;
      blocked = new FSMBlockedError({
        state: before.value as SessionState,
        reasonCode: block.reasonCode,
        ...((event.type === 'CHECK_TOOL' || event.type === 'BEGIN_CALL') && {
          toolName: event.tool,
          toolKind: event.kind,
        }),
        consecutiveBlocks: this.blockStreak,
        readAfterWrite: before.context.readAfterWrite,
      });
    } else {
      this.blockStreak = 0;
    }
    this.finish(
      at,
      call,
      before,
      after,
      blocked ? { decision: 'blocked', reasonCode: blocked.reasonCode } : { decision: 'allowed' },
    );
    return blocked;
  }

  private apply(call: RecordedCall, extra?: (after: Snapshot, at: number) => Partial<Outcome>): void {
    const at = this.now();
    const { before, after } = this.send(this.eventOf(call, at));
    this.finish(at, call, before, after, { decision: 'applied', ...extra?.(after, at) });
  }

  private finish(at: number, call: RecordedCall, before: Snapshot, after: Snapshot, outcome: Outcome): void {
    if (this.recorder) this.record(at, call, before, outcome, after);
    for (const listener of this.listeners) listener(this);
  }

  private record(at: number, call: RecordedCall, before: Snapshot, outcome: Outcome, after: Snapshot = before): void {
    const entry: RecordingEntry = {
      v: 1,
      session: this.id,
      seq: this.seq++,
      at,
      call,
      decision: outcome.decision,
      ...(outcome.reasonCode !== undefined && { reasonCode: outcome.reasonCode }),
      ...(outcome.result !== undefined && { result: outcome.result }),
      ...(outcome.note !== undefined && { note: outcome.note }),
      before: before.value as SessionState,
      after: after.value as SessionState,
      context: summariseContext(after.context),
    };
    try {
      this.recorder!.record(entry);
    } catch (error) {
      this.onRecorderError(error, entry);
    }
  }
}

function configFrom(options: SafetySessionOptions, base: SafetyConfig = DEFAULT_CONFIG): SafetyConfig {
  const ttl = options.recoveryTtlMs ?? base.recoveryTtlMs;
  if (!Number.isInteger(ttl) || ttl < 0) {
    throw new SafetyInputError('options.recoveryTtlMs', `expected a non-negative integer, got ${String(ttl)}`);
  }
  const failed = options.failedWriteRequiresVerification ?? base.failedWriteRequiresVerification;
  if (typeof failed !== 'boolean') {
    throw new SafetyInputError(
      'options.failedWriteRequiresVerification',
      `expected a boolean, got ${describe(failed)}`,
    );
  }
  return { recoveryTtlMs: ttl, failedWriteRequiresVerification: failed };
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
  checkName('options.id', id);
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
  const snapshot = parsePersistedSession(persisted);
  const config = configFrom(options, snapshot.context.config);
  const id = options.id ?? snapshot.id;
  checkName('options.id', id);
  return new Session(id, options.machine ?? safetyMachine, options, {
    snapshot: { ...snapshot, id, context: { ...snapshot.context, config } },
  });
}

export { RECOVERY_TTL_MS };
