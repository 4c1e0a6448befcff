import * as z from 'zod/mini';
import { BlockReasonCode, ToolKind } from './toolKind.js';

/**
 * The largest counter a snapshot may hold: every counter (write epoch, sequences,
 * attempts) can still advance exactly, by one, for longer than any session lives.
 * A snapshot at `Number.MAX_SAFE_INTEGER` would stop the write epoch advancing.
 */
export const MAX_COUNT = 2 ** 52;
const count = () => z.int().check(z.nonnegative(), z.lte(MAX_COUNT));

/** A call that has begun through `beginToolCall` and not ended yet. */
export const InFlightCall = z.strictObject({
  kind: ToolKind,
  tool: z.string(),
  /** Value of `writeEpoch` when the call began: the causal clock. */
  epoch: count(),
  startedAt: z.number(),
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
});
type LastBlock = z.infer<typeof LastBlock>;

/** Per-session settings that the machine's guards and actions read. */
export const SafetyConfig = z.strictObject({
  recoveryTtlMs: z.int().check(z.nonnegative()),
  failedWriteRequiresVerification: z.boolean(),
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
  /** Calls in flight, by call id. A write among them means the state is WRITING. */
  calls: z.record(z.string(), InFlightCall),
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
    pendingRecoveries: [],
    recoverySeq: 0,
    blockCount: 0,
    lastBlock: null,
    config,
  };
}

/** The write in flight, if any (there is at most one). */
export function inFlightWriteOf(context: SafetyContext): { id: string; tool: string; startedAt: number } | undefined {
  for (const id in context.calls) {
    const call = context.calls[id]!;
    if (call.kind === 'write') return { id, tool: call.tool, startedAt: call.startedAt };
  }
  return undefined;
}
