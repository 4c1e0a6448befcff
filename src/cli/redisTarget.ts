import { checkRedisUrl, type RedisTarget } from '../redis/cliSupport.js';
import { RedisDurability } from '../redis/options.js';
import { UsageError } from './Command.js';

/**
 * The parseArgs table of where the CLI's Redis is: `--redis URL` or `--redis-cluster URL[,URL...]`,
 * and how far a save must have gone there (`--redis-durability`, which only a command that saves takes).
 */
export const REDIS_TARGET_OPTIONS = {
  redis: { type: 'string' },
  'redis-cluster': { type: 'string' },
  'redis-durability': { type: 'string' },
} as const;

/**
 * `--redis URL` (one server) or `--redis-cluster URL[,URL...]` (some nodes of a Redis Cluster),
 * checked; undefined when neither is given. Throws a usage error naming what is wrong.
 *
 * @example
 * redisTargetOf({ 'redis-cluster': 'redis://10.0.0.1:7000,redis://10.0.0.2:7000' });
 * // { cluster: ['redis://10.0.0.1:7000', 'redis://10.0.0.2:7000'] }
 */
export function redisTargetOf(values: {
  redis?: string | undefined;
  'redis-cluster'?: string | undefined;
}): RedisTarget | undefined {
  const { redis, 'redis-cluster': cluster } = values;
  if (redis !== undefined && cluster !== undefined)
    throw new UsageError(
      '--redis and --redis-cluster do not go together: --redis takes one Redis server, --redis-cluster the nodes of a cluster',
    );
  if (redis !== undefined) {
    const bad = checkRedisUrl(redis);
    if (bad) throw new UsageError(bad);
    return { url: redis };
  }
  if (cluster === undefined) return undefined;
  const urls = cluster
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (urls.length === 0)
    throw new UsageError(
      `--redis-cluster: expected one or more redis:// or rediss:// URLs separated by commas, got ${JSON.stringify(cluster)}`,
    );
  for (const url of urls) {
    const bad = checkRedisUrl(url, '--redis-cluster');
    if (bad) throw new UsageError(bad);
  }
  return { cluster: urls };
}

/** The flag a target was given with, for messages. */
export const redisFlagOf = (target: RedisTarget): string => (target.url !== undefined ? '--redis' : '--redis-cluster');

/**
 * `--redis-durability primary|replicated`, checked for a command that saves sessions (the
 * gateway): undefined when not given. Throws a usage error for another value, or when there is
 * no `--redis` or `--redis-cluster` for it to apply to.
 *
 * @example
 * redisDurabilityOf({ 'redis-durability': 'replicated' }, { cluster: ['redis://10.0.0.1:7000'] }); // 'replicated'
 */
export function redisDurabilityOf(
  values: { 'redis-durability'?: string | undefined },
  target: RedisTarget | undefined,
): RedisDurability | undefined {
  const value = values['redis-durability'];
  if (value === undefined) return undefined;
  if (!RedisDurability.safeParse(value).success)
    throw new UsageError(`--redis-durability: expected ${RedisDurability.options.join(' or ')}, got "${value}"`);
  if (target === undefined) throw new UsageError('--redis-durability goes with --redis or --redis-cluster');
  return value as RedisDurability;
}

/**
 * Refuses `--redis-durability` in a command that only reads from Redis (`serve`, `replay`): it
 * saves nothing for a replica to confirm, and an option that changes nothing should not pass in silence.
 */
export function refuseDurability(values: { 'redis-durability'?: string | undefined }, command: string): void {
  if (values['redis-durability'] !== undefined)
    throw new UsageError(
      `--redis-durability goes with mcp-gateway (and mcp-config), which save sessions: ${command} only reads from Redis`,
    );
}
