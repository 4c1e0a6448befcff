import { z } from 'zod';

/** Severities, lowest first (their index is their rank). */
export const SEVERITIES = ['info', 'watch', 'warning', 'critical'] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

/**
 * One tool call of a model pass as signal detection reads it: the tool's
 * name, its input (an object, or its JSON text), its raw output (untruncated:
 * detectors need all of it) and whether it succeeded.
 */
export const ToolCallRecord = z.object({
  id: z.string(),
  tool: z.string(),
  input: z.unknown(),
  output: z.string(),
  success: z.boolean(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecord>;

/**
 * Something deterministic code saw in a tool's output that a finding should
 * account for. `resourceId` and `category` are what matching compares.
 */
export const Signal = z.object({
  type: z.string().min(1),
  resourceId: z.string(),
  resourceName: z.string(),
  resourceType: z.string(),
  severity: Severity,
  category: z.string(),
  summary: z.string(),
  evidence: z.string(),
  toolCallId: z.optional(z.string()),
});
export type Signal = z.infer<typeof Signal>;

/**
 * The numbers the detectors compare with, all strict `>`: storage pool usage
 * (warning, critical), CPU and memory percentages, and how old the newest
 * backup may be (milliseconds).
 */
export const SignalThresholds = z.object({
  storageWarning: z.number(),
  storageCritical: z.number(),
  highCpu: z.number(),
  highMemory: z.number(),
  backupStaleMs: z.number().positive(),
});
export type SignalThresholds = z.infer<typeof SignalThresholds>;

/** What a detector is given besides the call: the thresholds and the run's clock. */
export interface DetectorContext {
  thresholds: SignalThresholds;
  /** The run's clock, epoch milliseconds. */
  now: number;
}

/**
 * A detector: a pure function from one successful tool call to the signals it
 * shows. It must not throw on output it does not understand: it returns `[]`.
 */
export type Detector = (call: ToolCallRecord, context: DetectorContext) => Signal[];
