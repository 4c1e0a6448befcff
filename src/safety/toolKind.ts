import * as z from 'zod/mini';

/**
 * What a tool call does, as far as the safety machine cares.
 *
 * - `resolve`: discovery, finds resources
 * - `read`: logs, metrics, status, config
 * - `write`: anything that mutates (restart, stop, delete, file write, ...)
 * - `user_input`: asks the human something
 */
export const ToolKind = z.enum(['resolve', 'read', 'write', 'user_input']);
export type ToolKind = z.infer<typeof ToolKind>;

/** The four states of a session. `RESOLVING` is initial. */
export const SessionState = z.enum(['RESOLVING', 'READING', 'WRITING', 'VERIFYING']);
export type SessionState = z.infer<typeof SessionState>;

/** Stable codes for why a call or a final answer was blocked. */
export const BlockReasonCode = z.enum([
  'NO_VALIDATED_TARGET',
  'UNVERIFIED_WRITE',
  'WRITE_IN_FLIGHT',
  'FINAL_ANSWER_UNVERIFIED',
  /** With target binding: a write names a target no discovery, read or person validated. */
  'TARGET_NOT_VALIDATED',
  /** The execution profile forbids the call outright (a state-only write under `investigation`). Not attestable. */
  'POLICY_DENIED',
  /** With target binding: an egress read (its URL or host carries data out) names a target not validated. */
  'EGRESS_NOT_VALIDATED',
]);
export type BlockReasonCode = z.infer<typeof BlockReasonCode>;

export const TOOL_KINDS: readonly ToolKind[] = ToolKind.options;
export const SESSION_STATES: readonly SessionState[] = SessionState.options;

/** A kind that gathers evidence: discovery or a read. */
export function isDiscoveryKind(kind: ToolKind | undefined): boolean {
  return kind === 'resolve' || kind === 'read';
}
