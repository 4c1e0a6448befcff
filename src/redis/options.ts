import { z } from 'zod';
import { EXECUTION_PROFILES, type SafetyMachine, type SessionRecorder } from '../index.js';
import { safeParseInput } from '../core/Issue.js';
import { MAX_TIMER_MS } from '../core/timerDelay.js';

const fn = <T>(what: string) =>
  z.custom<T>((v) => typeof v === 'function', { message: `expected ${what} (a function)` });
const positiveInt = z.number().int().positive();
/** A delay that becomes a timer: past the bound a timer fires at once. */
const timerMs = positiveInt.max(MAX_TIMER_MS);

/** How each session's recording goes to a Redis Stream. */
export const RedisStreamOptions = z.strictObject({
  /** Entries kept per session stream (approximate trim, `XADD MAXLEN ~`). Default 10,000. */
  maxLen: positiveInt.optional(),
});
export type RedisStreamOptions = z.infer<typeof RedisStreamOptions>;

/** Settings for the sessions the store creates and restores (the id and recorder are the store's). */
export const StoreSessionOptions = z.strictObject({
  now: fn<() => number>('a clock').optional(),
  recoveryTtlMs: z.number().int().nonnegative().optional(),
  failedWriteRequiresVerification: z.boolean().optional(),
  machine: z.custom<SafetyMachine>((v) => typeof v === 'object' && v !== null, 'expected a machine').optional(),
  /** Target binding of every session (docs/targets.md). Default `'ignore'`. */
  targets: z.enum(['ignore', 'bind']).optional(),
  /** `'shadow'`: nothing is blocked, would-be blocks are recorded. Default `'enforce'`. */
  mode: z.enum(['enforce', 'shadow']).optional(),
  /** Execution profile (docs/escalation.md, docs/coding-profile.md). Default `'interactive'`. */
  profile: z.enum(EXECUTION_PROFILES).optional(),
});
export type StoreSessionOptions = z.infer<typeof StoreSessionOptions>;

/** Options of {@link createRedisSessionStore}. */
const redisUrl = z
  .string()
  .refine((u) => URL.canParse(u) && /^rediss?:$/.test(new URL(u).protocol), 'expected a redis:// or rediss:// URL');

/** How far a save must have gone before `withSession` resolves. */
export const RedisDurability = z.enum(['primary', 'replicated']);
export type RedisDurability = z.infer<typeof RedisDurability>;

const StoreOptionsObject = z.strictObject({
  /** One server: `redis://[user:password@]host:port[/db]` or `rediss://...`. Exactly one of `url` and `cluster`. */
  url: redisUrl.optional(),
  /**
   * A Redis Cluster (or Valkey cluster): some of its nodes, `redis://host:port` each (credentials
   * and TLS from the first); the rest are found from them. Exactly one of `url` and `cluster`.
   */
  cluster: z
    .array(
      // A cluster has database 0 only: a `/3` copied from a one-server URL would be dropped in silence.
      redisUrl.refine(
        (u) => !URL.canParse(u) || ['', '/', '/0'].includes(new URL(u).pathname),
        'a Redis Cluster has only database 0: leave the /db out of the node URL',
      ),
    )
    .min(1, 'expected at least one node URL')
    .max(1000)
    .optional(),
  /**
   * `'primary'` (the default): a save is confirmed once the primary has it; a failover before a
   * replica copied it loses it. `'replicated'`: confirmed only once at least one replica has it
   * (`WAIT 1`, bounded by the call's deadline); otherwise the call rejects with `STORE_UNAVAILABLE`.
   * A gateway session (`createRedisGatewaySession`) waits for a replica on each call's claim as well.
   */
  durability: RedisDurability.optional(),
  /** Prefix of every key the store uses. Default `assistant-safety:`. */
  keyPrefix: z.string().optional(),
  /** A session (and its stream) expires after this long without a save. Default 24 hours. */
  idleTtlMs: positiveInt.optional(),
  /**
   * The most one `withSession` may take, every attempt included: past it the
   * call rejects with `STORE_UNAVAILABLE`. Default 2000 ms.
   */
  timeoutMs: timerMs.optional(),
  /** The most one Redis command may take. Default `timeoutMs`. */
  commandTimeoutMs: timerMs.optional(),
  /** Attempts of one `withSession` before it rejects with `SESSION_CONFLICT`. Default 16. */
  maxAttempts: positiveInt.optional(),
  /** First backoff after a conflict, ms (full jitter, doubling). Default 2. */
  retryDelayMs: z.number().nonnegative().max(MAX_TIMER_MS).optional(),
  /** Largest backoff, ms. Default 100. */
  maxRetryDelayMs: z.number().nonnegative().max(MAX_TIMER_MS).optional(),
  /** Append each saved call's recording entries to a Redis Stream per session. Default off. */
  streams: z.union([z.boolean(), RedisStreamOptions]).optional(),
  /** This process's name in stream entries. Default `host:pid`. */
  worker: z.string().min(1).max(200).optional(),
  /**
   * What a `withSession` does with a session this store saved that is no longer in Redis as it
   * left it (gone, older, or replaced without a delete) before its idle expiry: `'reject'` (the
   * default) rejects with `SESSION_LOST`; `'fresh'` starts a new session, forgetting what the
   * lost one held.
   */
  lostSessions: z.enum(['reject', 'fresh']).optional(),
  /** Sessions this store remembers having saved (id, generation, version), oldest forgotten first. Default 100,000. */
  maxKnownSessions: positiveInt.optional(),
  /** Settings of the sessions the store creates and restores. */
  session: StoreSessionOptions.optional(),
  /** Receives the recording entries of every confirmed save, in order (never those of a discarded attempt). */
  recorder: z
    .custom<SessionRecorder>(
      (v) => typeof v === 'object' && v !== null && typeof (v as SessionRecorder).record === 'function',
      'expected a recorder with a record(entry) method',
    )
    .optional(),
  /** Told of connection errors (the calls themselves reject). Default: silent. */
  onError: fn<(error: Error) => void>('an error handler').optional(),
});

export const RedisSessionStoreOptions = StoreOptionsObject.superRefine((o, ctx) => {
  if ((o.url === undefined) === (o.cluster === undefined))
    ctx.addIssue({
      code: 'custom',
      path: [o.url === undefined ? 'url' : 'cluster'],
      message:
        o.url === undefined
          ? 'expected exactly one of url (one server) and cluster (a Redis Cluster), got neither'
          : 'expected exactly one of url (one server) and cluster (a Redis Cluster), got both',
    });
});
export type RedisSessionStoreOptions = z.infer<typeof RedisSessionStoreOptions>;

export const DEFAULT_KEY_PREFIX = 'assistant-safety:';
/** The range of a gateway's `orphanAfterMs` (createRedisGatewaySession): here, so the CLI checks it without ioredis. */
export const MIN_ORPHAN_AFTER_MS = 30;
export const MAX_ORPHAN_AFTER_MS = 86_400_000;
export const DEFAULT_IDLE_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_TIMEOUT_MS = 2000;
export const DEFAULT_MAX_ATTEMPTS = 16;
export const DEFAULT_STREAM_MAX_LEN = 10_000;
export const DEFAULT_MAX_KNOWN_SESSIONS = 100_000;

/** Validated options, or a TypeError naming the bad field. */
export function parseStoreOptions(input: unknown): RedisSessionStoreOptions {
  const parsed = safeParseInput(RedisSessionStoreOptions, input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = ['options', ...issue.path.map(String)].join('.');
    throw new TypeError(`createRedisSessionStore: ${path}: ${issue.message}`);
  }
  return parsed.data;
}
