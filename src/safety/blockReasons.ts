import type { BlockReasonCode } from './toolKind.js';
import { didYouMean } from '../core/didYouMean.js';

/*
 * Every block reason's facts in one table: what the model reads, what a person can supply, and
 * whether the audit counts it as asking a person. The blocked-call envelope, `attest` and the
 * audit read it; the type checker holds it to the list of codes (a new code without its row does
 * not compile).
 */

/** What a person can supply for a block (`attest`). */
export type BlockEvidence = 'target' | 'verification';

/** The facts of one block reason. */
export interface BlockReason {
  /** The envelope's `reason`: what is missing, for the model. */
  message: string;
  /** What a person can supply for it; absent: not attestable (nothing a person says can clear it). */
  evidence?: BlockEvidence;
  /**
   * Whether the audit counts it as asking a person by default. A final answer held back asks the
   * model to read, not a person, and is counted apart.
   */
  escalates: boolean;
}

/**
 * The block reasons, by code.
 *
 * @example
 * BLOCK_REASONS.TARGET_NOT_VALIDATED.evidence; // 'target'
 * BLOCK_REASONS.WRITE_IN_FLIGHT.evidence;      // undefined: not attestable
 */
export const BLOCK_REASONS = {
  NO_VALIDATED_TARGET: {
    message:
      'POLICY_BLOCKED: no validated target yet. A write needs a target established by discovery or a read in this session.',
    evidence: 'target',
    escalates: true,
  },
  UNVERIFIED_WRITE: {
    message:
      'POLICY_BLOCKED: the previous write has not been verified. Evidence gathered after that write is required before another write.',
    evidence: 'verification',
    escalates: true,
  },
  WRITE_IN_FLIGHT: {
    message: 'POLICY_BLOCKED: a write is already in flight. Its result is required before another write.',
    escalates: false,
  },
  FINAL_ANSWER_UNVERIFIED: {
    message:
      'POLICY_BLOCKED: the last write has not been verified. Evidence gathered after that write is required before a final answer.',
    evidence: 'verification',
    escalates: false,
  },
  TARGET_NOT_VALIDATED: {
    message:
      'POLICY_BLOCKED: the write names a target that has not been validated. Each target of a write must come from the user’s words, a discovery or a read in this session, or a person’s approval.',
    evidence: 'target',
    escalates: true,
  },
  POLICY_DENIED: {
    message: 'POLICY_BLOCKED: this session’s execution profile does not allow this call.',
    escalates: false,
  },
  EGRESS_NOT_VALIDATED: {
    message:
      'POLICY_BLOCKED: the read sends data to a destination that has not been validated. Its destination must come from the user, a system of record or a person.',
    evidence: 'target',
    escalates: true,
  },
} as const satisfies Record<BlockReasonCode, BlockReason>;

/** The reasons the audit counts as asking a person by default. */
export const ESCALATED_BY_DEFAULT: readonly BlockReasonCode[] = (
  Object.keys(BLOCK_REASONS) as BlockReasonCode[]
).filter((code) => BLOCK_REASONS[code].escalates);

/**
 * What is wrong with a block reason code as a person typed it (`--escalate`, an `escalate` option),
 * or undefined: the code meant when one is close, else the codes there are.
 *
 * @example
 * blockReasonProblem('UNVERIFIED_WRTE'); // 'unknown block reason "UNVERIFIED_WRTE" (did you mean UNVERIFIED_WRITE?)'
 */
export function blockReasonProblem(code: string): string | undefined {
  if (Object.hasOwn(BLOCK_REASONS, code)) return undefined;
  const codes = Object.keys(BLOCK_REASONS);
  const guess = didYouMean(code, codes);
  return `unknown block reason ${JSON.stringify(code)} (${guess ? `did you mean ${guess}?` : `one of ${codes.join(', ')}`})`;
}

/** What a person can supply for a block, or undefined when it is not attestable. */
export function evidenceFor(code: BlockReasonCode): BlockEvidence | undefined {
  const reason: BlockReason = BLOCK_REASONS[code];
  return reason.evidence;
}

/**
 * Why a block of this reason cannot be put to a person (`--escalate` of a hook or the gateway), if it
 * cannot: nothing a person says lifts a block that is not attestable, and a final answer has no
 * question to answer (a refused stop sends the agent back to check). Accepting such a code would
 * change nothing, in silence.
 *
 * @example
 * askProblem('TARGET_NOT_VALIDATED'); // undefined
 * askProblem('WRITE_IN_FLIGHT');      // "WRITE_IN_FLIGHT cannot be asked (only the running change's result lifts it); ..."
 */
export function askProblem(code: BlockReasonCode): string | undefined {
  const askable = (c: BlockReasonCode) => evidenceFor(c) !== undefined && c !== 'FINAL_ANSWER_UNVERIFIED';
  if (askable(code)) return undefined;
  const why =
    code === 'FINAL_ANSWER_UNVERIFIED'
      ? 'a stop is never asked: the agent is sent back to check its change'
      : code === 'WRITE_IN_FLIGHT'
        ? "only the running change's result lifts it"
        : 'nothing a person says lifts it';
  const codes = (Object.keys(BLOCK_REASONS) as BlockReasonCode[]).filter(askable);
  return `${code} cannot be asked (${why}); a person can be asked about ${codes.join(', ')}`;
}
