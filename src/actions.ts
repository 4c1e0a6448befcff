import * as z from 'zod/mini';
import {
  initialContext,
  MAX_VALIDATED_TARGETS,
  type InFlightCall,
  type PendingRecovery,
  type SafetyContext,
} from './SafetyContext.js';
import type { SafetyEvent } from './SafetyEvent.js';
import { evidenceTargets, subjectOf, unvalidatedTargets } from './guards.js';
import { BlockReasonCode } from './toolKind.js';

/** An action implementation: a pure function from context, event and params to a context patch. */
export interface ActionImpl<P = undefined> {
  /** Schema of the action's params in the machine JSON; absent when it takes none. */
  params?: z.ZodMiniType<P>;
  run: (context: SafetyContext, event: SafetyEvent, params: P) => Partial<SafetyContext>;
}

function defineAction<P = undefined>(impl: ActionImpl<P>): ActionImpl<P> {
  return impl;
}

/** The error code recorded for a block tracked by the call-lifecycle API. */
const BLOCKED_RECOVERY_CODE = 'FSM_BLOCKED';

function withoutCall(calls: SafetyContext['calls'], id: string | undefined): SafetyContext['calls'] {
  if (id === undefined || !Object.hasOwn(calls, id)) return calls;
  // Rebuilt rather than `delete`d: deleting keys sends V8 objects into slow dictionary mode.
  const rest: SafetyContext['calls'] = {};
  for (const key in calls) if (key !== id) setCall(rest, key, calls[key]!);
  return rest;
}

/** Adds a call by id as an own property: an id like `__proto__` is just a name, never the prototype. */
function setCall(calls: SafetyContext['calls'], id: string, call: SafetyContext['calls'][string]): void {
  if (id === '__proto__')
    Object.defineProperty(calls, id, { value: call, enumerable: true, writable: true, configurable: true });
  else calls[id] = call;
}

/**
 * Adds targets to the validated set, newest last; at the cap the oldest are dropped (forgetting a
 * validation only makes the gate stricter). Without binding nothing is kept: targets play no part.
 */
function validated(context: SafetyContext, targets: readonly string[] | undefined): Partial<SafetyContext> {
  if (context.config.targets !== 'bind' || !targets || targets.length === 0) return {};
  const fresh = targets.filter((t, i) => targets.indexOf(t) === i);
  const kept = context.validatedTargets.filter((t) => !fresh.includes(t));
  const all = [...kept, ...fresh];
  return { validatedTargets: all.length > MAX_VALIDATED_TARGETS ? all.slice(-MAX_VALIDATED_TARGETS) : all };
}

/** What a begun call keeps of its event. */
function callOf(event: SafetyEvent & { type: 'BEGIN_CALL' | 'RUN_UNGATED' }, epoch: number): InFlightCall {
  const call: InFlightCall = { kind: event.kind, tool: event.tool, epoch, startedAt: event.at };
  if (event.targets !== undefined) call.targets = event.targets;
  if (event.stateOnly) call.stateOnly = true;
  if (event.untrusted) call.untrusted = true;
  return call;
}

/** Drops recoveries older than the TTL, measured on the event's clock reading. */
function liveRecoveries(context: SafetyContext, at: number): PendingRecovery[] {
  const ttl = context.config.recoveryTtlMs;
  const all = context.pendingRecoveries;
  // The common case (nothing pending, nothing expired) keeps the same array: no allocation.
  return all.every((r) => at - r.createdAt <= ttl) ? all : all.filter((r) => at - r.createdAt <= ttl);
}

function newRecovery(context: SafetyContext, errorCode: string, tool: string, at: number): PendingRecovery {
  // Deterministic (tool, clock reading, per-session sequence), so a replay reproduces the ids.
  return { recoveryId: `${tool}-${at}-${context.recoverySeq}`, errorCode, tool, createdAt: at, attempts: 1 };
}

/** The action implementations, by the names the machine JSON uses. */
export const actionImplementations = {
  block: defineAction<{ reasonCode: BlockReasonCode }>({
    params: z.strictObject({ reasonCode: BlockReasonCode }),
    run: (context, event, { reasonCode }) => {
      const subject = subjectOf(context, event);
      const targets = reasonCode === 'TARGET_NOT_VALIDATED' ? unvalidatedTargets(context, event) : subject?.targets;
      const lastBlock: NonNullable<SafetyContext['lastBlock']> = {
        reasonCode,
        tool: subject?.tool ?? null,
        kind: subject?.kind ?? null,
      };
      if (targets !== undefined && targets.length > 0) lastBlock.targets = [...targets];
      return { blockCount: context.blockCount + 1, lastBlock };
    },
  }),
  countVerifyBlock: defineAction({
    run: (context) => ({ consecutiveVerifyBlocks: context.consecutiveVerifyBlocks + 1 }),
  }),
  trackBlockedRecovery: defineAction({
    run: (context, event) => {
      const subject = subjectOf(context, event);
      if (!subject) return {};
      const live = liveRecoveries(context, event.at);
      const i = live.findIndex((r) => r.tool === subject.tool && r.errorCode === BLOCKED_RECOVERY_CODE);
      if (i >= 0) {
        // A retry of the same blocked tool is one recovery with more attempts, not a new one.
        const next = live.slice();
        next[i] = { ...live[i]!, attempts: live[i]!.attempts + 1 };
        return { pendingRecoveries: next };
      }
      return {
        pendingRecoveries: [...live, newRecovery(context, BLOCKED_RECOVERY_CODE, subject.tool, event.at)],
        recoverySeq: context.recoverySeq + 1,
      };
    },
  }),
  beginCall: defineAction({
    run: (context, event) => {
      if (event.type !== 'BEGIN_CALL') return {};
      return { calls: { ...context.calls, [event.id]: callOf(event, context.writeEpoch) } };
    },
  }),
  runUngated: defineAction({
    run: (context, event) => {
      if (event.type !== 'RUN_UNGATED') return {};
      return { shadowCalls: { ...context.shadowCalls, [event.id]: callOf(event, context.writeEpoch) } };
    },
  }),
  validateTargets: defineAction({
    run: (context, event) => {
      if (event.type === 'TARGET_ESTABLISHED' || event.type === 'ATTEST') return validated(context, event.targets);
      return validated(context, evidenceTargets(subjectOf(context, event), event));
    },
  }),
  coverTargets: defineAction({
    run: (context, event) => {
      const seen = evidenceTargets(subjectOf(context, event), event);
      if (seen.length === 0 || context.uncoveredTargets.length === 0) return {};
      return { uncoveredTargets: context.uncoveredTargets.filter((t) => !seen.includes(t)) };
    },
  }),
  recordWrite: defineAction({
    run: (context, event) => {
      const subject = subjectOf(context, event);
      // Calls in flight stay: a write reported through the compatible API is one more
      // landed write; it neither ends nor forgets a write in flight (finishCall ends a call).
      return {
        wroteThisEpisode: true,
        readAfterWrite: false,
        lastWriteTool: subject?.tool ?? null,
        lastWriteAt: event.at,
        writeEpoch: context.writeEpoch + 1,
        // Under binding, only reads covering these targets verify it; a write without targets keeps the seed's rule.
        uncoveredTargets: context.config.targets === 'bind' && subject?.targets ? [...subject.targets] : [],
      };
    },
  }),
  markReadAfterWrite: defineAction({
    run: () => ({ readAfterWrite: true, consecutiveVerifyBlocks: 0, uncoveredTargets: [] }),
  }),
  recordRead: defineAction({
    run: (context, event) => ({ lastReadTool: subjectOf(context, event)?.tool ?? null, lastReadAt: event.at }),
  }),
  finishCall: defineAction({
    run: (context, event) => {
      if (event.type !== 'TOOL_SUCCEEDED' && event.type !== 'TOOL_FAILED') return {};
      if (event.id === undefined) return {};
      if (!Object.hasOwn(context.calls, event.id)) {
        // A shadow call ends: it was never in flight as far as the gate is concerned.
        if (!Object.hasOwn(context.shadowCalls, event.id)) return {};
        const call = context.shadowCalls[event.id]!;
        const patch: Partial<SafetyContext> = { shadowCalls: withoutCall(context.shadowCalls, event.id) };
        if (event.type === 'TOOL_SUCCEEDED' && context.pendingRecoveries.length > 0)
          patch.pendingRecoveries = liveRecoveries(context, event.at).filter((r) => r.tool !== call.tool);
        return patch;
      }
      const patch: Partial<SafetyContext> = { calls: withoutCall(context.calls, event.id) };
      const call = context.calls[event.id];
      if (event.type === 'TOOL_SUCCEEDED' && call && context.pendingRecoveries.length > 0) {
        // A later success of a blocked tool is the recovery: it settles them all.
        patch.pendingRecoveries = liveRecoveries(context, event.at).filter((r) => r.tool !== call.tool);
      }
      return patch;
    },
  }),
  clearVerification: defineAction({
    run: () => ({ readAfterWrite: false, consecutiveVerifyBlocks: 0, uncoveredTargets: [] }),
  }),
  clearEpisode: defineAction({
    run: () => ({ wroteThisEpisode: false, readAfterWrite: false, consecutiveVerifyBlocks: 0, uncoveredTargets: [] }),
  }),
  resetSession: defineAction({
    run: (context) => ({
      ...initialContext(context.config),
      // Monotonic across resets: recovery ids stay unique and the session can still see a new block.
      recoverySeq: context.recoverySeq,
      blockCount: context.blockCount,
    }),
  }),
  trackRecovery: defineAction({
    run: (context, event) => {
      if (event.type !== 'TRACK_RECOVERY') return {};
      return {
        pendingRecoveries: [
          ...liveRecoveries(context, event.at),
          newRecovery(context, event.errorCode, event.tool, event.at),
        ],
        recoverySeq: context.recoverySeq + 1,
      };
    },
  }),
  takeRecovery: defineAction({
    run: (context, event) => {
      if (event.type !== 'CHECK_RECOVERY') return {};
      const live = liveRecoveries(context, event.at);
      let oldest = -1;
      for (let i = 0; i < live.length; i++) {
        const r = live[i]!;
        if (r.tool === event.tool && (oldest < 0 || r.createdAt < live[oldest]!.createdAt)) oldest = i;
      }
      return { pendingRecoveries: oldest < 0 ? live : live.filter((_, i) => i !== oldest) };
    },
  }),
};

export type ActionName = keyof typeof actionImplementations;
