import * as z from 'zod/mini';
import { CALL_FACTS, CallTargets, MAX_DIGEST_LENGTH } from './SafetyContext.js';
import { BlockReasonCode, ToolKind } from './toolKind.js';

/*
 * The events the safety machine handles. The session turns each API call into
 * one of these, stamped with `at` from the injected clock, so the machine never
 * reads a clock itself.
 */

const at = z.number();
const tool = z.string().check(z.minLength(1));
const callId = z.string().check(z.minLength(1));

/** Compatible API: a check that moves no state (except counting a verify block). */
const CheckToolEvent = z.strictObject({
  type: z.literal('CHECK_TOOL'),
  kind: ToolKind,
  tool,
  targets: z.optional(CallTargets),
  at,
});
/** Call-lifecycle API: a check that, when allowed, starts the call. */
const BeginCallEvent = z.strictObject({
  type: z.literal('BEGIN_CALL'),
  id: callId,
  kind: ToolKind,
  tool,
  ...CALL_FACTS,
  at,
});
/** Shadow mode: a call the gate would have blocked runs anyway; its outcome is applied as an ungated call's. */
const RunUngatedEvent = z.strictObject({
  type: z.literal('RUN_UNGATED'),
  id: callId,
  kind: ToolKind,
  tool,
  ...CALL_FACTS,
  at,
});
/** A tool succeeded. With `id` it ends an in-flight call; without, it is the compatible API's `onToolSuccess`. */
const ToolSucceededEvent = z.strictObject({
  type: z.literal('TOOL_SUCCEEDED'),
  id: z.optional(callId),
  kind: z.optional(ToolKind),
  tool: z.optional(tool),
  /** Compatible API: the targets of the call that succeeded. */
  targets: z.optional(CallTargets),
  verified: z.optional(z.boolean()),
  /** Targets the call's result revealed. */
  discovered: z.optional(CallTargets),
  /** The result field each discovered target came from, in the same order (for the record). */
  fields: z.optional(z.array(z.string())),
  at,
});
/**
 * An in-flight call did not succeed. Without `unknown` its tool reported failure; with
 * `unknown: true` its outcome is unknown (it timed out or was aborted, and may have acted).
 */
const ToolFailedEvent = z.strictObject({
  type: z.literal('TOOL_FAILED'),
  id: callId,
  unknown: z.optional(z.boolean()),
  at,
});
const CheckFinalAnswerEvent = z.strictObject({ type: z.literal('CHECK_FINAL_ANSWER'), at });
const CompleteVerificationEvent = z.strictObject({ type: z.literal('COMPLETE_VERIFICATION'), at });
const TargetEstablishedEvent = z.strictObject({
  type: z.literal('TARGET_ESTABLISHED'),
  targets: z.optional(CallTargets),
  source: z.optional(z.enum(['user', 'human', 'tool'])),
  at,
});
/**
 * A person supplied the evidence a block said was missing: a validated target (`target`) or
 * verification of the last write (`verification`). Human evidence, never a bypass: the call is
 * decided again by the machine.
 */
const AttestEvent = z.strictObject({
  type: z.literal('ATTEST'),
  evidence: z.enum(['target', 'verification']),
  reasonCode: BlockReasonCode,
  targets: z.optional(CallTargets),
  by: z.string().check(z.minLength(1)),
  note: z.optional(z.string()),
  /** The blocked call's digest: the approval applies to that call only, once. */
  digest: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_DIGEST_LENGTH))),
  at,
});
/** What the user (or the engineer, `system`) said: values standing in it validate targets with source `user`. */
const UserMessageEvent = z.strictObject({
  type: z.literal('USER_MESSAGE'),
  text: z.string(),
  source: z.enum(['user', 'system']),
  at,
});
const ResetEvent = z.strictObject({ type: z.literal('RESET'), at });
const ResetKeepProgressEvent = z.strictObject({ type: z.literal('RESET_KEEP_PROGRESS'), at });
const TrackRecoveryEvent = z.strictObject({
  type: z.literal('TRACK_RECOVERY'),
  errorCode: z.string(),
  tool: z.string(),
  at,
});
const CheckRecoveryEvent = z.strictObject({ type: z.literal('CHECK_RECOVERY'), tool: z.string(), at });

export const SafetyEvent = z.discriminatedUnion('type', [
  CheckToolEvent,
  BeginCallEvent,
  RunUngatedEvent,
  ToolSucceededEvent,
  ToolFailedEvent,
  CheckFinalAnswerEvent,
  CompleteVerificationEvent,
  TargetEstablishedEvent,
  AttestEvent,
  UserMessageEvent,
  ResetEvent,
  ResetKeepProgressEvent,
  TrackRecoveryEvent,
  CheckRecoveryEvent,
]);
export type SafetyEvent = z.infer<typeof SafetyEvent>;
export type SafetyEventType = SafetyEvent['type'];

/** Every event type, in a stable order (for validation, editors and graph exploration). */
export const SAFETY_EVENT_TYPES = SafetyEvent.def.options.map(
  (o) => o.def.shape.type.def.values[0],
) as readonly SafetyEventType[];

/** Events whose handling is a decision: allowed unless a `block` action runs. */
export const DECISION_EVENT_TYPES: readonly SafetyEventType[] = ['CHECK_TOOL', 'BEGIN_CALL', 'CHECK_FINAL_ANSWER'];
