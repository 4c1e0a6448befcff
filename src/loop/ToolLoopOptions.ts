import * as z from 'zod/mini';
import type { SafetySession } from '../SafetySession.js';
import type { ToolKind } from '../toolKind.js';
import type { ToolCall } from './ToolCall.js';

/** A call of a batch with the kind the classifier gave it. */
export interface ClassifiedCall extends ToolCall {
  kind: ToolKind;
}

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
  /** `(toolName, args) => ToolKind`. Default `classifyToolCall` (generic verbs, then write). */
  classify: z.optional(fn<(toolName: string, args?: unknown) => ToolKind>('(toolName, args) => ToolKind')),
  /** Most calls of a batch running at once. Default 4. */
  concurrency: z._default(z.int().check(z.gte(1)), 4),
  /** `(calls) => boolean`: true runs the batch one call at a time, in the provider's order. Default never. */
  mustRunInOrder: z.optional(fn<(calls: readonly ClassifiedCall[]) => boolean>('(calls) => boolean')),
  /** How many times per turn a question before any look is blocked before it goes through. Default 2. */
  maxLookBeforeAskBlocks: z._default(z.int().check(z.gte(0)), 2),
  /** How many identical calls (same tool and arguments) a turn may attempt; more are blocked. Default 3. */
  maxIdenticalCalls: z._default(z.union([z.int().check(z.gte(1)), z.literal(Infinity)]), 3),
  /** Per-call time limit in milliseconds. Default none. */
  toolTimeoutMs: z.optional(z.int().check(z.positive())),
  /** Aborts every call in flight and every call not yet started. */
  signal: z.optional(
    z.custom<AbortSignal>((v) => typeof AbortSignal !== 'undefined' && v instanceof AbortSignal, {
      message: 'expected an AbortSignal',
    }),
  ),
});
export type ToolLoopOptions = z.input<typeof ToolLoopOptions>;
export type ResolvedToolLoopOptions = z.output<typeof ToolLoopOptions>;
