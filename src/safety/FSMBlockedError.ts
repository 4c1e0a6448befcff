import type { BlockReasonCode, SessionState, ToolKind } from './toolKind.js';
import { BLOCK_REASONS } from './blockReasons.js';

/** The stable error code of a blocked call or final answer. */
export const ErrCodeFSMBlocked = 'FSM_BLOCKED';
/** The stable error code of a call refused because its target could not be resolved strictly. */
export const ErrCodeStrictResolution = 'STRICT_RESOLUTION';

/**
 * What evidence a block is waiting for, so a model can tell what is missing
 * without being told which tool to call.
 */
export type RequiredEvidence =
  'validated_target' | 'verification_read' | 'verification_complete' | 'write_result' | 'none';

const REASON_FINAL_ANSWER_IN_FLIGHT =
  'POLICY_BLOCKED: a write is still in flight. Its result and evidence gathered after it are required before a final answer.';
const REASON_VERIFY_PENDING =
  'POLICY_BLOCKED: the previous write has evidence but its verification is not complete. Verification is required before another write.';

export interface FSMBlockedInit {
  state: SessionState;
  reasonCode: BlockReasonCode;
  toolName?: string;
  toolKind?: ToolKind;
  /** Blocked attempts in a row, this one included. */
  consecutiveBlocks?: number;
  /** Whether evidence was gathered after the last write (it changes what is missing). */
  readAfterWrite?: boolean;
  /** The targets the block is about (`TARGET_NOT_VALIDATED`: the ones not validated). */
  targets?: readonly string[];
  /** The blocked call's digest (see `callDigest`): a person's approval applies to this call only. */
  digest?: string;
  /** With target binding, the last write's targets no read begun after it has covered yet (what verifies it). */
  unverifiedTargets?: readonly string[];
}

/** The JSON envelope a blocked call reaches the model as. */
export interface FSMBlockedEnvelope {
  error: 'FSM_BLOCKED';
  message: string;
  details: Record<string, string | boolean | string[]>;
}

function requiredFor(init: FSMBlockedInit): RequiredEvidence {
  switch (init.reasonCode) {
    case 'NO_VALIDATED_TARGET':
    case 'TARGET_NOT_VALIDATED':
    case 'EGRESS_NOT_VALIDATED':
      return 'validated_target';
    case 'POLICY_DENIED':
      return 'none';
    case 'WRITE_IN_FLIGHT':
      return 'write_result';
    case 'UNVERIFIED_WRITE':
      return init.readAfterWrite ? 'verification_complete' : 'verification_read';
    case 'FINAL_ANSWER_UNVERIFIED':
      return init.state === 'WRITING' ? 'write_result' : 'verification_read';
  }
}

function reasonFor(init: FSMBlockedInit): string {
  if (init.reasonCode === 'FINAL_ANSWER_UNVERIFIED' && init.state === 'WRITING') return REASON_FINAL_ANSWER_IN_FLIGHT;
  if (init.reasonCode === 'UNVERIFIED_WRITE' && init.readAfterWrite) return REASON_VERIFY_PENDING;
  return BLOCK_REASONS[init.reasonCode].message;
}

/**
 * A block as a value: the machine refused a tool call or a final answer. It is
 * returned, not thrown, by the session's checks; throw it if that suits your loop.
 *
 * @example
 * const blocked = session.beginToolCall({ id: 'c1', kind: 'write', tool: 'restart' });
 * if (blocked) return JSON.stringify(blocked); // {"error":"FSM_BLOCKED","message":...,"details":{...}}
 */
export class FSMBlockedError extends Error {
  readonly code = ErrCodeFSMBlocked;
  readonly state: SessionState;
  readonly toolName?: string;
  readonly toolKind?: ToolKind;
  readonly reasonCode: BlockReasonCode;
  /** Starts with `POLICY_BLOCKED:`; says what is missing, never which tool to call. */
  readonly reason: string;
  readonly recoverable = true;
  /** What evidence is missing. */
  readonly required: RequiredEvidence;
  /** Blocked attempts in a row, this one included. */
  readonly consecutiveBlocks: number;
  /** The targets the block is about (`TARGET_NOT_VALIDATED`: the unvalidated ones). */
  readonly targets?: readonly string[];
  /** The blocked call's digest (tool, canonical arguments, targets): an attestation applies to this call only. */
  readonly digest?: string;
  /**
   * `UNVERIFIED_WRITE`, `FINAL_ANSWER_UNVERIFIED` under target binding: the last write's targets that no
   * read begun after it has covered yet (a read of another target does not verify it).
   */
  readonly unverifiedTargets?: readonly string[];

  constructor(init: FSMBlockedInit) {
    const reason = reasonFor(init);
    // A block is a value returned by a check, not a fault: capturing a stack trace would cost more than
    // the whole decision (it showed as the top cost of blocked calls in the gate profile).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(
      init.toolName !== undefined
        ? `FSM blocked tool '${init.toolName}' (${init.toolKind}) in state ${init.state}: ${reason}`
        : `FSM blocked in state ${init.state}: ${reason}`,
    );
    Error.stackTraceLimit = limit;
    this.name = 'FSMBlockedError';
    this.state = init.state;
    if (init.toolName !== undefined) this.toolName = init.toolName;
    if (init.toolKind !== undefined) this.toolKind = init.toolKind;
    this.reasonCode = init.reasonCode;
    this.reason = reason;
    this.required = requiredFor(init);
    this.consecutiveBlocks = init.consecutiveBlocks ?? 1;
    if (init.targets !== undefined) this.targets = [...init.targets];
    if (init.digest !== undefined) this.digest = init.digest;
    if (init.unverifiedTargets !== undefined) this.unverifiedTargets = [...init.unverifiedTargets];
  }

  /**
   * The stable envelope. Details values are strings or booleans (so
   * `consecutiveBlocks` is a decimal string).
   */
  toJSON(): FSMBlockedEnvelope {
    const details: Record<string, string | boolean | string[]> = {
      state: this.state,
      reasonCode: this.reasonCode,
      reason: this.reason,
      recoverable: this.recoverable,
      required: this.required,
      consecutiveBlocks: String(this.consecutiveBlocks),
    };
    if (this.toolName !== undefined) details.toolName = this.toolName;
    if (this.toolKind !== undefined) details.toolKind = this.toolKind;
    if (this.targets !== undefined) details.targets = [...this.targets];
    if (this.unverifiedTargets !== undefined) details.unverifiedTargets = [...this.unverifiedTargets];
    return { error: ErrCodeFSMBlocked, message: this.message, details };
  }
}
