import * as z from 'zod/mini';
import {
  APPROVAL_TTL_MS,
  FILE_TARGET_PREFIX,
  initialContext,
  MAX_APPROVALS,
  MAX_VALIDATED_TARGETS,
  type InFlightCall,
  type PendingRecovery,
  type SafetyContext,
  type TargetProvenance,
} from './SafetyContext.js';
import type { SafetyEvent } from './SafetyEvent.js';
import { digestOf, evidenceTargets, subjectOf, unvalidatedTargets, userNamedTargets } from './guards.js';
import { MAX_USER_MESSAGES, normaliseWords } from './userWords.js';
import { draftAction } from '../core/MachineKind.js';
import { BlockReasonCode, isDiscoveryKind } from './toolKind.js';

/**
 * An action implementation: a pure function from context, event and params to a context patch,
 * and for most of them `apply`, the same update written field by field into a draft (a copy of
 * the context only the step holds), which the compiled table uses. Each reads what it needs
 * before it writes, so it sees the context the previous action left, as a patch would.
 */
export interface ActionImpl<P = undefined> {
  /** Schema of the action's params in the machine JSON; absent when it takes none. */
  params?: z.ZodMiniType<P>;
  run: (context: SafetyContext, event: SafetyEvent, params: P) => Partial<SafetyContext>;
  apply?: (draft: SafetyContext, event: SafetyEvent, params: P) => void;
}

function defineAction<P = undefined>(impl: ActionImpl<P>): ActionImpl<P> {
  return impl;
}

/** An action written as a draft update; its `run` applies it to a copy (see {@link draftAction}). */
function draftOf<P = undefined>(impl: {
  params?: z.ZodMiniType<P>;
  apply: (draft: SafetyContext, event: SafetyEvent, params: P) => void;
}): ActionImpl<P> {
  return draftAction<SafetyContext, SafetyEvent, P>(impl);
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

/**
 * A copy of the calls with one more. Copied key by key: each set of call ids is its own object
 * shape, so a spread of them (megamorphic in V8) cost more than the rest of a begin.
 */
function withCall(
  calls: SafetyContext['calls'],
  id: string,
  call: SafetyContext['calls'][string],
): SafetyContext['calls'] {
  const next: SafetyContext['calls'] = {};
  for (const key in calls) setCall(next, key, calls[key]!);
  setCall(next, id, call);
  return next;
}

/** Adds a call by id as an own property: an id like `__proto__` is just a name, never the prototype. */
function setCall(calls: SafetyContext['calls'], id: string, call: SafetyContext['calls'][string]): void {
  if (id === '__proto__')
    Object.defineProperty(calls, id, { value: call, enumerable: true, writable: true, configurable: true });
  else calls[id] = call;
}

/**
 * Adds targets to the validated set, newest last, each with where it came from; at the cap the
 * oldest are dropped (forgetting a validation only makes the gate stricter). Without binding
 * nothing is kept: targets play no part.
 */
function addValidated(draft: SafetyContext, added: readonly TargetProvenance[]): void {
  if (draft.config.targets !== 'bind' || added.length === 0) return;
  // A target validated again keeps where it first came from (the user's words stay the source after
  // a read of it) and moves to the end, the most recently used, which the cap keeps longest.
  const fresh = added
    .filter((p, i) => added.findIndex((q) => q.target === p.target) === i)
    .map((p) => draft.provenance.find((q) => q.target === p.target) ?? p);
  const isFresh = (t: string) => fresh.some((p) => p.target === t);
  let targets = [...draft.validatedTargets.filter((t) => !isFresh(t)), ...fresh.map((p) => p.target)];
  let provenance = [...draft.provenance.filter((p) => !isFresh(p.target)), ...fresh];
  if (targets.length > MAX_VALIDATED_TARGETS) targets = targets.slice(-MAX_VALIDATED_TARGETS);
  if (provenance.length > targets.length) provenance = provenance.filter((p) => targets.includes(p.target));
  draft.validatedTargets = targets;
  draft.provenance = provenance;
}

/** Where the targets an event validates came from. */
function provenanceOf(draft: SafetyContext, event: SafetyEvent): TargetProvenance[] {
  switch (event.type) {
    case 'TARGET_ESTABLISHED':
      return (event.targets ?? []).map((target) => ({ target, source: event.source ?? 'user' }));
    case 'ATTEST':
      return (event.targets ?? []).map((target) => ({ target, source: 'human', by: event.by }));
    case 'TOOL_SUCCEEDED': {
      const subject = subjectOf(draft, event);
      if (!subject) return [];
      const tool = subject.tool;
      const out: TargetProvenance[] = [];
      // The same targets as `evidenceTargets`, each with where it came from.
      if (isDiscoveryKind(subject.kind) && !subject.untrusted)
        for (const target of subject.targets ?? []) out.push({ target, source: 'tool', tool });
      if (subject.kind === 'write')
        for (const target of subject.created ?? []) out.push({ target, source: 'tool', tool });
      (event.discovered ?? []).forEach((target, i) => {
        const field = event.fields?.[i];
        if (field) out.push({ target, source: 'discovery', tool, field });
        else if (!subject.untrusted) out.push({ target, source: 'discovery', tool });
      });
      return out;
    }
    default:
      return [];
  }
}

/** What a begun call keeps of its event. */
function callOf(event: SafetyEvent & { type: 'BEGIN_CALL' | 'RUN_UNGATED' }, epoch: number): InFlightCall {
  const call: InFlightCall = { kind: event.kind, tool: event.tool, epoch, startedAt: event.at };
  if (event.targets !== undefined) call.targets = event.targets;
  if (event.stateOnly) call.stateOnly = true;
  if (event.untrusted) call.untrusted = true;
  if (event.creates) call.creates = true;
  if (event.created !== undefined) call.created = event.created;
  if (event.egress) call.egress = true;
  if (event.digest !== undefined) call.digest = event.digest;
  if (event.check) call.check = true;
  if (event.delegates) call.delegates = true;
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

/** Verification settled one way or the other: no blocks counted, no targets left to cover. */
function settleVerification(draft: SafetyContext, readAfterWrite: boolean): void {
  draft.readAfterWrite = readAfterWrite;
  draft.consecutiveVerifyBlocks = 0;
  draft.uncoveredTargets = [];
}

/** The action implementations, by the names the machine JSON uses. */
export const actionImplementations = {
  block: draftOf<{ reasonCode: BlockReasonCode }>({
    params: z.strictObject({ reasonCode: BlockReasonCode }),
    apply: (draft, event, { reasonCode }) => {
      const subject = subjectOf(draft, event);
      const targets =
        reasonCode === 'TARGET_NOT_VALIDATED' || reasonCode === 'EGRESS_NOT_VALIDATED'
          ? unvalidatedTargets(draft, event)
          : subject?.targets;
      const lastBlock: NonNullable<SafetyContext['lastBlock']> = {
        reasonCode,
        tool: subject?.tool ?? null,
        kind: subject?.kind ?? null,
      };
      // A final answer refused for files nobody checked names those files (what clears it).
      const pending =
        reasonCode === 'FINAL_ANSWER_UNVERIFIED' && draft.editedFiles.length > 0
          ? draft.editedFiles.map((f) => f.target)
          : targets;
      if (pending !== undefined && pending.length > 0) lastBlock.targets = [...pending];
      if (subject !== undefined) lastBlock.digest = digestOf(subject);
      draft.blockCount += 1;
      draft.lastBlock = lastBlock;
    },
  }),
  countVerifyBlock: draftOf({
    apply: (draft) => {
      draft.consecutiveVerifyBlocks += 1;
    },
  }),
  trackBlockedRecovery: draftOf({
    apply: (draft, event) => {
      const subject = subjectOf(draft, event);
      if (!subject) return;
      const live = liveRecoveries(draft, event.at);
      const i = live.findIndex((r) => r.tool === subject.tool && r.errorCode === BLOCKED_RECOVERY_CODE);
      if (i >= 0) {
        // A retry of the same blocked tool is one recovery with more attempts, not a new one.
        const next = live.slice();
        next[i] = { ...live[i]!, attempts: live[i]!.attempts + 1 };
        draft.pendingRecoveries = next;
        return;
      }
      const added = newRecovery(draft, BLOCKED_RECOVERY_CODE, subject.tool, event.at);
      draft.pendingRecoveries = [...live, added];
      draft.recoverySeq += 1;
    },
  }),
  beginCall: draftOf({
    apply: (draft, event) => {
      if (event.type !== 'BEGIN_CALL') return;
      draft.calls = withCall(draft.calls, event.id, callOf(event, draft.writeEpoch));
    },
  }),
  runUngated: draftOf({
    apply: (draft, event) => {
      if (event.type !== 'RUN_UNGATED') return;
      draft.shadowCalls = withCall(draft.shadowCalls, event.id, callOf(event, draft.writeEpoch));
    },
  }),
  validateTargets: draftOf({
    apply: (draft, event) => {
      if (draft.config.targets !== 'bind') return;
      addValidated(draft, provenanceOf(draft, event));
    },
  }),
  /** A call's targets that the user's words validated join the set, with the words they matched. */
  validateUserNamedTargets: draftOf({
    apply: (draft, event) => {
      const named = userNamedTargets(draft, event);
      if (named.length === 0) return;
      const tool = subjectOf(draft, event)?.tool;
      addValidated(
        draft,
        named.map(({ target, words }) =>
          tool === undefined ? { target, source: 'user', words } : { target, source: 'user', tool, words },
        ),
      );
    },
  }),
  /** What the user or the engineer said: kept normalised, newest last, capped (never tool output). */
  rememberWords: draftOf({
    apply: (draft, event) => {
      if (event.type !== 'USER_MESSAGE') return;
      const words = normaliseWords(event.text);
      if (words === '' || draft.userWords.includes(words)) return;
      const all = [...draft.userWords, words];
      draft.userWords = all.length > MAX_USER_MESSAGES ? all.slice(-MAX_USER_MESSAGES) : all;
    },
  }),
  /** A person's answer for one call: kept for that call's digest until used or expired. */
  approveCall: draftOf({
    apply: (draft, event) => {
      if (event.type !== 'ATTEST' || event.digest === undefined) return;
      const live = draft.approvals.filter((a) => event.at - a.at <= APPROVAL_TTL_MS && a.digest !== event.digest);
      const all = [...live, { digest: event.digest, reasonCode: event.reasonCode, at: event.at }];
      draft.approvals = all.length > MAX_APPROVALS ? all.slice(-MAX_APPROVALS) : all;
    },
  }),
  /** The approved call begins: its approval is used up (once). */
  useApproval: draftOf({
    apply: (draft, event) => {
      const subject = subjectOf(draft, event);
      if (event.type !== 'BEGIN_CALL' || subject === undefined) return;
      const digest = digestOf(subject);
      const i = draft.approvals.findIndex((a) => a.digest === digest);
      if (i >= 0) draft.approvals = draft.approvals.filter((_, j) => j !== i);
    },
  }),
  coverTargets: draftOf({
    apply: (draft, event) => {
      const seen = evidenceTargets(subjectOf(draft, event), event);
      if (seen.length === 0 || draft.uncoveredTargets.length === 0) return;
      draft.uncoveredTargets = draft.uncoveredTargets.filter((t) => !seen.includes(t));
    },
  }),
  recordWrite: draftOf({
    apply: (draft, event) => {
      const subject = subjectOf(draft, event);
      // Calls in flight stay: a write reported through the compatible API is one more
      // landed write; it neither ends nor forgets a write in flight (finishCall ends a call).
      draft.wroteThisEpisode = true;
      draft.readAfterWrite = false;
      draft.lastWriteTool = subject?.tool ?? null;
      draft.lastWriteAt = event.at;
      // Under binding, only reads covering these targets verify it; a write without targets keeps the seed's rule.
      draft.uncoveredTargets = draft.config.targets === 'bind' && subject?.targets ? [...subject.targets] : [];
      draft.writeEpoch += 1; // last: the subject above was read at the write's own epoch
    },
  }),
  /** The coding profile: a file edit landed; its files wait for a read or a check begun after it. */
  recordFileEdit: draftOf({
    apply: (draft, event) => {
      const subject = subjectOf(draft, event);
      const targets = subject?.targets ?? [];
      const epoch = draft.writeEpoch + 1;
      draft.wroteThisEpisode = true;
      draft.lastWriteTool = subject?.tool ?? null;
      draft.lastWriteAt = event.at;
      draft.editedFiles = [
        ...draft.editedFiles.filter((f) => !targets.includes(f.target)),
        ...targets.map((target) => ({ target, epoch })),
      ];
      draft.writeEpoch = epoch; // last: the subject above was read at the edit's own epoch
    },
  }),
  /**
   * The coding profile: a read or resolve that ended ok covers the files it read, and a check every
   * file, each only if its last edit landed before the call began.
   */
  coverFiles: draftOf({
    apply: (draft, event) => {
      if (draft.editedFiles.length === 0) return;
      const subject = subjectOf(draft, event);
      if (!subject || !isDiscoveryKind(subject.kind)) return;
      const read = subject.check === true ? undefined : (subject.targets ?? []);
      const left = draft.editedFiles.filter(
        (f) => f.epoch > subject.epoch || (read !== undefined && !read.includes(f.target)),
      );
      if (left.length !== draft.editedFiles.length) draft.editedFiles = left;
    },
  }),
  /** A subagent ended: no file stays validated (each must be read again before an edit); edited files stay. */
  forgetFiles: draftOf({
    apply: (draft) => {
      if (!draft.validatedTargets.some((t) => t.startsWith(FILE_TARGET_PREFIX))) return;
      draft.validatedTargets = draft.validatedTargets.filter((t) => !t.startsWith(FILE_TARGET_PREFIX));
      draft.provenance = draft.provenance.filter((p) => !p.target.startsWith(FILE_TARGET_PREFIX));
    },
  }),
  /** A person checked the edited files for the final answer. */
  clearEditedFiles: draftOf({
    apply: (draft) => {
      draft.editedFiles = [];
    },
  }),
  markReadAfterWrite: draftOf({ apply: (draft) => settleVerification(draft, true) }),
  recordRead: draftOf({
    apply: (draft, event) => {
      draft.lastReadTool = subjectOf(draft, event)?.tool ?? null;
      draft.lastReadAt = event.at;
    },
  }),
  finishCall: draftOf({
    apply: (draft, event) => {
      if (event.type !== 'TOOL_SUCCEEDED' && event.type !== 'TOOL_FAILED') return;
      if (event.id === undefined) return;
      if (!Object.hasOwn(draft.calls, event.id)) {
        // A shadow call ends: it was never in flight as far as the gate is concerned.
        if (!Object.hasOwn(draft.shadowCalls, event.id)) return;
        const call = draft.shadowCalls[event.id]!;
        if (event.type === 'TOOL_SUCCEEDED' && draft.pendingRecoveries.length > 0)
          draft.pendingRecoveries = liveRecoveries(draft, event.at).filter((r) => r.tool !== call.tool);
        draft.shadowCalls = withoutCall(draft.shadowCalls, event.id);
        return;
      }
      const call = draft.calls[event.id];
      if (event.type === 'TOOL_SUCCEEDED' && call && draft.pendingRecoveries.length > 0) {
        // A later success of a blocked tool is the recovery: it settles them all.
        draft.pendingRecoveries = liveRecoveries(draft, event.at).filter((r) => r.tool !== call.tool);
      }
      draft.calls = withoutCall(draft.calls, event.id);
    },
  }),
  clearVerification: draftOf({ apply: (draft) => settleVerification(draft, false) }),
  clearEpisode: draftOf({
    apply: (draft) => {
      draft.wroteThisEpisode = false;
      draft.readAfterWrite = false;
      draft.consecutiveVerifyBlocks = 0;
      draft.uncoveredTargets = [];
    },
  }),
  resetSession: defineAction({
    run: (context) => ({
      ...initialContext(context.config),
      // Monotonic across resets: recovery ids stay unique and the session can still see a new block.
      recoverySeq: context.recoverySeq,
      blockCount: context.blockCount,
    }),
  }),
  trackRecovery: draftOf({
    apply: (draft, event) => {
      if (event.type !== 'TRACK_RECOVERY') return;
      const added = newRecovery(draft, event.errorCode, event.tool, event.at);
      draft.pendingRecoveries = [...liveRecoveries(draft, event.at), added];
      draft.recoverySeq += 1;
    },
  }),
  takeRecovery: draftOf({
    apply: (draft, event) => {
      if (event.type !== 'CHECK_RECOVERY') return;
      const live = liveRecoveries(draft, event.at);
      let oldest = -1;
      for (let i = 0; i < live.length; i++) {
        const r = live[i]!;
        if (r.tool === event.tool && (oldest < 0 || r.createdAt < live[oldest]!.createdAt)) oldest = i;
      }
      draft.pendingRecoveries = oldest < 0 ? live : live.filter((_, i) => i !== oldest);
    },
  }),
};

export type ActionName = keyof typeof actionImplementations;
