import * as z from 'zod/mini';
import { BlockReasonCode, ToolKind } from './toolKind.js';
import { MAX_USER_MESSAGE_LENGTH, MAX_USER_MESSAGES } from './userWords.js';

/**
 * The largest counter a snapshot may hold: every counter (write epoch, sequences,
 * attempts) can still advance exactly, by one, for longer than any session lives.
 * A snapshot at `Number.MAX_SAFE_INTEGER` would stop the write epoch advancing.
 */
export const MAX_COUNT = 2 ** 52;
const count = () => z.int().check(z.nonnegative(), z.lte(MAX_COUNT));

/**
 * How many validated targets a session keeps. At the cap the oldest validation is dropped:
 * forgetting a validation only makes the gate stricter (a later write to it is blocked).
 */
export const MAX_VALIDATED_TARGETS = 256;
/** The longest target key (a resource key such as `vm:101` or `file:/srv/app.conf`). */
export const MAX_TARGET_LENGTH = 1024;
/** The most targets one call may carry (or reveal). */
export const MAX_CALL_TARGETS = 64;

/**
 * How many edited files the coding profile tracks at once. An edit that would track one more is
 * not a file edit: it keeps the seed's rule (verified before anything else is written).
 */
export const MAX_EDITED_FILES = 256;
/** The prefix that marks a target as a file in the working tree (the coding profile's unit of evidence). */
export const FILE_TARGET_PREFIX = 'file:';

/** The longest call digest a call may carry. */
export const MAX_DIGEST_LENGTH = 128;
/** How many approvals (a person's answer bound to one call) a session holds at once; the oldest goes first. */
export const MAX_APPROVALS = 8;
/** How long a person's approval waits for its call: five minutes on the session's clock. */
export const APPROVAL_TTL_MS = 300_000;

/** A resource key a call touches: `vm:101`, `file:/srv/app.conf`, `iban:GB29…`. */
const Target = z.string().check(z.minLength(1), z.maxLength(MAX_TARGET_LENGTH));
/** The targets of one call. */
export const CallTargets = z.array(Target).check(z.maxLength(MAX_CALL_TARGETS));

/**
 * What a call may say about itself besides kind and tool: the same fields on the events that begin
 * a call and on the call in flight (one declaration for both).
 */
export const CALL_FACTS = {
  /** The resource keys it touches. */
  targets: z.optional(CallTargets),
  /** A write to the agent's own records: its success changes nothing in the machine. */
  stateOnly: z.optional(z.literal(true)),
  /** Its output is open-world content: only the identifier fields a rule declares (`discovered`) validate. */
  untrusted: z.optional(z.literal(true)),
  /** A write that creates a resource: it needs no validated target of its own. */
  creates: z.optional(z.literal(true)),
  /** The keys of the resources it creates: exempt from validation, validated once it lands. */
  created: z.optional(CallTargets),
  /** A read that sends data out (its URL or host): its targets must be validated like a write's. */
  egress: z.optional(z.literal(true)),
  /** What a person's approval must name to apply to this call (see `callDigest`). */
  digest: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_DIGEST_LENGTH))),
  /** A project-wide check (tests, type check, build, linter): evidence for every file edited before it began. */
  check: z.optional(z.literal(true)),
  /**
   * A subagent: it acts through calls of its own, so when it ends, what the session knew of the files
   * may be stale (the coding profile asks for each to be read again before an edit).
   */
  delegates: z.optional(z.literal(true)),
};

/** A call that has begun through `beginToolCall` and not ended yet. */
export const InFlightCall = z.strictObject({
  kind: ToolKind,
  tool: z.string(),
  /** Value of `writeEpoch` when the call began: the causal clock. */
  epoch: count(),
  startedAt: z.number(),
  ...CALL_FACTS,
});
export type InFlightCall = z.infer<typeof InFlightCall>;

/** A blocked operation waiting for a later success of the same tool. */
export const PendingRecovery = z.strictObject({
  recoveryId: z.string().check(z.minLength(1)),
  errorCode: z.string(),
  tool: z.string(),
  createdAt: z.number(),
  attempts: count().check(z.positive()),
});
export type PendingRecovery = z.infer<typeof PendingRecovery>;

/** The last block the machine decided, for the session to turn into an error. */
const LastBlock = z.strictObject({
  reasonCode: BlockReasonCode,
  tool: z.nullable(z.string()),
  kind: z.nullable(ToolKind),
  /** `TARGET_NOT_VALIDATED`: the targets not validated; `NO_VALIDATED_TARGET`: the call's targets. */
  targets: z.optional(CallTargets),
  /** The blocked call's digest. */
  digest: z.optional(z.string()),
});

/** Where a validated target came from: what the app shows and the recording keeps. */
export const TargetProvenance = z.strictObject({
  target: Target,
  /**
   * `user`: its value stands in the user's (or the engineer's system) words; `tool`: a trusted read
   * or resolve carried it; `discovery`: a result field a rule declares revealed it; `human`: a person.
   */
  source: z.enum(['user', 'tool', 'discovery', 'human']),
  /** The tool whose call or result it came from. */
  tool: z.optional(z.string()),
  /** The result field (`discovery`). */
  field: z.optional(z.string()),
  /** The words it matched (`user`). */
  words: z.optional(z.string()),
  /** Who attested it (`human`). */
  by: z.optional(z.string()),
});
export type TargetProvenance = z.infer<typeof TargetProvenance>;

/** A person's answer to one blocked call, waiting for that call (and no other) to be asked again. */
const Approval = z.strictObject({
  digest: z.string().check(z.minLength(1), z.maxLength(MAX_DIGEST_LENGTH)),
  reasonCode: BlockReasonCode,
  at: z.number(),
});
type LastBlock = z.infer<typeof LastBlock>;

/** The coding profile: a file edited and not checked since, with the write epoch its last edit landed at. */
export const EditedFile = z.strictObject({ target: Target, epoch: count() });
export type EditedFile = z.infer<typeof EditedFile>;

/** The execution profiles, in one place: the session options, the CLI and the stores read this list. */
export const EXECUTION_PROFILES = ['interactive', 'detection', 'investigation', 'coding'] as const;

/** Per-session settings that the machine's guards and actions read. */
export const SafetyConfig = z.strictObject({
  recoveryTtlMs: z.int().check(z.nonnegative()),
  failedWriteRequiresVerification: z.boolean(),
  /** `bind`: writes only to validated targets, verified only by covering reads. Absent: `ignore`. */
  targets: z.optional(z.enum(['ignore', 'bind'])),
  /** `shadow`: would-be blocks are recorded and the call runs. Absent: `enforce`. */
  mode: z.optional(z.enum(['enforce', 'shadow'])),
  /**
   * The execution profile. Absent: `interactive`. `detection` and `investigation` set the rules for
   * state-only writes; `coding` makes the file the unit of evidence (edits in a row, per-file checks).
   */
  profile: z.optional(z.enum(EXECUTION_PROFILES)),
});
export type SafetyConfig = z.infer<typeof SafetyConfig>;

/**
 * The machine's context. Everything is JSON: `null` rather than `undefined`,
 * plain objects, epoch milliseconds from the injected clock.
 */
export const SafetyContext = z.strictObject({
  wroteThisEpisode: z.boolean(),
  readAfterWrite: z.boolean(),
  /** Telemetry only: no value of it ever waives verification. */
  consecutiveVerifyBlocks: count(),
  lastWriteTool: z.nullable(z.string()),
  lastWriteAt: z.nullable(z.number()),
  lastReadTool: z.nullable(z.string()),
  lastReadAt: z.nullable(z.number()),
  /** How many writes have succeeded: a read verifies only if it began at the current epoch. */
  writeEpoch: count(),
  /** Calls in flight, by call id. A write among them (not state-only) means the state is WRITING. */
  calls: z.record(z.string(), InFlightCall),
  /**
   * Shadow mode: calls the gate would have blocked that run anyway, by call id. Their outcome is
   * applied as an ungated call's (the compatible API's), so the session stays a true account.
   */
  shadowCalls: z.record(z.string(), InFlightCall),
  /** Target binding: targets validated by discovery, reads, the user or a person; oldest first, capped. */
  validatedTargets: z.array(Target).check(z.maxLength(MAX_VALIDATED_TARGETS)),
  /** Target binding: targets of the last landed write that no read begun after it has covered yet. */
  uncoveredTargets: CallTargets,
  /** Where each validated target came from (at most one entry per target; none for one a version-2 snapshot held). */
  provenance: z.array(TargetProvenance).check(z.maxLength(MAX_VALIDATED_TARGETS)),
  /** The coding profile: files edited and not checked since (a read of the file, or a check begun after the edit). */
  editedFiles: z.array(EditedFile).check(z.maxLength(MAX_EDITED_FILES)),
  /** The user's and the engineer's messages, normalised (`userMessage`); never tool output. Oldest first, capped. */
  userWords: z.array(z.string().check(z.maxLength(MAX_USER_MESSAGE_LENGTH))).check(z.maxLength(MAX_USER_MESSAGES)),
  /** A person's approvals, each bound to one call's digest, used once, within {@link APPROVAL_TTL_MS}. */
  approvals: z.array(Approval).check(z.maxLength(MAX_APPROVALS)),
  pendingRecoveries: z.array(PendingRecovery),
  /** Makes recovery ids unique and deterministic (so replays reproduce them). */
  recoverySeq: count(),
  /** Total blocks decided; the session compares it across an event to learn of a block. */
  blockCount: count(),
  lastBlock: z.nullable(LastBlock),
  config: SafetyConfig,
});
export type SafetyContext = z.infer<typeof SafetyContext>;

/** Default time-to-live of a pending recovery: ten minutes. */
export const RECOVERY_TTL_MS = 600_000;

export const DEFAULT_CONFIG: SafetyConfig = {
  recoveryTtlMs: RECOVERY_TTL_MS,
  failedWriteRequiresVerification: false,
};

/**
 * The settings a session's config leaves out at their default value, so that a session that does not
 * opt in records exactly what sessions recorded before the setting existed.
 */
export const UNRECORDED_DEFAULTS: Partial<SafetyConfig> = {
  targets: 'ignore',
  mode: 'enforce',
  profile: 'interactive',
};

/**
 * The context of a fresh session.
 *
 * @example
 * initialContext().writeEpoch; // 0
 * initialContext({ recoveryTtlMs: 60_000, failedWriteRequiresVerification: true }).config.recoveryTtlMs; // 60000
 */
export function initialContext(config: SafetyConfig = DEFAULT_CONFIG): SafetyContext {
  return {
    wroteThisEpisode: false,
    readAfterWrite: false,
    consecutiveVerifyBlocks: 0,
    lastWriteTool: null,
    lastWriteAt: null,
    lastReadTool: null,
    lastReadAt: null,
    writeEpoch: 0,
    calls: {},
    shadowCalls: {},
    validatedTargets: [],
    uncoveredTargets: [],
    provenance: [],
    editedFiles: [],
    userWords: [],
    approvals: [],
    pendingRecoveries: [],
    recoverySeq: 0,
    blockCount: 0,
    lastBlock: null,
    config,
  };
}

/**
 * A shallow copy of a context, every field listed in one literal (so it has one shape whatever it
 * copies; see `MachineKind.copyContext`). The type checker holds it to the schema: a field missing
 * here, or one the schema lacks, does not compile.
 *
 * @example
 * const copy = copyContext(initialContext());
 * copy.calls === initialContext().calls; // false: a fresh context; a copy shares its nested values
 */
export function copyContext(c: SafetyContext): SafetyContext {
  return {
    wroteThisEpisode: c.wroteThisEpisode,
    readAfterWrite: c.readAfterWrite,
    consecutiveVerifyBlocks: c.consecutiveVerifyBlocks,
    lastWriteTool: c.lastWriteTool,
    lastWriteAt: c.lastWriteAt,
    lastReadTool: c.lastReadTool,
    lastReadAt: c.lastReadAt,
    writeEpoch: c.writeEpoch,
    calls: c.calls,
    shadowCalls: c.shadowCalls,
    validatedTargets: c.validatedTargets,
    uncoveredTargets: c.uncoveredTargets,
    provenance: c.provenance,
    editedFiles: c.editedFiles,
    userWords: c.userWords,
    approvals: c.approvals,
    pendingRecoveries: c.pendingRecoveries,
    recoverySeq: c.recoverySeq,
    blockCount: c.blockCount,
    lastBlock: c.lastBlock,
    config: c.config,
  };
}

/** A write that acts on the world: a state-only write (the agent's own records) is not one. */
export function isWorldWrite(call: InFlightCall): boolean {
  return call.kind === 'write' && call.stateOnly !== true;
}

/** The write in flight, if any (there is at most one; state-only writes are not counted). */
export function inFlightWriteOf(context: SafetyContext): { id: string; tool: string; startedAt: number } | undefined {
  for (const id in context.calls) {
    const call = context.calls[id]!;
    if (isWorldWrite(call)) return { id, tool: call.tool, startedAt: call.startedAt };
  }
  return undefined;
}
