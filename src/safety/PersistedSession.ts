import * as z from 'zod/mini';
import { copyContext, isWorldWrite, MAX_COUNT, SafetyContext } from './SafetyContext.js';
import { SessionState } from './toolKind.js';
import { formatIssues, issuesOf, IssueError, safeParseInput, type Issue } from '../core/Issue.js';
import { readSnapshot } from '../core/readSnapshot.js';
import { copyWithChecksum, type ShallowCopy } from '../core/snapshotChecksum.js';

/** The snapshot format this build writes. It reads this one and every older one, through {@link SNAPSHOT_MIGRATIONS}. */
export const PERSISTED_SESSION_VERSION = 4;
const PERSISTED_SESSION_FORMAT = 'assistant-safety/session';

/** A session as plain JSON: what `persist()` returns and `restoreSafetySession()` takes. */
export const PersistedSession = z
  .strictObject({
    format: z.literal(PERSISTED_SESSION_FORMAT),
    version: z.literal(PERSISTED_SESSION_VERSION),
    id: z.string().check(z.minLength(1)),
    state: SessionState,
    context: SafetyContext,
    /** Blocked attempts in a row (reported in block envelopes). */
    blockStreak: z.int().check(z.nonnegative(), z.lte(MAX_COUNT)),
    /**
     * What `persist()` computed over the other fields (`fnv2:` and 8 hex digits). A restore whose
     * snapshot still matches it skips the schema check; any other snapshot is checked in full, and
     * one whose checksum does not match is restored with a warning that it was changed.
     */
    checksum: z.optional(z.string()),
  })
  .check(
    z.superRefine((s, ctx) => {
      for (const issue of structuralIssues(s.state, s.context)) ctx.addIssue({ code: 'custom', ...issue });
    }),
  );

/**
 * What the machine guarantees of any state it reaches, beyond the schema's types; a snapshot that
 * breaks it was edited or corrupted. The full check reports these, and a restore whose checksum
 * matches checks them too (a checksum can be recomputed: it skips the parsing, not these). It is the
 * safety kind's snapshot check, so a kind session of the safety machine refuses the same snapshots.
 */
export function structuralIssues(
  state: string,
  context: SafetyContext,
): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const writes = Object.entries(context.calls).filter(([, c]) => isWorldWrite(c));
  if (writes.length > 1) issues.push({ path: ['context', 'calls'], message: 'more than one write in flight' });
  if ((state === 'WRITING') !== (writes.length === 1)) {
    issues.push({
      path: ['state'],
      message: state === 'WRITING' ? 'state WRITING with no write in flight' : `a write in flight in state ${state}`,
    });
  }
  // A Set, not `includes`: a restore runs this on every snapshot, and both lists may be at their cap.
  const validated = context.provenance.length > 0 ? new Set(context.validatedTargets) : undefined;
  for (const [i, p] of context.provenance.entries()) {
    if (!validated!.has(p.target)) {
      issues.push({
        path: ['context', 'provenance', i, 'target'],
        message: `the provenance of a target that is not validated: ${JSON.stringify(p.target)}`,
      });
    }
  }
  for (const [id, call] of Object.entries(context.calls)) {
    if (call.epoch > context.writeEpoch) {
      issues.push({
        path: ['context', 'calls', id, 'epoch'],
        message: `call began at epoch ${call.epoch}, after the current write epoch ${context.writeEpoch}`,
      });
    }
  }
  return issues;
}
export type PersistedSession = z.infer<typeof PersistedSession>;

/** Thrown for a snapshot that cannot be restored; the message names the bad field. */
export class SnapshotError extends IssueError {
  readonly code = 'INVALID_SNAPSHOT' as const;
  constructor(message: string, issues: Issue[] = []) {
    super(message, issues);
    this.name = 'SnapshotError';
  }
}

type Json = Record<string, unknown>;

/**
 * Each older snapshot version to the next, applied in order before validation. A migration
 * only adds what the older version could not hold, with the value that means "nothing yet":
 * version 1 had no shadow calls and no target binding.
 */
export const SNAPSHOT_MIGRATIONS: Record<number, (snapshot: Json) => Json> = {
  1: (s) => {
    const context = isRecord(s.context) ? s.context : {};
    return {
      ...s,
      version: 2,
      context: { ...context, shadowCalls: {}, validatedTargets: [], uncoveredTargets: [] },
    };
  },
  // Version 2 had no provenance: its validated targets keep no record of where they came from.
  2: (s) => {
    const context = isRecord(s.context) ? s.context : {};
    return { ...s, version: 3, context: { ...context, provenance: [], userWords: [], approvals: [] } };
  },
  // Version 3 had no coding profile: no file was edited under it.
  3: (s) => {
    const context = isRecord(s.context) ? s.context : {};
    return { ...s, version: 4, context: { ...context, editedFiles: [] } };
  },
};

/**
 * A session as its snapshot: a deep copy (callers that change the result cannot reach in), made by
 * the same walk that computes the checksum letting a restore of it skip the schema check. The id is
 * left out of the checksum: a restore may give the session another id anyway (`options.id`), and
 * snapshots of sessions in the same state then share a checksum (the replayer keeps one copy).
 */
export function persistedSessionOf(
  id: string,
  state: SessionState,
  context: SafetyContext,
  blockStreak: number,
): PersistedSession {
  const body = {
    format: PERSISTED_SESSION_FORMAT,
    version: PERSISTED_SESSION_VERSION,
    state,
    context,
    blockStreak,
  } as const;
  const copied = checksummedCopy(body, true);
  const copy = (copied?.copy ?? { ...body, context: structuredClone(context) }) as typeof body;
  return {
    format: copy.format,
    version: copy.version,
    id,
    state: copy.state,
    context: copy.context,
    blockStreak: copy.blockStreak,
    ...(copied && { checksum: copied.checksum }),
  };
}

/**
 * What starts a checksum this build writes: one without it (an older build's, computed another way)
 * cannot be compared, so it only sends the snapshot through the full check; one with it that does not
 * match tells that the snapshot was changed after it was written.
 */
export const CHECKSUM_MARK = 'fnv2:';

/** The fields the checksum covers, in the order both `persist()` and a restore walk them (all but the id and the checksum). */
const CHECKSUM_FIELDS = ['format', 'version', 'state', 'context', 'blockStreak'] as const;
/** The context is copied as one literal of its fields (one object shape for the session's first step). */
const SHALLOW_COPIES = { context: copyContext as ShallowCopy };

/**
 * A snapshot's checksummed fields, copied (or, with `copying` false, for a value nobody else holds,
 * only gathered), and their checksum as a snapshot carries it ({@link CHECKSUM_MARK} first): the one walk `persist()` writes the checksum with and a restore
 * proves it with. `undefined` for anything that is not plain JSON data of the snapshot's shape.
 *
 * @example
 * checksummedCopy(JSON.parse(JSON.stringify(session.persist())), false)?.checksum; // the snapshot's own checksum
 */
export function checksummedCopy(
  snapshot: object,
  copying: boolean,
): { copy: Record<string, unknown>; checksum: string } | undefined {
  const copied = copyWithChecksum(snapshot as Record<string, unknown>, copying, CHECKSUM_FIELDS, SHALLOW_COPIES);
  return copied && { copy: copied.copy, checksum: CHECKSUM_MARK + copied.checksum };
}

/** Prefix that keeps call ids apart from object property names while zod reads the calls (see below). */
const ID = 'id:';

/**
 * Validates a persisted session, throwing a {@link SnapshotError} that names every bad field.
 * The input is read once, as JSON: getters, Proxies and prototypes play no part, and
 * anything that cannot be read that way (a getter that throws, a hostile Proxy, a cycle) is
 * a SnapshotError too.
 *
 * @example
 * const snapshot = parsePersistedSession(JSON.parse(JSON.stringify(session.persist())));
 * snapshot.state; // e.g. 'READING'
 */
export function parsePersistedSession(input: unknown): PersistedSession {
  const value = readSnapshot(
    input,
    { format: PERSISTED_SESSION_FORMAT, version: PERSISTED_SESSION_VERSION, migrations: SNAPSHOT_MIGRATIONS },
    (message) => new SnapshotError(message),
  );
  // zod's records drop a key named `__proto__`; call ids are names, so they are read prefixed.
  const context = (value as { context?: unknown }).context;
  for (const field of CALL_MAPS) {
    const calls = isRecord(context) ? (context as Json)[field] : undefined;
    if (isRecord(calls)) {
      const prefixed: Record<string, unknown> = {};
      for (const [id, call] of Object.entries(calls)) prefixed[ID + id] = call;
      (context as Json)[field] = prefixed;
    }
  }
  const parsed = safeParseInput(PersistedSession, value);
  if (!parsed.success) {
    const issues = issuesOf(parsed.error).map((i) => ({ ...i, path: unprefixed(i.path) }));
    throw new SnapshotError(`invalid snapshot: ${formatIssues(issues)}`, issues);
  }
  return {
    ...parsed.data,
    context: {
      ...parsed.data.context,
      calls: unprefixedCalls(parsed.data.context.calls),
      shadowCalls: unprefixedCalls(parsed.data.context.shadowCalls),
    },
  };
}

/** The context's maps keyed by call id. */
const CALL_MAPS = ['calls', 'shadowCalls'] as const;

function unprefixedCalls(calls: PersistedSession['context']['calls']): PersistedSession['context']['calls'] {
  const out: PersistedSession['context']['calls'] = {};
  for (const [key, call] of Object.entries(calls)) {
    Object.defineProperty(out, key.slice(ID.length), {
      value: call,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function unprefixed(path: readonly (string | number)[]): (string | number)[] {
  const out = [...path];
  if (
    out[0] === 'context' &&
    (out[1] === 'calls' || out[1] === 'shadowCalls') &&
    typeof out[2] === 'string' &&
    out[2].startsWith(ID)
  )
    out[2] = out[2].slice(ID.length);
  return out;
}
