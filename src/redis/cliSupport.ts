import type { RedisLiveBridge } from './liveBridge.js';

/*
 * What `assistant-safety serve --redis` and `replay --redis` need, loaded
 * only when those flags are given: ioredis is an optional peer dependency, so
 * the CLI must work without it and say what to install when it is missing.
 * Nothing here imports ioredis statically.
 */

/** Where the CLI writes (the shape of its CliIO). */
export interface CliOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

const MISSING = 'the --redis option needs the ioredis package: npm i ioredis';

function isMissingModule(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/** A URL the Redis client accepts, or why not. */
export function checkRedisUrl(url: string): string | undefined {
  if (!URL.canParse(url) || !/^rediss?:$/.test(new URL(url).protocol))
    return `--redis: expected a redis:// or rediss:// URL, got ${JSON.stringify(url)}`;
  return undefined;
}

/**
 * For `serve --redis URL`: follows the sessions stored under the prefix and
 * shows them in the app. Undefined (and a message on `io.err`) when it cannot start.
 */
export async function startServeBridge(
  redisUrl: string,
  keyPrefix: string | undefined,
  serverUrl: string,
  io: CliOutput,
): Promise<RedisLiveBridge | undefined> {
  let mod: typeof import('./liveBridge.js');
  try {
    mod = await import('./liveBridge.js');
  } catch (e) {
    if (isMissingModule(e)) {
      io.err(`serve: ${MISSING}`);
      return undefined;
    }
    throw e;
  }
  const bridge = await mod.startRedisLiveBridge({
    redisUrl,
    ...(keyPrefix !== undefined && { keyPrefix }),
    serverUrl,
    onError: (e) => io.err(`serve: redis: ${e.message} (still trying)`),
  });
  io.out(`following the sessions in ${redisUrl} (key prefix ${JSON.stringify(keyPrefix ?? 'assistant-safety:')})`);
  return bridge;
}

/** A session's recording stream as chunks of JSON Lines, for `replay --redis URL --session ID`. */
export interface RedisRecordingSource {
  label: string;
  chunks: AsyncIterable<string>;
  close(): Promise<void>;
}

/** Opens a session's stream, or returns why it cannot (Redis unreachable, no such stream, ioredis missing). */
export async function openRedisRecording(
  redisUrl: string,
  keyPrefix: string | undefined,
  session: string,
): Promise<RedisRecordingSource | string> {
  const bad = checkRedisUrl(redisUrl);
  if (bad) return bad;
  let ioredis: { Redis: typeof import('ioredis').Redis };
  let records: typeof import('./streamRecords.js');
  try {
    ioredis = await import('ioredis');
    records = await import('./streamRecords.js');
  } catch (e) {
    if (isMissingModule(e)) return MISSING;
    throw e;
  }
  const { streamKey } = await import('./keys.js');
  const { DEFAULT_KEY_PREFIX } = await import('./options.js');
  const prefix = keyPrefix ?? DEFAULT_KEY_PREFIX;
  const client = new ioredis.Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: 3000,
    commandTimeout: 10_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    client.disconnect();
    return `cannot reach Redis at ${redisUrl}: ${(e as Error).message}`;
  }
  const key = streamKey(prefix, session);
  if ((await client.exists(key)) === 0) {
    client.disconnect();
    return `no recording stream for session ${JSON.stringify(session)} under the prefix ${JSON.stringify(prefix)} (streams off, expired or deleted)`;
  }
  return {
    label: `redis ${key}`,
    chunks: records.streamRecordingLines(client, key),
    close: async () => client.disconnect(),
  };
}
