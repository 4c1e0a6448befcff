import * as z from 'zod/mini';
import { CallTargets, inFlightWriteOf, MAX_DIGEST_LENGTH, SafetyConfig, type SafetyContext } from './SafetyContext.js';
import { BlockReasonCode, SessionState, ToolKind } from './toolKind.js';
import { RecordingHeader } from '../core/RecordingHeader.js';

/*
 * One line of a recording: one API call a session handled, with what the
 * machine decided and what it moved. The call is recorded at the API level
 * (not as machine events) so a replay drives a real session exactly as the
 * agent did.
 */

const tool = z.string().check(z.minLength(1));

/** The longest holder id (a gateway process's name for itself) an orphaned call's end records. */
export const MAX_HOLDER_LENGTH = 200;

/**
 * Why the tool loop itself refused a call before the session's machine saw it
 * (the loop's outcome codes of the same names, src/harness/loop/errorCodes.ts).
 */
export const LoopBlockCode = z.enum(['LOOK_BEFORE_ASKING', 'LOOP_DETECTED']);
export type LoopBlockCode = z.infer<typeof LoopBlockCode>;

/** Why a recorded call was blocked: by the machine, or by the tool loop before the machine. */
export const RecordedBlockCode = z.union([BlockReasonCode, LoopBlockCode]);
export type RecordedBlockCode = z.infer<typeof RecordedBlockCode>;

/** The API call a recording entry stands for; `type` is the session method's name. */
export const RecordedCall = z.discriminatedUnion('type', [
  /** The session was created (with these settings). */
  z.strictObject({ type: z.literal('create'), config: SafetyConfig }),
  /** The session was restored from this snapshot. */
  z.strictObject({ type: z.literal('restore'), snapshot: z.unknown() }),
  z.strictObject({ type: z.literal('canExecuteTool'), kind: ToolKind, tool, targets: z.optional(CallTargets) }),
  z.strictObject({ type: z.literal('onToolSuccess'), kind: ToolKind, tool, targets: z.optional(CallTargets) }),
  z.strictObject({ type: z.literal('canFinalAnswer') }),
  z.strictObject({ type: z.literal('completeVerification') }),
  z.strictObject({
    type: z.literal('targetEstablished'),
    targets: z.optional(CallTargets),
    source: z.optional(z.enum(['user', 'human', 'tool'])),
  }),
  /** A person supplied the evidence a block said was missing (who, what, why): human evidence, not machine evidence. */
  z.strictObject({
    type: z.literal('attest'),
    reasonCode: BlockReasonCode,
    evidence: z.enum(['target', 'verification']),
    targets: z.optional(CallTargets),
    by: z.string().check(z.minLength(1)),
    note: z.optional(z.string()),
    /** The blocked call's digest: the approval applies to that call only, once. */
    digest: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_DIGEST_LENGTH))),
  }),
  /** What the user (or the engineer's system prompt) said. */
  z.strictObject({
    type: z.literal('userMessage'),
    text: z.string(),
    source: z.optional(z.enum(['user', 'system'])),
  }),
  z.strictObject({ type: z.literal('reset') }),
  z.strictObject({ type: z.literal('resetKeepProgress') }),
  z.strictObject({ type: z.literal('trackPendingRecovery'), errorCode: z.string(), tool }),
  z.strictObject({ type: z.literal('checkRecoverySuccess'), tool }),
  z.strictObject({
    type: z.literal('beginToolCall'),
    id: z.string().check(z.minLength(1)),
    kind: ToolKind,
    tool,
    targets: z.optional(CallTargets),
    stateOnly: z.optional(z.boolean()),
    trust: z.optional(z.literal('untrusted')),
    /** A write that creates the resource it acts on. */
    creates: z.optional(z.boolean()),
    /** The keys of the resources it creates. */
    created: z.optional(CallTargets),
    /** A read that sends data out: its targets must be validated. */
    egress: z.optional(z.boolean()),
    /** What a person's approval must name (see `callDigest`). */
    digest: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_DIGEST_LENGTH))),
    /** A project-wide check (tests, type check, build, linter): the coding profile's evidence for every edited file. */
    check: z.optional(z.boolean()),
    /** A subagent: under the coding profile its end makes every file need a read again before an edit. */
    delegates: z.optional(z.boolean()),
  }),
  /**
   * The tool loop refused the call itself (`recordLoopBlock`): the machine was not asked, nothing changed.
   * `WRITE_IN_FLIGHT` here: an earlier write's tool, timed out or aborted, is still running.
   */
  z.strictObject({
    type: z.literal('recordLoopBlock'),
    id: z.string().check(z.minLength(1)),
    kind: ToolKind,
    tool,
    code: RecordedBlockCode,
  }),
  /** `unknown: true` (with `ok: false`): the call timed out or was aborted; its tool may have acted. */
  z
    .strictObject({
      type: z.literal('endToolCall'),
      id: z.string().check(z.minLength(1)),
      ok: z.boolean(),
      verified: z.optional(z.boolean()),
      unknown: z.optional(z.boolean()),
      discovered: z.optional(CallTargets),
      /** The result field each discovered target came from, in the same order. */
      fields: z.optional(z.array(z.string())),
      /**
       * An orphaned call: the holder (a gateway process) whose claim on it ran out while it was in
       * flight; with `ok: false, unknown: true` only. No effect on the machine: it is read by people.
       */
      orphanedBy: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_HOLDER_LENGTH))),
    })
    .check(
      z.refine((c) => c.orphanedBy === undefined || (c.unknown === true && !c.ok), {
        message: 'an orphaned call ends with an unknown outcome: give ok: false, unknown: true',
        path: ['orphanedBy'],
      }),
    ),
]);
export type RecordedCall = z.infer<typeof RecordedCall>;
export type RecordedCallType = RecordedCall['type'];

/**
 * What the session did with the call: `allowed` or `blocked` for a check,
 * `applied` for anything else, `ignored` for an end of a call not in flight.
 */
export const Decision = z.enum(['allowed', 'blocked', 'applied', 'ignored']);
export type Decision = z.infer<typeof Decision>;

/** The part of the context a reader of a recording needs at each step. */
export const ContextSummary = z.strictObject({
  wroteThisEpisode: z.boolean(),
  readAfterWrite: z.boolean(),
  consecutiveVerifyBlocks: z.int().check(z.nonnegative()),
  writeEpoch: z.int().check(z.nonnegative()),
  inFlight: z.int().check(z.nonnegative()),
  inFlightWrite: z.nullable(z.strictObject({ id: z.string(), tool: z.string(), startedAt: z.number() })),
  lastWriteTool: z.nullable(z.string()),
  lastWriteAt: z.nullable(z.number()),
  lastReadTool: z.nullable(z.string()),
  lastReadAt: z.nullable(z.number()),
  pendingRecoveries: z.int().check(z.nonnegative()),
});
export type ContextSummary = z.infer<typeof ContextSummary>;

/**
 * The summary a recording keeps of a context.
 *
 * @example
 * summariseContext(session.context).inFlight; // how many calls are in flight
 */
export function summariseContext(context: SafetyContext): ContextSummary {
  return {
    wroteThisEpisode: context.wroteThisEpisode,
    readAfterWrite: context.readAfterWrite,
    consecutiveVerifyBlocks: context.consecutiveVerifyBlocks,
    writeEpoch: context.writeEpoch,
    inFlight: Object.keys(context.calls).length,
    inFlightWrite: inFlightWriteOf(context) ?? null,
    lastWriteTool: context.lastWriteTool,
    lastWriteAt: context.lastWriteAt,
    lastReadTool: context.lastReadTool,
    lastReadAt: context.lastReadAt,
    pendingRecoveries: context.pendingRecoveries.length,
  };
}

/** One line of a JSON Lines recording. */
export const RecordingEntry = z.strictObject({
  ...RecordingHeader,
  call: RecordedCall,
  decision: Decision,
  /** Why it was blocked: a machine reason, or the loop's code for a `recordLoopBlock` entry. */
  reasonCode: z.optional(RecordedBlockCode),
  /** What the call returned besides a decision: the recovery id tracked or taken. */
  result: z.optional(z.string()),
  /** Why a call was ignored, e.g. `unknown_call`. */
  note: z.optional(z.string()),
  /** Shadow mode: the call was allowed, and enforcement would have blocked it for this reason. */
  wouldBlock: z.optional(RecordedBlockCode),
  before: SessionState,
  after: SessionState,
  context: ContextSummary,
});
export type RecordingEntry = z.infer<typeof RecordingEntry>;

/** Receives every entry a session produces, in order. */
export interface SessionRecorder {
  record(entry: RecordingEntry): void;
}

/**
 * One call's entry, field by field in the recording's order (a literal with conditional spreads is
 * slow to build, and sessions with a recorder build one per call).
 */
export function recordingEntryOf(
  session: string,
  seq: number,
  at: number,
  call: RecordedCall,
  outcome: Pick<RecordingEntry, 'decision' | 'reasonCode' | 'result' | 'note' | 'wouldBlock'>,
  before: { value: string },
  after: { value: string; context: SafetyContext },
): RecordingEntry {
  const entry = { v: 1, session, seq, at, call, decision: outcome.decision } as RecordingEntry;
  if (outcome.reasonCode !== undefined) entry.reasonCode = outcome.reasonCode;
  if (outcome.result !== undefined) entry.result = outcome.result;
  if (outcome.note !== undefined) entry.note = outcome.note;
  if (outcome.wouldBlock !== undefined) entry.wouldBlock = outcome.wouldBlock;
  entry.before = before.value as SessionState;
  entry.after = after.value as SessionState;
  entry.context = summariseContext(after.context);
  return entry;
}
