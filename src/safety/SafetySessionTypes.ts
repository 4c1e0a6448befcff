/*
 * The safety session's public vocabulary: its options, the calls it takes, what it answers, and the
 * session interface itself (src/safety/SafetySession.ts implements it).
 */
import type { SafetyMachine } from './createSafetyMachine.js';
import type { Executor } from '../core/MachineRunner.js';
import type { FSMBlockedError } from './FSMBlockedError.js';
import type { PersistedSession } from './PersistedSession.js';
import type { Decision, RecordedBlockCode, RecordedCall, RecordingEntry, SessionRecorder } from './RecordingEntry.js';
import type { EXECUTION_PROFILES, PendingRecovery, SafetyContext } from './SafetyContext.js';
import type { SessionState, ToolKind } from './toolKind.js';

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
  /** Called when a `subscribe` listener throws. Nothing it did changes a decision. Default `console.error`. */
  onListenerError?: (error: unknown) => void;
  /**
   * Told when the session looks misused, each advice once per session object (a store that restores
   * a session per call may repeat it): writes keep being blocked for a missing target and no call
   * was ever a resolve or read (its words also go in the recording, as the `note` of the entry that
   * triggered it); or a write is blocked with its verification's evidence in, which only the caller
   * can clear with `completeVerification()`. Default `console.warn`.
   */
  onWarning?: (message: string) => void;
  /**
   * Target binding. `'ignore'` (default): a call's `targets` are recorded but the gate judges by kind
   * alone. `'bind'`: a write may only touch validated targets, and only a read covering its targets
   * verifies it (docs/targets.md).
   */
  targets?: TargetMode;
  /** `'enforce'` (default) blocks; `'shadow'` decides the same way, records would-be blocks and lets the call run. */
  mode?: GateMode;
  /**
   * Execution profile: `'interactive'` (default), `'detection'` or `'investigation'` (docs/escalation.md),
   * or `'coding'` (docs/coding-profile.md: the file is the unit of evidence).
   */
  profile?: ExecutionProfile;
  /**
   * What runs the machine: `'compiled'` (default), the decision table generated from the machine's
   * JSON, or `'xstate'`, an XState actor (the reference, for debugging). Both decide the same, event
   * for event (docs/performance.md). Default: `ASSISTANT_SAFETY_EXECUTOR` from the environment, else `'compiled'`.
   */
  executor?: Executor;
}

/** How a session treats a call's targets. */
export type TargetMode = 'ignore' | 'bind';
/** Whether a would-be block stops the call (`enforce`) or is only recorded (`shadow`). */
export type GateMode = 'enforce' | 'shadow';
/** The execution profiles: the reference's rules for state-only writes, and the coding profile. */
export type ExecutionProfile = (typeof EXECUTION_PROFILES)[number];
/** Where a validated target came from. */
export type TargetSource = 'user' | 'human' | 'tool';

/** A tool call as the call-lifecycle API sees it. */
export interface ToolCallStart {
  id: string;
  kind: ToolKind;
  tool: string;
  /** Resource keys the call touches (`vm:101`, `file:/srv/app.conf`). */
  targets?: string[];
  /** A write to the agent's own records, not the world: its success needs no verification. */
  stateOnly?: boolean;
  /**
   * `'untrusted'`: the tool's output is open-world content; its free text validates nothing (only the
   * identifier fields a rule declares, given as `discovered` at its end).
   */
  trust?: 'untrusted';
  /** A write that creates the resource it acts on: it needs no validated target of its own. */
  creates?: boolean;
  /** The keys of the resources the write creates: exempt from validation, validated once it lands. */
  created?: string[];
  /** A read that sends data out (a URL, a host): with binding, its targets must be validated like a write's. */
  egress?: boolean;
  /** The call's digest (`callDigest` of its tool, arguments and targets): a person's approval is bound to it. */
  digest?: string;
  /**
   * A project-wide check (a test run, a type check, a build, a linter) on a read: under the coding
   * profile, evidence for every file edited before it began.
   */
  check?: boolean;
  /**
   * A subagent (Claude Code's `Task`): it acts through calls of its own. Under the coding profile its
   * end makes every file need a read again before an edit (what it changed is not known here).
   */
  delegates?: boolean;
}

/**
 * The end of a tool call. `verified`: the write's own result carries verification evidence.
 * `unknown: true` (with `ok: false`): the call timed out or was aborted, so its tool may have
 * acted (or may still act); a write ended so is treated as possibly landed and must be verified.
 */
export interface ToolCallEnd {
  id: string;
  ok: boolean;
  verified?: boolean;
  unknown?: boolean;
  /**
   * Targets the call's result revealed: keys, or `{ target, field }` naming the result field each
   * came from (a rule's `discovers`). Validated on success; for an untrusted tool, only these count.
   */
  discovered?: (string | { target: string; field: string })[];
  /** An orphaned call (`ok: false, unknown: true` only): the holder whose claim on it ran out. Recorded, no effect. */
  orphanedBy?: string;
}

/** A call the tool loop refused before asking the machine. See {@link SafetySession.recordLoopBlock}. */
export interface LoopBlock {
  id: string;
  kind: ToolKind;
  tool: string;
  /** `LOOK_BEFORE_ASKING`, `LOOP_DETECTED`, or `WRITE_IN_FLIGHT` for a write while an earlier write's tool still runs. */
  code: RecordedBlockCode;
}

/**
 * What a session did with one call, as a recording says it: the one place it is
 * decided (the recorder gets the same). See {@link SafetySession.perform}.
 */
export interface CallOutcome {
  decision: Decision;
  reasonCode?: RecordedBlockCode;
  /** What the call returned besides a decision: the recovery id tracked or taken. */
  result?: string;
  /** Why a call was ignored, e.g. `unknown_call`. */
  note?: string;
  /** The block a check returned (the session's value, with its details). */
  blocked?: FSMBlockedError;
  /** Shadow mode: the call was allowed; enforcement (the machine, or the tool loop's own gate) would have blocked it for this reason. */
  wouldBlock?: RecordedBlockCode;
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
  canExecuteTool(kind: ToolKind, toolName: string, targets?: string[]): FSMBlockedError | null;
  onToolSuccess(kind: ToolKind, toolName: string, targets?: string[]): void;
  canFinalAnswer(): FSMBlockedError | null;
  completeVerification(): void;
  /** The target was established outside the loop; with `targets`, those keys become validated (source `user` by default). */
  targetEstablished(options?: { targets?: string[]; source?: TargetSource }): void;
  /**
   * What the user said (or, with `source: 'system'`, the engineer's own system text). With target
   * binding, a write target whose value stands in it is validated with source `user`
   * (docs/targets.md). Never pass tool output here.
   *
   * @example
   * session.userMessage('Send 20 EUR to GB29 NWBK 6016 1331 9268 19');
   */
  userMessage(text: string, options?: { source?: 'user' | 'system' }): void;
  reset(): void;
  resetKeepProgress(): void;
  trackPendingRecovery(errorCode: string, toolName: string): string;
  checkRecoverySuccess(toolName: string): PendingRecovery | undefined;

  // call-lifecycle API
  beginToolCall(call: ToolCallStart): FSMBlockedError | null;
  /**
   * What `beginToolCall(call)` would answer now, asked as a dry run: the machine's pure step, with
   * nothing begun, recorded, counted or changed (an approval question must not count as a block).
   * `null` where the call would begin (in shadow mode, always). The call is checked as
   * `beginToolCall` checks it.
   *
   * @example
   * const blocked = session.can({ id: 'c3', kind: 'write', tool: 'restart_vm', targets: ['vm:9'] });
   * if (blocked?.reasonCode === 'TARGET_NOT_VALIDATED') askAPerson(blocked.targets);
   */
  can(call: ToolCallStart): FSMBlockedError | null;
  endToolCall(result: ToolCallEnd): void;
  /**
   * Records a call the tool loop refused before asking the machine
   * (`LOOK_BEFORE_ASKING`, `LOOP_DETECTED`), so recordings and live viewers
   * show it. The machine is not asked and nothing changes, `consecutiveBlocks`
   * included (it counts the machine's blocks).
   */
  recordLoopBlock(block: LoopBlock): void;
  /**
   * A person supplies the evidence a block said was missing (docs/escalation.md): a validated target for
   * `NO_VALIDATED_TARGET`/`TARGET_NOT_VALIDATED`, verification for `UNVERIFIED_WRITE`/`FINAL_ANSWER_UNVERIFIED`.
   * Returns false when the block cannot be attested (`WRITE_IN_FLIGHT`, or evidence no longer missing).
   * The call must then be asked again; the machine decides it.
   */
  attest(block: FSMBlockedError, by: { by: string; note?: string }): boolean;
  /** Validated targets (with `targets: 'bind'`), oldest first. */
  readonly validatedTargets: readonly string[];

  /**
   * Performs one call given in the recording's vocabulary and returns its
   * outcome, the same one the recorder receives: replays, playgrounds and the
   * model-based path tests drive a session through this.
   *
   * @throws {SafetyInputError} for a malformed call (or `create`/`restore`, which start a session).
   * @example
   * session.perform({ type: 'beginToolCall', id: 'c1', kind: 'write', tool: 'restart_vm' });
   * // { decision: 'blocked', reasonCode: 'NO_VALIDATED_TARGET', blocked: FSMBlockedError }
   */
  perform(call: RecordedCall): CallOutcome;

  persist(): PersistedSession;
  subscribe(listener: (session: SafetySession) => void): () => void;
}
