import * as z from 'zod/mini';
import { formatPath } from './MachineDefinition.js';
import { SafetyContext } from './SafetyContext.js';
import { SessionState } from './toolKind.js';
import { safeParseInput } from './Issue.js';

/** The snapshot format this build writes and reads. */
export const PERSISTED_SESSION_VERSION = 1;
export const PERSISTED_SESSION_FORMAT = 'assistant-safety/session';

/** A session as plain JSON: what `persist()` returns and `restoreSafetySession()` takes. */
export const PersistedSession = z
  .strictObject({
    format: z.literal(PERSISTED_SESSION_FORMAT),
    version: z.literal(PERSISTED_SESSION_VERSION),
    id: z.string().check(z.minLength(1)),
    state: SessionState,
    context: SafetyContext,
    /** Blocked attempts in a row (reported in block envelopes). */
    blockStreak: z.int().check(z.nonnegative()),
  })
  .check(
    z.superRefine((s, ctx) => {
      // What the machine guarantees; a snapshot that breaks it was edited or corrupted.
      const writes = Object.entries(s.context.calls).filter(([, c]) => c.kind === 'write');
      if (writes.length > 1) {
        ctx.addIssue({ code: 'custom', path: ['context', 'calls'], message: 'more than one write in flight' });
      }
      if ((s.state === 'WRITING') !== (writes.length === 1)) {
        ctx.addIssue({
          code: 'custom',
          path: ['state'],
          message:
            s.state === 'WRITING' ? 'state WRITING with no write in flight' : `a write in flight in state ${s.state}`,
        });
      }
      for (const [id, call] of Object.entries(s.context.calls)) {
        if (call.epoch > s.context.writeEpoch) {
          ctx.addIssue({
            code: 'custom',
            path: ['context', 'calls', id, 'epoch'],
            message: `call began at epoch ${call.epoch}, after the current write epoch ${s.context.writeEpoch}`,
          });
        }
      }
    }),
  );
export type PersistedSession = z.infer<typeof PersistedSession>;

/** Thrown for a snapshot that cannot be restored; the message names the bad field. */
export class SnapshotError extends Error {
  readonly code = 'INVALID_SNAPSHOT' as const;
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'SnapshotError';
  }
}

/**
 * Validates a persisted session (the object or its JSON text), throwing a
 * {@link SnapshotError} that names every bad field.
 *
 * @example
 * const snapshot = parsePersistedSession(JSON.stringify(session.persist()));
 * snapshot.state; // e.g. 'READING'
 */
export function parsePersistedSession(input: unknown): PersistedSession {
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch (e) {
      throw new SnapshotError(`invalid snapshot: not JSON (${(e as Error).message})`);
    }
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new SnapshotError(
      `invalid snapshot: expected an object, got ${Array.isArray(input) ? 'an array' : typeof input}`,
    );
  }
  const { format, version } = input as { format?: unknown; version?: unknown };
  if (format !== PERSISTED_SESSION_FORMAT) {
    throw new SnapshotError(
      `invalid snapshot: format: expected "${PERSISTED_SESSION_FORMAT}", got ${JSON.stringify(format)}`,
    );
  }
  if (version !== PERSISTED_SESSION_VERSION) {
    throw new SnapshotError(
      `unsupported snapshot version ${JSON.stringify(version)}: this build reads version ${PERSISTED_SESSION_VERSION}`,
    );
  }
  const parsed = safeParseInput(PersistedSession, input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
    throw new SnapshotError(`invalid snapshot: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  }
  return parsed.data;
}
