import * as z from 'zod/mini';
import type { CallDescriptor } from '../classifier.js';
import type { FSMBlockedError } from '../../safety/FSMBlockedError.js';
import type { SafetySession } from '../../safety/SafetySessionTypes.js';
import { BlockReasonCode, type ToolKind } from '../../safety/toolKind.js';
import type { ToolCall } from './ToolCall.js';
import { MAX_TIMER_MS } from '../../core/timerDelay.js';

/** A call of a batch with what the classifier said of it (its kind, and its targets, trust and so on). */
export interface ClassifiedCall extends ToolCall, Omit<CallDescriptor, 'kind'> {
  kind: ToolKind;
  /** The digest a person's approval binds to: the call's tool, canonical arguments and targets. */
  digest?: string;
}

/** What a person answered when the loop escalated a block: approve (attest the missing evidence) or deny. */
export type EscalationAnswer = 'approve' | 'deny' | { decision: 'approve' | 'deny'; by?: string; note?: string };

/** What a loop built without a classifier is told: the fix, in words. */
const MISSING_CLASSIFIER =
  'expected a classifier (toolName, args) => ToolKind: there is no default, because without rules every ordinary tool would be a write and blocked; pass createClassifier(rules) or a preset such as pulseClassifier (see docs/classification.md)';

const fn = <T>(what: string) => z.custom<T>((v) => typeof v === 'function', { message: `expected a function ${what}` });

const SESSION_METHODS = [
  'beginToolCall',
  'endToolCall',
  'canFinalAnswer',
  'completeVerification',
  'recordLoopBlock',
] as const;

/** What `createToolLoop` accepts. Unknown keys are refused, so a misspelt option is an error, not a default. */
export const ToolLoopOptions = z.strictObject({
  /** The session every call goes through (`createSafetySession()`). */
  session: z.custom<SafetySession>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      SESSION_METHODS.every((m) => typeof (v as unknown as Record<string, unknown>)[m] === 'function'),
    { message: 'expected a SafetySession (from createSafetySession or restoreSafetySession)' },
  ),
  /** Runs one admitted call. Honour `signal`: it is aborted on timeout and when the loop's signal aborts. */
  execute: fn<(call: ToolCall, signal: AbortSignal) => Promise<unknown>>('(call, signal) => Promise<result>'),
  /**
   * `(toolName, args) => ToolKind`. Required: there is no default, because the generic rules
   * alone make every ordinary tool name (`read_file`, `get_weather`) a write, and a loop whose
   * every call is a write blocks them all. Build one with `createClassifier(rules)`, or pass a
   * preset such as `pulseClassifier` (see docs/classification.md).
   */
  classify: z.custom<(toolName: string, args?: unknown) => ToolKind | CallDescriptor>((v) => typeof v === 'function', {
    message: MISSING_CLASSIFIER,
  }),
  /**
   * Block reasons a person may be asked about (`['UNVERIFIED_WRITE', 'TARGET_NOT_VALIDATED']`).
   * For such a block the loop calls `onEscalate`; an approval attests the missing evidence and
   * the call is asked again. Default none. Needs `onEscalate`.
   */
  escalate: z.optional(z.readonly(z.array(BlockReasonCode))),
  /** `(block, call) => Promise<'approve' | 'deny'>`: asks a person. Errors and other answers deny. */
  onEscalate: z.optional(
    fn<(block: FSMBlockedError, call: ClassifiedCall) => Promise<EscalationAnswer>>('(block, call) => Promise<answer>'),
  ),
  /** Most calls of a batch running at once. Default 4. */
  concurrency: z._default(z.int().check(z.gte(1)), 4),
  /** `(calls) => boolean`: true runs the batch one call at a time, in the provider's order. Default never. */
  mustRunInOrder: z.optional(fn<(calls: readonly ClassifiedCall[]) => boolean>('(calls) => boolean')),
  /** How many times per turn a question before any look is blocked before it goes through. Default 2. */
  maxLookBeforeAskBlocks: z._default(z.int().check(z.gte(0)), 2),
  /** How many identical calls (same tool and arguments) a turn may attempt; more are blocked. Default 3. */
  maxIdenticalCalls: z._default(z.union([z.int().check(z.gte(1)), z.literal(Infinity)]), 3),
  /** Per-call time limit in milliseconds. Default none. */
  toolTimeoutMs: z.optional(z.int().check(z.positive(), z.lte(MAX_TIMER_MS))),
  /**
   * Told when a classifier threw: the call was judged a write (fail closed), and a classifier bug
   * would otherwise show only as blocked calls. Default `console.warn`.
   */
  onWarning: z.optional(fn<(message: string) => void>('(message) => void')),
  /** Aborts every call in flight and every call not yet started. */
  signal: z.optional(
    z.custom<AbortSignal>((v) => typeof AbortSignal !== 'undefined' && v instanceof AbortSignal, {
      message: 'expected an AbortSignal',
    }),
  ),
});
export type ToolLoopOptions = z.input<typeof ToolLoopOptions>;
