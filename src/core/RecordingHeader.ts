import * as z from 'zod/mini';

/**
 * The fields that open every recording line, whatever the session's kind: declared once, so the
 * safety recording and a kind's recording (and the replayer both share) agree on them.
 *
 * @example
 * const DoorEntry = z.strictObject({ ...RecordingHeader, after: z.string(), context: z.unknown() });
 */
export const RecordingHeader = {
  /** Format version of the entry. */
  v: z.literal(1),
  /** Session id: a file may hold several sessions, interleaved. */
  session: z.string().check(z.minLength(1)),
  /** 0-based position of the entry within its session. */
  seq: z.int().check(z.nonnegative()),
  /** Epoch milliseconds from the session's clock (a replay runs on it). */
  at: z.number(),
};
