import type { RedisLiveBridge } from './liveBridge.js';
import { claimsKey, sessionKey, streamKey } from './keys.js';

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

/** Where the CLI's Redis is: one server (`--redis URL`) or some nodes of a Redis Cluster (`--redis-cluster URL,...`). */
export type RedisTarget = { url: string; cluster?: undefined } | { cluster: string[]; url?: undefined };

/** Why the Redis at a URL cannot serve the CLI; `unreachable` when it only did not answer (which may pass). */
export interface RedisProblem {
  message: string;
  unreachable: boolean;
}

/** The URL with its password hidden, for messages and logs. */
function shownRedisUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const u = new URL(url);
  if (u.password !== '') u.password = '***';
  return u.toString().replace(/\/$/, '');
}

/** The target as messages name it: `Redis at URL`, or `Redis Cluster at URL,URL`. */
function whereOf(target: RedisTarget): string {
  return target.url !== undefined
    ? `Redis at ${shownRedisUrl(target.url)}`
    : `Redis Cluster at ${target.cluster.map(shownRedisUrl).join(',')}`;
}

/** The codes of a connection that did not get through (as opposed to a server that answered no). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

/** Whether an error is the session store's or the Redis client's (not the MCP server's). */
function isRedisError(e: unknown): boolean {
  const name = (e as Error | undefined)?.name;
  const code = (e as { code?: unknown } | undefined)?.code;
  return (
    (typeof name === 'string' && /^(ReplyError|MaxRetriesPerRequestError|Session\w*Error)$/.test(name)) ||
    (typeof code === 'string' && UNREACHABLE.has(code))
  );
}

/**
 * Connects to the Redis at `url` and checks what a wrong URL would otherwise leave to later
 * (or to never): the credentials, the database in the URL's path, and that the server is a Redis
 * Cluster node when `cluster` (a seed of `--redis-cluster`), or not one otherwise (`--redis` talks
 * to one server). Resolves to the connected client, or to the problem with no client left open.
 */
async function connectChecked(
  ioredis: { Redis: typeof import('ioredis').Redis },
  url: string,
  cluster = false,
): Promise<import('ioredis').Redis | RedisProblem> {
  const shown = shownRedisUrl(url);
  const client = new ioredis.Redis(url, {
    lazyConnect: true,
    connectTimeout: 3000,
    // INFO and SELECT answer at once: a node that lets the connection in and then says nothing is not answering.
    commandTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // connect() only says "Connection is closed": the reason (WRONGPASS, NOAUTH, ECONNREFUSED) comes as an event.
  let reason: Error | undefined;
  client.on('error', (e: Error) => (reason ??= e));
  try {
    await client.connect();
    // A server whose ACL denies INFO is taken as one server: the check must not refuse a good URL.
    const info = await client.info('cluster').catch(() => undefined);
    const clusterNode = info !== undefined && /^cluster_enabled:1/m.test(info);
    if (clusterNode && !cluster) {
      client.disconnect();
      return {
        message: `${shown} is a Redis Cluster node: the CLI's --redis takes one Redis server, not a cluster; give the cluster's nodes with --redis-cluster URL[,URL...] instead`,
        unreachable: false,
      };
    }
    if (cluster && info !== undefined && !clusterNode) {
      client.disconnect();
      return {
        message: `${shown} is not a Redis Cluster node (cluster_enabled is not 1): --redis-cluster takes a cluster's nodes; for one Redis server, give --redis ${shown}`,
        unreachable: false,
      };
    }
    if (cluster) return client;
    const db = new URL(url).pathname.slice(1);
    if (db !== '') {
      try {
        await client.select(db);
      } catch (e) {
        client.disconnect();
        return {
          message: `Redis at ${shown}: the URL's database ${JSON.stringify(db)} cannot be used: ${(e as Error).message}`,
          unreachable: false,
        };
      }
    }
    return client;
  } catch (e) {
    client.disconnect();
    const cause = reason ?? (e as Error);
    const unreachable =
      UNREACHABLE.has(String((cause as { code?: unknown }).code)) ||
      reason === undefined ||
      /timed out/i.test(cause.message);
    return {
      message: unreachable
        ? `Redis at ${shown} is not answering (${cause.message})`
        : `Redis at ${shown} refused the connection${authHint(cause.message)}: ${cause.message}`,
      unreachable,
    };
  }
}

/** What a refused login means for the URL to give. */
function authHint(message: string): string {
  if (message.startsWith('WRONGPASS')) return ' (the user or password in the URL is wrong)';
  if (message.startsWith('NOAUTH')) return ' (it needs a password: redis://:PASSWORD@HOST:PORT)';
  return '';
}

/**
 * Checks the Redis of `target` as {@link connectChecked} does (for a cluster, each seed node: one
 * that answers as a single server, or refuses the login, is a problem; one that does not answer is
 * only when none does), then disconnects; undefined when it is fine.
 */
export async function checkRedisServer(target: RedisTarget): Promise<RedisProblem | undefined> {
  let ioredis: { Redis: typeof import('ioredis').Redis };
  try {
    ioredis = await import('ioredis');
  } catch (e) {
    if (isMissingModule(e)) return { message: MISSING, unreachable: false };
    throw e;
  }
  if (target.url !== undefined) {
    const checked = await connectChecked(ioredis, target.url);
    if (!(checked instanceof ioredis.Redis)) return checked;
    checked.disconnect();
    return undefined;
  }
  // Every node is logged into as the cluster client logs in: with the first URL's credentials and scheme.
  const first = new URL(target.cluster[0]!);
  const asFirst = (url: string) => {
    const node = new URL(url);
    node.protocol = first.protocol;
    node.username = first.username;
    node.password = first.password;
    return node.toString();
  };
  const problems = await Promise.all(
    target.cluster.map(async (url) => {
      const checked = await connectChecked(ioredis, asFirst(url), true);
      if (!(checked instanceof ioredis.Redis)) return checked;
      checked.disconnect();
      return undefined;
    }),
  );
  const refused = problems.find((p) => p !== undefined && !p.unreachable);
  if (refused) return refused;
  if (problems.every((p) => p !== undefined))
    return {
      message: `${whereOf(target)} is not answering: no node answered (${problems[0]!.message.replace(/^Redis at (\S+) is not answering \((.*)\)$/, '$1: $2')})`,
      unreachable: true,
    };
  return undefined;
}

/**
 * What the CLI says of an error from a session kept in Redis, in one line naming Redis (and, for a
 * stored session that cannot be read, its key and what to do); undefined when it is not Redis's.
 */
export function redisFailure(
  e: unknown,
  target: RedisTarget,
  sessionId: string,
  keyPrefix: string | undefined,
): string | undefined {
  const where = whereOf(target);
  const error = e as Error;
  if (error?.name === 'SnapshotError' || error?.name === 'KindSessionError') {
    const key = sessionKey(keyPrefix ?? 'assistant-safety:', sessionId);
    return `the session ${JSON.stringify(sessionId)} stored in ${where} (key ${key}) cannot be read: ${error.message}; start with another --session, or delete the key (redis-cli DEL '${key}') to start this session afresh, forgetting what it held`;
  }
  if (!isRedisError(e)) return undefined;
  // Redis answered: only no replica did (durability 'replicated'), which "not answering" would hide.
  if (error.name === 'SessionStoreUnavailableError' && /no replica acknowledged/.test(error.message))
    return `${where}: ${error.message} (--redis-durability replicated needs a replica of the session's primary, up and in sync)`;
  if (error.name === 'SessionStoreUnavailableError' || error.name === 'MaxRetriesPerRequestError')
    return `${where} is not answering (${error.message})`;
  if (UNREACHABLE.has(String((e as { code?: unknown }).code))) return `${where} is not answering (${error.message})`;
  return `${where}: ${error.message}`;
}

/**
 * A lost session's error in a CLI user's words: the library's says to call `delete(id)`, which a
 * gateway started from the command line cannot. Any other error is returned as it is.
 */
export function lostSessionForCli(e: unknown, sessionId: string, keyPrefix: string | undefined): unknown {
  if ((e as Error | undefined)?.name !== 'SessionLostError') return e;
  const prefix = keyPrefix ?? 'assistant-safety:';
  const keys = [sessionKey(prefix, sessionId), streamKey(prefix, sessionId), claimsKey(prefix, sessionId)];
  const what = `restart the gateway with another --session (or, to keep this id, remove its keys first: redis-cli DEL ${keys.map((k) => `'${k}'`).join(' ')})`;
  const message = (e as Error).message;
  const said = /then call delete\(.*\) to start a fresh session\.$/;
  return Object.assign(
    new Error(said.test(message) ? message.replace(said, `then ${what}.`) : `${message} Then ${what}.`),
    {
      name: 'SessionLostError',
      code: 'SESSION_LOST',
      cause: e,
    },
  );
}

/** A URL the Redis client accepts, or why not (naming `flag`). */
export function checkRedisUrl(url: string, flag = '--redis'): string | undefined {
  if (!URL.canParse(url) || !/^rediss?:$/.test(new URL(url).protocol))
    return `${flag}: expected a redis:// or rediss:// URL, got ${JSON.stringify(url)}`;
  if (flag === '--redis-cluster' && !['', '/', '/0'].includes(new URL(url).pathname))
    return `${flag}: ${shownRedisUrl(url)}: a Redis Cluster has only database 0: leave the /db out of the node URL`;
  return undefined;
}

/**
 * For `serve --redis URL` (or `--redis-cluster URL,...`): follows the sessions stored under the
 * prefix and shows them in the app. Undefined (and a message on `io.err`) when it cannot start.
 */
export async function startServeBridge(
  target: RedisTarget,
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
    ...(target.url !== undefined ? { redisUrl: target.url } : { cluster: target.cluster }),
    ...(keyPrefix !== undefined && { keyPrefix }),
    serverUrl,
    // ioredis says a cluster it cannot reach in its own words ("Failed to refresh slots cache."): say it as the CLI does.
    onError: (e) =>
      io.err(
        target.cluster !== undefined && /slots cache|startup nodes/i.test(e.message)
          ? `serve: ${whereOf(target)} is not answering (still trying)`
          : `serve: redis: ${e.message} (still trying)`,
      ),
  });
  io.out(
    `following the sessions in ${target.url !== undefined ? shownRedisUrl(target.url) : whereOf(target)} (key prefix ${JSON.stringify(keyPrefix ?? 'assistant-safety:')})`,
  );
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
  target: RedisTarget,
  keyPrefix: string | undefined,
  session: string,
): Promise<RedisRecordingSource | string> {
  for (const url of target.cluster ?? [target.url!]) {
    const bad = checkRedisUrl(url, target.url !== undefined ? '--redis' : '--redis-cluster');
    if (bad) return bad;
  }
  let ioredis: { Redis: typeof import('ioredis').Redis; Cluster: typeof import('ioredis').Cluster };
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
  const client = target.url !== undefined ? await connectChecked(ioredis, target.url) : await connectCluster(target);
  if (!(client instanceof ioredis.Redis || client instanceof ioredis.Cluster)) return client.message;
  const key = streamKey(prefix, session);
  let exists: number;
  try {
    exists = await client.exists(key);
  } catch (e) {
    client.disconnect();
    return `${whereOf(target)}: ${(e as Error).message}`;
  }
  if (exists === 0) {
    client.disconnect();
    return `no recording stream for session ${JSON.stringify(session)} under the prefix ${JSON.stringify(prefix)} (streams off, expired or deleted)`;
  }
  return {
    label: `redis ${key}`,
    chunks: records.streamRecordingLines(client, key),
    close: async () => client.disconnect(),
  };
}

/** How long the CLI waits for a cluster's slot map before it says the cluster is not answering. */
const CLUSTER_READY_MS = 10_000;

/**
 * A cluster client on the seeds of `target`, checked as {@link checkRedisServer} checks them and
 * ready (its slot map loaded), or the problem with no client left open.
 */
async function connectCluster(target: { cluster: string[] }): Promise<import('ioredis').Cluster | RedisProblem> {
  const problem = await checkRedisServer(target);
  if (problem) return problem;
  const { clientFor } = await import('./connection.js');
  const client = clientFor(target, {
    connectTimeout: 3000,
    commandTimeout: 10_000,
    maxRetriesPerRequest: 0,
  }) as import('ioredis').Cluster;
  let reason: Error | undefined;
  client.on('error', (e: Error) => (reason ??= e));
  let timer: NodeJS.Timeout | undefined;
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => client.once('ready', () => resolve(true))),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLUSTER_READY_MS))),
  ]);
  clearTimeout(timer);
  if (ready) return client;
  client.disconnect();
  return {
    message: `${whereOf(target)} is not answering (no slot map after ${CLUSTER_READY_MS} ms${reason ? `: ${reason.message}` : ''})`,
    unreachable: true,
  };
}
