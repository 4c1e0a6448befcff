/*
 * What a safety session reads when it starts: its clock, its settings, and a snapshot it may trust
 * without the full check (one this build wrote, its checksum intact).
 */
import {
  CHECKSUM_MARK,
  checksummedCopy,
  PERSISTED_SESSION_VERSION,
  structuralIssues,
  type PersistedSession,
  parsePersistedSession,
} from './PersistedSession.js';
import {
  DEFAULT_CONFIG,
  UNRECORDED_DEFAULTS,
  MAX_APPROVALS,
  MAX_CALL_TARGETS,
  MAX_EDITED_FILES,
  MAX_VALIDATED_TARGETS,
  SafetyConfig,
  type SafetyContext,
} from './SafetyContext.js';
import { MAX_USER_MESSAGES } from './userWords.js';
import { safeParseInput } from '../core/Issue.js';
import { warnOnConsole } from '../core/SessionShell.js';
import type { SafetySessionOptions } from './SafetySessionTypes.js';
import { describe, SafetyInputError } from './sessionInput.js';

/** The latest time a snapshot mentions: a restored session's time never goes below it. */
export function latestTimeOf(context: SafetyContext): number {
  let t = -Infinity;
  for (const v of [context.lastWriteAt, context.lastReadAt]) if (v !== null && v > t) t = v;
  for (const id in context.calls) t = Math.max(t, context.calls[id]!.startedAt);
  for (const r of context.pendingRecoveries) t = Math.max(t, r.createdAt);
  return t;
}

/** Whether the options change any setting a snapshot holds. */
export function overridesConfig(options: SafetySessionOptions): boolean {
  return (
    options.recoveryTtlMs !== undefined ||
    options.failedWriteRequiresVerification !== undefined ||
    options.targets !== undefined ||
    options.mode !== undefined ||
    options.profile !== undefined
  );
}

/**
 * A copy of a snapshot this build wrote and nobody changed since: the current version, exactly
 * the fields `persist()` writes, and a checksum that still matches them. It needs no schema check
 * (what `persist()` writes is valid by construction). `'changed'`: a checksum this build writes
 * that does not match the fields, so someone or something changed them after they were written.
 * Anything else: `undefined`. For both, the caller checks the snapshot in full, as every snapshot
 * was checked before checksums.
 */
function trustedSnapshot(input: unknown): PersistedSession | 'changed' | undefined {
  // From text, the parsed value is the session's own: nothing to copy, only the checksum to check.
  const owned = typeof input === 'string';
  let value = input;
  if (owned) {
    try {
      value = JSON.parse(input);
    } catch {
      return undefined; // the full check words the error
    }
  }
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    const s = value as Record<string, unknown>;
    const checksum = s['checksum'];
    if (
      s['version'] !== PERSISTED_SESSION_VERSION ||
      typeof checksum !== 'string' ||
      !checksum.startsWith(CHECKSUM_MARK)
    )
      return undefined;
    if (Object.keys(s).length !== TRUSTED_KEYS) return undefined;
    const id = s['id'];
    if (typeof id !== 'string' || id.length === 0) return undefined;
    const copied = checksummedCopy(s, !owned);
    if (copied === undefined) return undefined;
    if (checksum !== copied.checksum) return 'changed';
    // The copy is a new object either way (it holds the checksummed fields only): add the id last,
    // where a restore's recorded snapshot has always had it.
    const snapshot = copied.copy as Record<string, unknown>;
    snapshot['id'] = id;
    const trusted = snapshot as unknown as PersistedSession;
    // A checksum can be recomputed after an edit: it spares the parsing, never the caps and what
    // the machine guarantees of any state (a write in flight outside WRITING, say).
    if (!withinCaps(trusted.context) || structuralIssues(trusted.state, trusted.context).length > 0) return undefined;
    return trusted;
  } catch {
    return undefined; // a getter or Proxy that throws: the full check reports it
  }
}

const within = (list: unknown, cap: number) => Array.isArray(list) && list.length <= cap;

/** The capped lists of a context are lists, within their caps (the full check says which is not). */
function withinCaps(context: SafetyContext): boolean {
  return (
    within(context.validatedTargets, MAX_VALIDATED_TARGETS) &&
    within(context.provenance, MAX_VALIDATED_TARGETS) &&
    within(context.uncoveredTargets, MAX_CALL_TARGETS) &&
    within(context.editedFiles, MAX_EDITED_FILES) &&
    within(context.userWords, MAX_USER_MESSAGES) &&
    within(context.approvals, MAX_APPROVALS) &&
    Array.isArray(context.pendingRecoveries) &&
    typeof context.calls === 'object' &&
    context.calls !== null &&
    Object.values(context.calls).every((c) => c.targets === undefined || within(c.targets, MAX_CALL_TARGETS))
  );
}

/** The fields of a snapshot `persist()` writes, its checksum included. */
const TRUSTED_KEYS = 7;

/** The config's settings, in its schema's order: one session option each. */
const CONFIG_KEYS = Object.keys(SafetyConfig.def.shape) as (keyof SafetyConfig)[];

/** The session's settings, checked against the `SafetyConfig` schema the snapshot and the recording use. */
export function configFrom(options: SafetySessionOptions, base: SafetyConfig = DEFAULT_CONFIG): SafetyConfig {
  // One setting per key of the config's schema: a session option of the same name sets it.
  const config: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const value = options[key] ?? base[key];
    if (value !== undefined && value !== UNRECORDED_DEFAULTS[key]) config[key] = value;
  }
  const parsed = safeParseInput(SafetyConfig, config);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.path.length === 0) throw new SafetyInputError('options', issue.message);
  const field = String(issue.path[0]) as keyof SafetyConfig;
  throw new SafetyInputError(`options.${field}`, `${issue.message}, got ${describe(config[field])}`);
}

/**
 * The snapshot a restore starts from: as written when it is one this build wrote and nobody
 * changed, else checked in full (refused with the field named). One that passed the full check
 * but does not match its checksum is restored with a warning: whoever keeps the store should know.
 */
export function snapshotToRestore(
  input: unknown,
  onWarning: ((message: string) => void) | undefined,
): PersistedSession {
  const trusted = trustedSnapshot(input);
  const snapshot = typeof trusted === 'object' ? trusted : parsePersistedSession(input);
  if (trusted === 'changed')
    (onWarning ?? warnOnConsole)(
      `session ${JSON.stringify(snapshot.id)}: snapshot changed after it was written (checksum mismatch); restored after the full check`,
    );
  return snapshot;
}
