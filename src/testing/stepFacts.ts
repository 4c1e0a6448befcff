import { APPROVAL_TTL_MS, MAX_EDITED_FILES, type SafetyContext } from '../safety/SafetyContext.js';
import type { BlockReasonCode, SessionState, ToolKind } from '../safety/toolKind.js';
import { callDigest, userWordsFor } from '../safety/userWords.js';
import type { Step } from './Step.js';

/*
 * What the invariants know of a step, as docs/behaviour.md and docs/targets.md define it,
 * independent of the guards under test: the call it is about, the block the rules require, the
 * evidence it brings. Shared by the invariant lists (kept free of `node:`).
 */

/**
 * A safety rule as data and code: an id, a name, the sentence a reviewer
 * reads, and a predicate over one step. The same objects drive the tests, the
 * `check` CLI and the visual editor, so keep this module free of `node:`.
 */
export interface Invariant {
  /** `I1`, `I2`, ... (I1–I8 are the list of docs/behaviour.md; the rest are stated here and in docs/testing.md). */
  id: string;
  name: string;
  sentence: string;
  /** `null` when the step keeps the rule; otherwise what went wrong, in one sentence. */
  check(step: Step): string | null;
}

/** The call a step is about, as docs/behaviour.md defines it (independent of the guards under test). */
export interface StepSubject {
  kind: ToolKind;
  tool: string;
  /** The write epoch the call began in (now, for a check or a compatible-API success). */
  epoch: number;
  /** The event ends a call begun through the call-lifecycle API (or run ungated). */
  ended: boolean;
  targets?: readonly string[];
  stateOnly?: true;
  untrusted?: true;
  /** An egress read: its targets are where data goes. */
  egress?: true;
  /** A creating write: the targets it creates. */
  created?: readonly string[];
  /** The digest a person's approval of this call must carry. */
  digest?: string;
  /** Shadow mode: the call ran ungated; its outcome is applied as the compatible API applies one. */
  ungated?: true;
  /** A project-wide check (tests, type check, build, linter). */
  check?: true;
  /** A subagent. */
  delegates?: true;
}

export function subject({ before, event }: Step): StepSubject | undefined {
  const ctx = before.context;
  switch (event.type) {
    case 'CHECK_TOOL':
    case 'BEGIN_CALL':
      return {
        kind: event.kind,
        tool: event.tool,
        epoch: ctx.writeEpoch,
        ended: false,
        ...(event.targets && { targets: event.targets }),
        ...(event.type === 'BEGIN_CALL' && event.stateOnly && { stateOnly: true as const }),
        ...(event.type === 'BEGIN_CALL' && event.untrusted && { untrusted: true as const }),
        ...(event.type === 'BEGIN_CALL' && event.egress && { egress: true as const }),
        ...(event.type === 'BEGIN_CALL' && event.created && { created: event.created }),
        ...(event.type === 'BEGIN_CALL' && event.check && { check: true as const }),
        ...(event.type === 'BEGIN_CALL' && event.delegates && { delegates: true as const }),
        // The digest as docs/targets.md defines it: given with the call, else its tool and targets'.
        digest:
          (event.type === 'BEGIN_CALL' ? event.digest : undefined) ??
          callDigest({ tool: event.tool, ...(event.targets && { targets: event.targets }) }),
      };
    case 'TOOL_FAILED':
    case 'TOOL_SUCCEEDED': {
      if (event.id !== undefined) {
        const gated = Object.hasOwn(ctx.calls, event.id);
        const call = gated
          ? ctx.calls[event.id]
          : Object.hasOwn(ctx.shadowCalls, event.id)
            ? ctx.shadowCalls[event.id]
            : undefined;
        return (
          call && {
            kind: call.kind,
            tool: call.tool,
            epoch: call.epoch,
            ended: true,
            ...(call.targets && { targets: call.targets }),
            ...(call.stateOnly && { stateOnly: true as const }),
            ...(call.untrusted && { untrusted: true as const }),
            ...(call.egress && { egress: true as const }),
            ...(call.created && { created: call.created }),
            ...(call.check && { check: true as const }),
            ...(call.delegates && { delegates: true as const }),
            ...(!gated && { ungated: true as const }),
          }
        );
      }
      if (event.type === 'TOOL_SUCCEEDED' && event.kind !== undefined) {
        return {
          kind: event.kind,
          tool: event.tool ?? '',
          epoch: ctx.writeEpoch,
          ended: false,
          ...(event.targets && { targets: event.targets }),
        };
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

export const stateOf = (s: { value: unknown }) => s.value as SessionState;

/**
 * The coding profile's file edit, as docs/coding-profile.md defines it: a write on the world whose
 * every target is a file (`file:`), with nothing else landed while it was in flight, whose files
 * the edited-file list can still hold.
 */
function isFileEditOf(ctx: SafetyContext, s: StepSubject | undefined): boolean {
  if (ctx.config.profile !== 'coding' || s?.kind !== 'write' || s.stateOnly || s.epoch < ctx.writeEpoch) return false;
  const targets = s.targets ?? [];
  if (targets.length === 0 || !targets.every((t) => t.startsWith('file:'))) return false;
  const fresh = targets.filter((t) => !ctx.editedFiles.some((f) => f.target === t));
  return ctx.editedFiles.length + fresh.length <= MAX_EDITED_FILES;
}

/**
 * A file edit that landed. (One that failed follows the seed's rule: back to READING, or, when it may
 * have acted, to VERIFYING until a read of its file.)
 */
export const fileEditEnd = (step: Step) =>
  step.event.type === 'TOOL_SUCCEEDED' &&
  subject(step)?.ungated !== true &&
  isFileEditOf(step.before.context, subject(step));

/** A state-only write begun under the coding profile: it never waits (the todo list touches no world). */
export const isCodingStateOnly = (step: Step) =>
  step.event.type === 'BEGIN_CALL' &&
  step.event.kind === 'write' &&
  step.event.stateOnly === true &&
  step.before.context.config.profile === 'coding';
export const isDiscovery = (kind: ToolKind | undefined) => kind === 'resolve' || kind === 'read';
export const isWriteAttempt = (step: Step) =>
  (step.event.type === 'CHECK_TOOL' || step.event.type === 'BEGIN_CALL') && step.event.kind === 'write';
/** A state-only write begun (a check has no such flag: it is judged as a write on the world). */
export const isStateOnlyAttempt = (step: Step) =>
  step.event.type === 'BEGIN_CALL' && step.event.kind === 'write' && step.event.stateOnly === true;
export const success = (step: Step) => (step.event.type === 'TOOL_SUCCEEDED' ? subject(step) : undefined);
/** A success that acts on the world: a state-only write's success and an ungated failure are not ones. */
export const worldSuccess = (step: Step) => {
  const s = success(step);
  return s && !(s.kind === 'write' && s.stateOnly) ? s : undefined;
};
export const reasonOf = (step: Step): BlockReasonCode | undefined =>
  step.decision === 'blocked' ? step.after.context.lastBlock?.reasonCode : undefined;
export const isWorldWrite = (c: { kind: ToolKind; stateOnly?: true }) => c.kind === 'write' && c.stateOnly !== true;
export const writeInFlight = (ctx: SafetyContext) => Object.values(ctx.calls).some(isWorldWrite);
export const callCount = (ctx: SafetyContext) => Object.keys(ctx.calls).length;
export const binds = (ctx: SafetyContext) => ctx.config.targets === 'bind';
export const recoveriesOf = (ctx: SafetyContext, tool: string, at?: number) =>
  ctx.pendingRecoveries.filter(
    (r) => r.tool === tool && (at === undefined || at - r.createdAt <= ctx.config.recoveryTtlMs),
  );
export const attemptsOf = (ctx: SafetyContext, tool: string, at?: number) =>
  recoveriesOf(ctx, tool, at).reduce((sum, r) => sum + r.attempts, 0);
export const list = (targets: readonly string[]) => `[${targets.join(', ')}]`;
export const without = (targets: readonly string[], gone: readonly string[]) =>
  targets.filter((t) => !gone.includes(t));
export const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((t) => b.includes(t)) && b.every((t) => a.includes(t));

/** The flags docs/behaviour.md names; `user_input` and checks must leave them alone. */
export const FLAG_KEYS = [
  'wroteThisEpisode',
  'readAfterWrite',
  'consecutiveVerifyBlocks',
  'lastWriteTool',
  'lastWriteAt',
  'lastReadTool',
  'lastReadAt',
  'writeEpoch',
] as const satisfies readonly (keyof SafetyContext)[];

export function changedFlags(step: Step, keys: readonly (keyof SafetyContext)[] = FLAG_KEYS): string[] {
  return keys.filter((k) => step.before.context[k] !== step.after.context[k]);
}

export function describeChange(step: Step, keys: string[]): string {
  const b = step.before.context as unknown as Record<string, unknown>;
  const a = step.after.context as unknown as Record<string, unknown>;
  return keys.map((k) => `${k} ${JSON.stringify(b[k])} → ${JSON.stringify(a[k])}`).join(', ');
}

export const moved = (step: Step) => `${stateOf(step.before)} → ${stateOf(step.after)}`;

/** Expects a block with `code` and no change of state; otherwise says what happened. */
export function expectBlock(step: Step, what: string, code: BlockReasonCode): string | null {
  if (step.decision !== 'blocked')
    return `${what} was allowed${stateOf(step.after) !== stateOf(step.before) ? ` (${moved(step)})` : ''}`;
  if (reasonOf(step) !== code) return `${what} was blocked with ${reasonOf(step)}, not ${code}`;
  if (stateOf(step.after) !== stateOf(step.before)) return `${what} was blocked but the state moved (${moved(step)})`;
  return null;
}

/** Whether a target is validated before a step: by evidence kept, or by standing in the user's words. */
const isValidatedIn = (ctx: SafetyContext, target: string) =>
  ctx.validatedTargets.includes(target) || userWordsFor(target, ctx.userWords) !== undefined;

/**
 * The targets of a write attempt (or of a begun egress read) that nothing has validated yet: binding
 * only; a state-only write names the agent's own records; what a creating write creates needs none.
 */
export function unvalidatedOf(step: Step): readonly string[] {
  const ctx = step.before.context;
  if (!binds(ctx) || !(isWriteAttempt(step) || isEgressAttempt(step)) || isStateOnlyAttempt(step)) return [];
  const s = subject(step);
  return (s?.targets ?? []).filter((t) => !(s?.created?.includes(t) ?? false) && !isValidatedIn(ctx, t));
}

/** A begun egress read (a check carries no such flag). */
export const isEgressAttempt = (step: Step) =>
  step.event.type === 'BEGIN_CALL' && step.event.kind === 'read' && step.event.egress === true;

/** The targets of an attempt validated by the user's words alone (not yet kept as validated). */
function userNamedOf(step: Step): readonly string[] {
  const ctx = step.before.context;
  const s = subject(step);
  if (!binds(ctx) || step.event.type !== 'BEGIN_CALL' || !s?.targets) return [];
  return s.targets.filter(
    (t) =>
      !ctx.validatedTargets.includes(t) &&
      !(s.created?.includes(t) ?? false) &&
      userWordsFor(t, ctx.userWords) !== undefined,
  );
}

/**
 * A world write begun that a person approved for `code`: an approval with its digest, given for that
 * reason, within its time. (A person's answer for one call, once: docs/targets.md.)
 */
export function approvedFor(step: Step, code: BlockReasonCode): boolean {
  const { event } = step;
  if (event.type !== 'BEGIN_CALL' || event.kind !== 'write' || event.stateOnly) return false;
  const digest = subject(step)?.digest;
  return step.before.context.approvals.some(
    (a) => a.digest === digest && a.reasonCode === code && event.at - a.at <= APPROVAL_TTL_MS,
  );
}

/**
 * The targets a step counts as evidence for, under binding: those a successful resolve or read
 * carried and those a resolve, read or write revealed, unless the tool is untrusted; those the user
 * or a person named. A state-only write's or user input's success is evidence of nothing.
 */
export function evidenceOf(step: Step): readonly string[] {
  const { event } = step;
  if (event.type === 'TARGET_ESTABLISHED') return event.targets ?? [];
  if (event.type === 'ATTEST') return event.evidence === 'target' ? (event.targets ?? []) : [];
  // A call allowed to begin: the targets the user's words validate.
  if (event.type === 'BEGIN_CALL') return step.decision === 'allowed' ? userNamedOf(step) : [];
  const s = success(step);
  if (!s || s.kind === 'user_input' || (s.kind === 'write' && s.stateOnly)) return [];
  const discovered = event.type === 'TOOL_SUCCEEDED' ? (event.discovered ?? []) : [];
  // An untrusted tool: only the identifier fields a rule declares (each with its field), never its own targets.
  if (s.untrusted) {
    const fields = event.type === 'TOOL_SUCCEEDED' ? event.fields : undefined;
    return fields ? discovered.filter((_, i) => !!fields[i]) : [];
  }
  const own = isDiscovery(s.kind) ? (s.targets ?? []) : [];
  const created = s.kind === 'write' ? (s.created ?? []) : [];
  return [...own, ...created, ...discovered];
}

/** A resolve or read that began after the last write landed (the causal test) and succeeded. */
export function causalRead(step: Step): StepSubject | undefined {
  const s = success(step);
  return s && isDiscovery(s.kind) && s.epoch === step.before.context.writeEpoch ? s : undefined;
}

/**
 * The block the rules require for a decision, whatever the mode (shadow mode decides as enforce
 * mode does): I1 (and the profiles) in RESOLVING, I2 in WRITING and VERIFYING, I3 for the final
 * answer, target binding in READING; the investigation profile refuses a state-only write first.
 */
export function requiredBlock(step: Step): BlockReasonCode | null {
  const { event } = step;
  const state = stateOf(step.before);
  const ctx = step.before.context;
  if (event.type === 'CHECK_FINAL_ANSWER')
    return state === 'WRITING' ||
      (state === 'VERIFYING' && !ctx.readAfterWrite) ||
      (ctx.config.profile === 'coding' && ctx.editedFiles.length > 0)
      ? 'FINAL_ANSWER_UNVERIFIED'
      : null;
  if (isEgressAttempt(step)) return unvalidatedOf(step).length > 0 ? 'EGRESS_NOT_VALIDATED' : null;
  if (!isWriteAttempt(step)) return null;
  const stateOnly = isStateOnlyAttempt(step);
  if (stateOnly && ctx.config.profile === 'investigation') return 'POLICY_DENIED';
  switch (state) {
    case 'RESOLVING': {
      if (approvedFor(step, 'NO_VALIDATED_TARGET')) return null;
      if (stateOnly && (ctx.config.profile === 'detection' || ctx.config.profile === 'coding')) return null;
      if (!binds(ctx) || stateOnly) return 'NO_VALIDATED_TARGET';
      // A creating write needs its other targets validated; a write the user named every target of has them.
      const s = subject(step);
      if (step.event.type === 'BEGIN_CALL' && step.event.creates)
        return unvalidatedOf(step).length > 0 ? 'TARGET_NOT_VALIDATED' : null;
      return (s?.targets?.length ?? 0) > 0 && unvalidatedOf(step).length === 0 ? null : 'NO_VALIDATED_TARGET';
    }
    case 'WRITING':
      return 'WRITE_IN_FLIGHT';
    case 'VERIFYING':
      if (stateOnly && ctx.config.profile === 'coding') return null;
      return approvedFor(step, 'UNVERIFIED_WRITE') ? null : 'UNVERIFIED_WRITE';
    case 'READING':
      return unvalidatedOf(step).length > 0 ? 'TARGET_NOT_VALIDATED' : null;
  }
}

/** Under the coding profile, a subagent's gated call ended (ok or not): it forgets the files (I30). */
export function endsDelegation(step: Step): boolean {
  if (step.event.type !== 'TOOL_SUCCEEDED' && step.event.type !== 'TOOL_FAILED') return false;
  const s = subject(step);
  return step.before.context.config.profile === 'coding' && s?.ended === true && !s.ungated && s.delegates === true;
}
