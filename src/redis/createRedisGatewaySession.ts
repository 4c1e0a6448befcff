import { z } from 'zod';
import type { SafetySession } from '../index.js';
import type { SharedGatewaySession } from '../mcp/SharedGatewaySession.js';
import { createRedisSessionStore, type RedisSessionStore } from './createRedisSessionStore.js';
import { clientFor } from './connection.js';
import { claimsKey } from './keys.js';
import {
  DEFAULT_IDLE_TTL_MS,
  DEFAULT_KEY_PREFIX,
  DEFAULT_TIMEOUT_MS,
  parseStoreOptions,
  type RedisSessionStoreOptions,
} from './options.js';

/** How long a gateway's claim on a call lives unless renewed, by default: the gateway's cancel grace. */
export const DEFAULT_ORPHAN_AFTER_MS = 30_000;

/*
 * Claims, in one hash per session: call id → lease expiry in Redis's own clock (TIME), so the
 * gateways' clocks never matter. A live gateway renews its claims every third of the lease.
 *
 * CLAIM_SCRIPT   KEYS[1] claims hash; ARGV[1] lease ms, ARGV[2] key TTL ms, ARGV[3..] call ids
 * ORPHANS_SCRIPT KEYS[1] claims hash; returns the call ids whose lease ran out
 */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const CLAIM_SCRIPT = `${NOW}
for i = 3, #ARGV do redis.call('HSET', KEYS[1], ARGV[i], now + tonumber(ARGV[1])) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return now`;
const ORPHANS_SCRIPT = `${NOW}
local all = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #all, 2 do
  if tonumber(all[i + 1]) <= now then out[#out + 1] = all[i] end
end
return out`;

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
  orphanAfterMs: z.number().int().min(30).max(86_400_000).optional(),
});
export type RedisGatewaySessionOptions = z.infer<typeof RedisGatewaySessionOptions>;

/** A gateway's session in Redis. See {@link createRedisGatewaySession}. */
export interface RedisGatewaySession extends SharedGatewaySession {
  readonly sessionId: string;
  /** The store the session is saved in (`get`, `readRecording`, ...). */
  readonly store: RedisSessionStore;
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
 * after, the next write is blocked `UNVERIFIED_WRITE` until a read verifies.
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
  const redis = parseStoreOptions(parsed.data.redis);
  const leaseMs = parsed.data.orphanAfterMs ?? DEFAULT_ORPHAN_AFTER_MS;
  const keyTtlMs = Math.max(redis.idleTtlMs ?? DEFAULT_IDLE_TTL_MS, leaseMs * 2);
  const key = claimsKey(redis.keyPrefix ?? DEFAULT_KEY_PREFIX, sessionId);
  const store = createRedisSessionStore(redis);
  const client = clientFor(redis, {
    commandTimeout: redis.commandTimeoutMs ?? redis.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(50 * times, 1000),
  });
  client.on('error', (e: Error) => redis.onError?.(e));
  const claimed = new Set<string>();
  const renew = (ids: string[]) => client.eval(CLAIM_SCRIPT, 1, key, leaseMs, keyTtlMs, ...ids);
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
    store,
    withSession: <T>(fn: (s: SafetySession) => T) => store.withSession(sessionId, fn),
    async claim(callId) {
      await renew([callId]);
      claimed.add(callId);
    },
    async release(callId, ended) {
      claimed.delete(callId);
      if (ended) await client.hdel(key, callId);
    },
    async orphans() {
      return ((await client.eval(ORPHANS_SCRIPT, 1, key)) as string[]).filter((id) => !claimed.has(id));
    },
    async close() {
      clearInterval(renewal);
      claimed.clear();
      await store.close();
      await Promise.race([client.quit().catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]);
      client.disconnect();
    },
  };
}
