import { Cluster, Redis } from 'ioredis';
import { createLiveRecorder } from '../node/createLiveRecorder.js';
import { clientFor, primariesOf } from './connection.js';
import { idOfKey, scanPattern, STREAM_SUFFIX } from './keys.js';
import { DEFAULT_KEY_PREFIX } from './options.js';
import { parseStreamRow } from './streamRecords.js';

/*
 * Shows sessions stored in Redis live in the app: follows every session's
 * recording stream under a key prefix (the backlog first, then new entries as
 * workers save them) and forwards the entries to a running server's live hub
 * through the hub's own agent protocol, as one agent. Whichever worker
 * handled a call, its entries reach the hub in save order. On a Redis Cluster it scans every
 * primary for the streams and reads each through the cluster client, which sends it to the
 * primary that owns its slot.
 */

export interface RedisLiveBridgeOptions {
  /** The Redis the workers' store uses (`redis://host:port`). Exactly one of `redisUrl` and `cluster`. */
  redisUrl?: string;
  /** The Redis Cluster the workers' store uses: some of its nodes (`redis://host:port` each; the rest are found). */
  cluster?: string[];
  /** The workers' key prefix. Default `assistant-safety:`. */
  keyPrefix?: string;
  /** The URL `assistant-safety serve` printed (token included), or the server's origin with `token`. */
  serverUrl: string;
  token?: string;
  /** The agent name shown next to the sessions. Default `redis`. */
  name?: string;
  /** How often new sessions are looked for, ms. Default 1000. */
  scanIntervalMs?: number;
  /** Told when Redis or the server is away (the bridge keeps trying). Default: silent. */
  onError?: (error: Error) => void;
}

export interface RedisLiveBridge {
  /** Session streams followed. */
  readonly sessions: number;
  /** Entries forwarded to the hub so far. */
  readonly forwarded: number;
  /** Stops following and closes both connections (after the hub has what was forwarded, 2 s at most). */
  close(): Promise<void>;
}

const BLOCK_MS = 250;
const KEYS_PER_READ = 200;

/**
 * Forwards every session's recording stream in Redis to a live hub.
 *
 * @example
 * const server = await startServer({ recordingsDir, machinesDir, appDir });
 * const bridge = await startRedisLiveBridge({ redisUrl: 'redis://127.0.0.1:6379', serverUrl: server.url });
 * // the app lists the sessions the workers save, and follows them live
 * await bridge.close();
 * // or, on a Redis Cluster: startRedisLiveBridge({ cluster: ['redis://10.0.0.1:7000'], serverUrl: server.url })
 */
export async function startRedisLiveBridge(options: RedisLiveBridgeOptions): Promise<RedisLiveBridge> {
  if ((options.redisUrl === undefined) === (options.cluster === undefined))
    throw new TypeError(
      'startRedisLiveBridge: expected exactly one of redisUrl (one server) and cluster (a Redis Cluster)',
    );
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const scanIntervalMs = options.scanIntervalMs ?? 1000;
  const client = clientFor(options.cluster !== undefined ? { cluster: options.cluster } : { url: options.redisUrl }, {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
  const cluster = client instanceof Cluster;
  let reported = false;
  const report = (e: unknown) => {
    if (reported) return;
    reported = true;
    options.onError?.(e instanceof Error ? e : new Error(String(e)));
  };
  client.on('error', report);
  client.on('ready', () => {
    reported = false;
  });
  const live = createLiveRecorder({
    url: options.serverUrl,
    ...(options.token !== undefined && { token: options.token }),
    name: options.name ?? 'redis',
    maxBuffer: 100_000,
    ...(options.onError && { onError: options.onError }),
  });

  /** Stream key → id of the last entry forwarded. */
  const cursors = new Map<string, string>();
  let forwarded = 0;
  let closed = false;
  let lastScan = -Infinity;

  const scanNode = async (node: Redis, seen: Set<string>) => {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', scanPattern(prefix, STREAM_SUFFIX), 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        if (idOfKey(prefix, key, STREAM_SUFFIX) === undefined) continue;
        seen.add(key);
        if (!cursors.has(key)) cursors.set(key, '0-0');
      }
    } while (cursor !== '0' && !closed);
  };

  const scan = async () => {
    // A cluster's primaries are known once its slot map is: a scan of none would forget every stream.
    // (The client reports a cluster it cannot reach; its first connection may take a few tries.)
    const primaries = cluster && client.status !== 'ready' ? [] : primariesOf(client);
    if (primaries.length === 0) return;
    const seen = new Set<string>();
    for (const node of primaries) await scanNode(node, seen);
    // A full SCAN returns every key that existed throughout it: the others expired or were deleted.
    for (const key of cursors.keys()) if (!seen.has(key)) cursors.delete(key);
    lastScan = performance.now();
  };

  const readSome = async (keys: string[], block: boolean) => {
    const ids = keys.map((k) => cursors.get(k)!);
    const reply = (
      block
        ? await client.xread('COUNT', 1000, 'BLOCK', BLOCK_MS, 'STREAMS', ...keys, ...ids)
        : await client.xread('COUNT', 1000, 'STREAMS', ...keys, ...ids)
    ) as [string, [string, string[]][]][] | null;
    for (const [key, rows] of reply ?? []) {
      for (const row of rows) {
        cursors.set(key, row[0]);
        try {
          live.record(parseStreamRow(row).entry);
          forwarded++;
        } catch (e) {
          report(e);
        }
      }
    }
  };

  /** On a cluster: each stream read on its own (one XREAD of several keys in different slots is refused). */
  const readEach = async (keys: string[]) => {
    const before = forwarded;
    for (let i = 0; i < keys.length && !closed; i += KEYS_PER_READ)
      await Promise.all(keys.slice(i, i + KEYS_PER_READ).map((key) => readSome([key], false)));
    if (forwarded === before) await new Promise((r) => setTimeout(r, 100));
  };

  const loop = async () => {
    while (!closed) {
      try {
        if (performance.now() - lastScan >= scanIntervalMs) await scan();
        const keys = [...cursors.keys()];
        if (keys.length === 0) {
          await new Promise((r) => setTimeout(r, Math.min(scanIntervalMs, BLOCK_MS)));
          continue;
        }
        if (cluster) await readEach(keys);
        else if (keys.length <= KEYS_PER_READ) await readSome(keys, true);
        else {
          for (let i = 0; i < keys.length && !closed; i += KEYS_PER_READ)
            await readSome(keys.slice(i, i + KEYS_PER_READ), false);
          await new Promise((r) => setTimeout(r, 100));
        }
      } catch (e) {
        if (closed) return;
        report(e);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const running = loop();

  return {
    get sessions() {
      return cursors.size;
    },
    get forwarded() {
      return forwarded;
    },
    async close() {
      if (closed) return;
      closed = true;
      client.disconnect();
      // A command queued for a server that never answered is not settled by disconnect(): waiting on it
      // would hold `serve --redis` on Ctrl-C for ever when Redis is down.
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      await live.close({ timeoutMs: 2000 });
    },
  };
}
