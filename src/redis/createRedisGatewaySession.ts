import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';
import type { SafetySession } from '../index.js';
import { MAX_HOLDER_LENGTH } from '../safety/RecordingEntry.js';
import type { OrphanedCall, SharedGatewaySession } from '../mcp/SharedGatewaySession.js';
import {
  createRedisSessionStore,
  type RedisSessionStore,
  type RedisSessionStoreStats,
} from './createRedisSessionStore.js';
import { clientFor, unavailable } from './connection.js';
import { waitWithin } from './decideAndSave.js';
import { claimsKey } from './keys.js';
import {
  DEFAULT_IDLE_TTL_MS,
  DEFAULT_KEY_PREFIX,
  DEFAULT_TIMEOUT_MS,
  MAX_ORPHAN_AFTER_MS,
  MIN_ORPHAN_AFTER_MS,
  parseStoreOptions,
  type RedisSessionStoreOptions,
} from './options.js';

/** How long a gateway's claim on a call lives unless renewed, by default: the gateway's cancel grace. */
export const DEFAULT_ORPHAN_AFTER_MS = 30_000;

/*
 * Claims, in one hash per session: call id → `<lease expiry>|<holder>`, the expiry in Redis's own
 * clock (TIME), so the gateways' clocks never matter, and the holder the id of the gateway process
 * that claimed it. A live gateway renews its claims every third of the lease. A value of the older
 * format (the expiry alone) still reads, its holder unknown; one with no readable expiry counts as
 * run out (nothing renews it).
 *
 * CLAIM_SCRIPT   KEYS[1] claims hash; ARGV[1] lease ms, ARGV[2] key TTL ms, ARGV[3] holder, ARGV[4..] call ids
 * ORPHANS_SCRIPT KEYS[1] claims hash; returns id, holder ('' when unknown), ... of the claims that ran out
 */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const CLAIM_SCRIPT = `${NOW}
local value = string.format('%d|%s', now + tonumber(ARGV[1]), ARGV[3])
for i = 4, #ARGV do redis.call('HSET', KEYS[1], ARGV[i], value) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return now`;
const ORPHANS_SCRIPT = `${NOW}
local all = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #all, 2 do
  local v = all[i + 1]
  local bar = string.find(v, '|', 1, true)
  local expiry = tonumber(bar and string.sub(v, 1, bar - 1) or v)
  if expiry == nil or expiry <= now then
    out[#out + 1] = all[i]
    out[#out + 1] = bar and string.sub(v, bar + 1) or ''
  end
end
return out`;

/** This process's default holder id: `<host>:<pid>:<random>` (the random part tells apart a reused pid). */
const defaultHolder = () =>
  `${hostname().slice(0, MAX_HOLDER_LENGTH - 40) || 'host'}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** Options of {@link createRedisGatewaySession}. */
export const RedisGatewaySessionOptions = z.strictObject({
  /** The session store's options: the same Redis and key prefix as every other worker on the session. */
  redis: z.custom<RedisSessionStoreOptions>((v) => typeof v === 'object' && v !== null, 'expected store options'),
  /** The session every call of this gateway goes through (e.g. the conversation's id). */
  sessionId: z.string().min(1).max(1000),
  /**
   * How long a claim lives unless its gateway renews it: a call whose gateway died is orphaned
   * (ended as an unknown outcome by the next gateway) at most this long after the death, and at
   * least this long after its last renewal. Default 30 s.
   */
  orphanAfterMs: z.number().int().min(MIN_ORPHAN_AFTER_MS).max(MAX_ORPHAN_AFTER_MS).optional(),
  /**
   * This gateway's name in its claims: a call it leaves orphaned is recorded with it
   * (`orphanedBy`). Default `<hostname>:<pid>:<6 random hex digits>`.
   */
  holder: z.string().min(1).max(MAX_HOLDER_LENGTH).optional(),
});
export type RedisGatewaySessionOptions = z.infer<typeof RedisGatewaySessionOptions>;

/** {@link RedisGatewaySession.stats}: the store's counters, and the orphaned calls this gateway ended. */
export interface RedisGatewaySessionStats extends RedisSessionStoreStats {
  /** Calls another gateway left orphaned that this one ended as unknown outcomes (counted once the end was saved). */
  orphaned: number;
}

/** A gateway's session in Redis. See {@link createRedisGatewaySession}. */
export interface RedisGatewaySession extends SharedGatewaySession {
  readonly sessionId: string;
  /** This gateway's holder id: the name its claims carry, and an orphaned call's `orphanedBy`. */
  readonly holder: string;
  /** The store the session is saved in (`get`, `readRecording`, ...). */
  readonly store: RedisSessionStore;
  /** Counters since it was created: the store's, and `orphaned`. */
  stats(): RedisGatewaySessionStats;
  /** Stops renewing claims (a call still claimed is then orphaned when its lease runs out) and disconnects. */
  close(): Promise<void>;
}

/**
 * An MCP gateway's session kept in Redis (`createMcpGateway({ sharedSession })`), so that a
 * gateway restart or crash loses no write in flight: each decision is saved before the call
 * reaches the server, each end before the gateway goes on. Each call the gateway runs is
 * claimed with a lease the gateway renews; when its process dies, the lease runs out
 * (`orphanAfterMs`), and the next gateway on the session ends the call as an unknown outcome:
 * until then a write it left in flight keeps the next write blocked (`WRITE_IN_FLIGHT`), and
 * after, the next write is blocked `UNVERIFIED_WRITE` until a read verifies. With the store's
 * `durability: 'replicated'`, a claim too counts only once a replica acknowledged it: `claim`
 * rejects with `STORE_UNAVAILABLE` otherwise, and the gateway does not run the call.
 *
 * @example
 * const sharedSession = createRedisGatewaySession({ redis: { url: 'redis://127.0.0.1:6379' }, sessionId: 'conversation-42' });
 * const gateway = createMcpGateway({ upstream, downstream, sharedSession });
 * await gateway.start();
 * await gateway.closed;
 * await sharedSession.close();
 */
export function createRedisGatewaySession(input: RedisGatewaySessionOptions): RedisGatewaySession {
  const parsed = RedisGatewaySessionOptions.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TypeError(
      `createRedisGatewaySession: ${['options', ...issue.path.map(String)].join('.')}: ${issue.message}`,
    );
  }
  const { sessionId } = parsed.data;
  const holder = parsed.data.holder ?? defaultHolder();
  const redis = parseStoreOptions(parsed.data.redis);
  const leaseMs = parsed.data.orphanAfterMs ?? DEFAULT_ORPHAN_AFTER_MS;
  const keyTtlMs = Math.max(redis.idleTtlMs ?? DEFAULT_IDLE_TTL_MS, leaseMs * 2);
  const key = claimsKey(redis.keyPrefix ?? DEFAULT_KEY_PREFIX, sessionId);
  const store = createRedisSessionStore(redis);
  const commandTimeout = redis.commandTimeoutMs ?? redis.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = clientFor(redis, {
    commandTimeout,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(50 * times, 1000),
  });
  client.on('error', (e: Error) => redis.onError?.(e));
  const claimed = new Set<string>();
  /** The orphans last reported (`orphans()`), until released: a save that ends one counts it. */
  let reported = new Set<string>();
  let orphaned = 0;
  const inFlight = (s: SafetySession, id: string) =>
    Object.hasOwn(s.context.calls, id) || Object.hasOwn(s.context.shadowCalls, id);
  const renew = (ids: string[]) => client.eval(CLAIM_SCRIPT, 1, key, leaseMs, keyTtlMs, holder, ...ids);
  /*
   * Under durability 'replicated' a claim counts only once a replica acknowledged it: the claim
   * script and `WAIT 1` in one pipeline, so both go to the node that owns the claims key (its
   * slot's primary on a cluster; WAIT has no key). A claim held by the primary alone would be lost
   * with it in a failover, and a call in flight in the (replicated) session with no claim would
   * never be reported orphaned: its write would keep the session blocked until it expired.
   * Renewals do not wait (the claim they renew is on a replica already).
   */
  const waitMs = Math.max(1, Math.floor(waitWithin(Math.min(redis.timeoutMs ?? DEFAULT_TIMEOUT_MS, commandTimeout))));
  const claimReplicated = async (callId: string) => {
    const failed = (cause?: unknown) => unavailable(sessionId, `could not confirm the claim on call ${callId}`, cause);
    let rows: [Error | null, unknown][] | null;
    try {
      rows = await client
        .pipeline()
        .eval(CLAIM_SCRIPT, 1, key, leaseMs, keyTtlMs, holder, callId)
        .call('wait', '1', String(waitMs))
        .exec();
    } catch (e) {
      throw failed(e);
    }
    if (rows === null) throw failed(new Error('the pipeline was not run'));
    const [[claimError], [waitError, acks]] = rows as [[Error | null, unknown], [Error | null, unknown]];
    if (claimError) throw failed(claimError);
    if (waitError) throw failed(waitError);
    // Left on the primary, unrenewed: it runs out, and is then forgotten (the session never began the call).
    if (Number(acks) < 1)
      throw unavailable(
        sessionId,
        `claimed call ${callId} on the primary, but no replica acknowledged the claim before the deadline`,
      );
  };
  const replicated = redis.durability === 'replicated';
  const renewal = setInterval(
    () => {
      if (claimed.size === 0) return;
      // A renewal that fails is retried at the next tick; past the lease, the calls count as orphaned.
      renew([...claimed]).catch((e: unknown) => redis.onError?.(e instanceof Error ? e : new Error(String(e))));
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  );
  renewal.unref();

  return {
    sessionId,
    holder,
    store,
    async withSession<T>(fn: (s: SafetySession) => T): Promise<T> {
      if (reported.size === 0) return store.withSession(sessionId, fn);
      // The reported orphans this save ends (the last attempt's: a conflict runs `fn` again).
      const watched = [...reported];
      let ended = 0;
      const value = await store.withSession(sessionId, (s) => {
        const open = watched.filter((id) => inFlight(s, id));
        const v = fn(s);
        ended = open.filter((id) => !inFlight(s, id)).length;
        return v;
      });
      orphaned += ended;
      return value;
    },
    async claim(callId) {
      if (replicated) await claimReplicated(callId);
      else await renew([callId]);
      claimed.add(callId);
    },
    async release(callId, ended) {
      claimed.delete(callId);
      reported.delete(callId);
      if (ended) await client.hdel(key, callId);
    },
    async orphans() {
      const flat = (await client.eval(ORPHANS_SCRIPT, 1, key)) as string[];
      const out: OrphanedCall[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const id = flat[i]!;
        const by = flat[i + 1]!;
        // A holder no gateway would write (too long: an edited hash) is not recorded.
        if (!claimed.has(id)) out.push(by !== '' && by.length <= MAX_HOLDER_LENGTH ? { id, holder: by } : { id });
      }
      reported = new Set(out.map((o) => o.id));
      return out;
    },
    stats: () => ({ ...store.stats(), orphaned }),
    async close() {
      clearInterval(renewal);
      claimed.clear();
      await store.close();
      await Promise.race([client.quit().catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]);
      client.disconnect();
    },
  };
}
