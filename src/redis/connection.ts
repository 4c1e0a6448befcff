import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { SessionKeyTypeError, SessionStoreClosedError, SessionStoreUnavailableError } from './errors.js';

/*
 * The store's connection: one ioredis client (a `Redis` for one server, a `Cluster` for a Redis
 * Cluster), every command bounded by the calling deadline and every failure turned into
 * STORE_UNAVAILABLE, scripts sent by their SHA (the source when a node lost its script cache).
 */

/** What a session store talks to: one server or a cluster. */
export type StoreClient = Redis | Cluster;

/** The session's fields as a load reads them (`null`: absent). */
export type Fields = [
  rev: string | null,
  v: string | null,
  seq: string | null,
  data: string | null,
  gen: string | null,
  born: string | null,
];

/** The save script's reply: `[1, version, gen]`, `[0, rev, ...fields]`, or `[3, key, found, expected]`. */
export type ScriptReply = [number, string | number, ...(string | null)[]];

/** Where the store connects: `url` (one server) or `cluster` (seed nodes of a Redis Cluster). */
export interface ConnectionTarget {
  url?: string | undefined;
  cluster?: string[] | undefined;
}

/** The client options every store connection shares. */
function clientOptions(timeoutMs: number, commandTimeoutMs: number): RedisOptions {
  return {
    // Each `withSession` has one deadline timer of its own (and the other methods one each),
    // which bounds every command it sends; a per-command timer (one more timer per command) is
    // armed only when `commandTimeoutMs` asks for less than `timeoutMs`.
    ...(commandTimeoutMs < timeoutMs && { commandTimeout: commandTimeoutMs }),
    connectTimeout: Math.max(1000, Math.min(timeoutMs, 10_000)),
    // A command that cannot be sent now fails now (the call waits for the connection itself, within
    // its own deadline): nothing queued in the client can land later, after the call was rejected.
    enableOfflineQueue: false,
    // A save whose connection dropped is not sent again: its outcome is unknown and the call rejects.
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times: number) => Math.min(50 * times, 1000),
    lazyConnect: false,
  };
}

/** `redis://host:port` → the node ioredis's Cluster takes (credentials and TLS from the first URL). */
function clusterNodes(urls: string[]) {
  const first = new URL(urls[0]!);
  const nodes = urls.map((u) => {
    const url = new URL(u);
    return { host: url.hostname, port: Number(url.port || 6379) };
  });
  const auth = {
    ...(first.username !== '' && { username: decodeURIComponent(first.username) }),
    ...(first.password !== '' && { password: decodeURIComponent(first.password) }),
    ...(first.protocol === 'rediss:' && { tls: {} }),
  };
  return { nodes, auth };
}

/**
 * A client of `target`: a `Redis` on `url`, or a `Cluster` on the `cluster` nodes with
 * `redisOptions` for each node's connection. The cluster client follows MOVED/ASK redirections
 * and refreshes its slot map; with `enableOfflineQueue: false` it never queues or resends a
 * command on its own, so while a failover is under way a call fails, and the next one reaches
 * the promoted replica once the map says where it is.
 *
 * @example
 * const client = clientFor({ cluster: ['redis://10.0.0.1:7000'] }, { maxRetriesPerRequest: 0 });
 */
export function clientFor(target: ConnectionTarget, redisOptions: RedisOptions): StoreClient {
  if (target.cluster === undefined) return new Redis(target.url!, redisOptions);
  const { nodes, auth } = clusterNodes(target.cluster);
  const deadline = redisOptions.connectTimeout ?? 2000;
  const noQueue = redisOptions.enableOfflineQueue === false;
  return new Cluster(nodes, {
    // Without an offline queue the cluster's own ready check (CLUSTER INFO, sent as soon as the slot map
    // is loaded) races the node connections it was just given, fails when it loses, and reconnects
    // everything with a growing delay: seconds before the first command. The store's `ready` waits for
    // the primaries' connections instead (and a command to a cluster that is down fails, closed).
    ...(noQueue && { enableOfflineQueue: false, enableReadyCheck: false }),
    clusterRetryStrategy: (times: number) => Math.min(50 * times, 1000),
    retryDelayOnFailover: 50,
    retryDelayOnClusterDown: 50,
    retryDelayOnTryAgain: 20,
    maxRedirections: 4,
    slotsRefreshTimeout: Math.max(500, Math.min(deadline, 2000)),
    slotsRefreshInterval: 1000,
    redisOptions: { ...redisOptions, ...auth },
  });
}

/** Opens a store's client: bounded, never queueing or resending a command. */
export function openClient(target: ConnectionTarget, timeoutMs: number, commandTimeoutMs: number): StoreClient {
  return clientFor(target, clientOptions(timeoutMs, commandTimeoutMs));
}

/** The primaries of a client: itself for one server, every master node for a cluster. */
export function primariesOf(client: StoreClient): Redis[] {
  return client instanceof Cluster ? client.nodes('master') : [client];
}

/** A STORE_UNAVAILABLE error naming the session (if any), what failed, and why. */
export const unavailable = (id: string | undefined, what: string, cause?: unknown) =>
  new SessionStoreUnavailableError(
    `${id === undefined ? '' : `session ${JSON.stringify(id)}: `}${what}${cause instanceof Error ? `: ${cause.message}` : ''}`,
    id,
    cause === undefined ? undefined : { cause },
  );

export const wrongType = (id: string, reply: ScriptReply) =>
  new SessionKeyTypeError(id, String(reply[1]), String(reply[2]), String(reply[3]));

/** The commands a store sends, each bounded and failing closed. */
export interface Connection {
  readonly client: StoreClient;
  /** Resolves when the client is connected, or rejects at the deadline. */
  ready(deadline: number, id: string | undefined): Promise<void>;
  /** A Redis command, with every failure turned into STORE_UNAVAILABLE. */
  command<R>(id: string | undefined, what: string, deadline: number, run: () => Promise<R>): Promise<R>;
  /** EVALSHA of a script (`args`: the sha, the key count, the keys, its arguments), EVAL if Redis lost it. */
  script<R>(source: string, args: string[]): Promise<R>;
  /**
   * The script, then `WAIT 1` until `waitUntil` (a `performance.now()` time) on the same node in the
   * same round trip: resolves to the script's reply and how many replicas acknowledged every write
   * the connection made so far.
   */
  scriptAndWait<R>(source: string, args: string[], waitUntil: number): Promise<[R, number]>;
  /** Loads a session's fields; a key of another type is WRONG_KEY_TYPE, not an outage. */
  load(id: string, sk: string): Promise<Fields>;
}

/** The states of a connection being opened. */
const OPENING = new Set(['wait', 'connecting', 'connect']);

/** Resolves once a node's connection is ready, or failed (closed, ended). */
function settled(node: Redis): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      node.off('ready', done).off('close', done).off('end', done);
      resolve();
    };
    node.on('ready', done).on('close', done).on('end', done);
  });
}

/**
 * Wraps a client in the store's commands. `isClosed`: whether the store was closed (a call then
 * waits for no connection).
 */
export function createConnection(client: StoreClient, isClosed: () => boolean): Connection {
  /** One wait for the next 'ready' shared by every call that needs the connection. */
  let nextReady: Promise<void> | undefined;
  const whenReady = () =>
    (nextReady ??= new Promise<void>((resolve) =>
      client.once('ready', () => {
        nextReady = undefined;
        resolve();
      }),
    ));

  /**
   * A cluster's primaries whose own connection is still being opened (a command to one would fail
   * now, and it will be ready in a moment). One that is down is not waited for: a command for a slot
   * it holds fails, closed, and the others go on.
   */
  const pendingPrimaries = () =>
    client instanceof Cluster ? client.nodes('master').filter((node) => OPENING.has(node.status)) : [];

  const ready = (deadline: number, id: string | undefined): Promise<void> => {
    if (client.status === 'ready' && pendingPrimaries().length === 0) return Promise.resolve();
    if (isClosed()) return Promise.reject(new SessionStoreClosedError());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(unavailable(id, `Redis is not reachable (connection ${client.status})`)),
        Math.max(0, deadline - performance.now()),
      );
      const clientReady = client.status === 'ready' ? Promise.resolve() : whenReady();
      void clientReady
        .then(() => Promise.all(pendingPrimaries().map(settled)))
        .then(() => {
          clearTimeout(timer);
          resolve();
        });
    });
  };

  const command = async <R>(id: string | undefined, what: string, deadline: number, run: () => Promise<R>) => {
    await ready(deadline, id);
    try {
      return await run();
    } catch (e) {
      if (e instanceof SessionKeyTypeError) throw e;
      throw unavailable(id, what, e);
    }
  };

  const script = async <R>(source: string, args: string[]): Promise<R> => {
    try {
      return (await client.call('evalsha', args)) as R;
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
      // The server restarted or flushed its scripts: send the script itself (it is cached again).
      return (await client.call('eval', [source, ...args.slice(1)])) as R;
    }
  };

  /** One pipeline: the script and WAIT go to the node that owns the script's keys (WAIT has none). */
  const pipelined = async <R>(command: string, args: string[], waitMs: number): Promise<[R, number]> => {
    const rows = await client.pipeline().call(command, args).call('wait', '1', String(waitMs)).exec();
    if (rows === null) throw new Error('the pipeline was not run');
    const [[scriptError, reply], [waitError, acks]] = rows as [[Error | null, R], [Error | null, number]];
    if (scriptError) throw scriptError;
    if (waitError) throw waitError;
    return [reply, Number(acks)];
  };
  const scriptAndWait = async <R>(source: string, args: string[], waitUntil: number): Promise<[R, number]> => {
    // WAIT 0 would block for ever: the wait is at least 1 ms.
    const waitMs = () => Math.max(1, Math.floor(waitUntil - performance.now()));
    const rows = await client.pipeline().call('evalsha', args).call('wait', '1', String(waitMs())).exec();
    if (rows === null) throw new Error('the pipeline was not run');
    const [[scriptError, reply], [waitError, acks]] = rows as [[Error | null, R], [Error | null, number]];
    if (waitError) throw waitError;
    if (!scriptError) return [reply, Number(acks)];
    if (!scriptError.message.startsWith('NOSCRIPT')) throw scriptError;
    // The node lost the script, and its WAIT, run all the same, took the time given: with no
    // replica acknowledging even the connection's earlier writes, a save now could not be confirmed
    // either, and the script is not run (nothing saved); with one, it runs with the time left.
    if (Number(acks) < 1)
      throw new Error("no replica acknowledged the connection's writes within the wait, so the script was not run");
    return pipelined<R>('eval', [source, ...args.slice(1)], waitMs());
  };

  const load = async (id: string, sk: string): Promise<Fields> => {
    try {
      return (await client.hmget(sk, 'rev', 'v', 'seq', 'data', 'gen', 'born')) as Fields;
    } catch (e) {
      if (!(e instanceof Error) || !/WRONGTYPE/.test(e.message)) throw unavailable(id, 'could not load the session', e);
      let found: string;
      try {
        found = await client.type(sk);
      } catch (e2) {
        throw unavailable(id, 'could not load the session', e2);
      }
      throw new SessionKeyTypeError(id, sk, found, 'hash');
    }
  };

  return { client, ready, command, script, scriptAndWait, load };
}
