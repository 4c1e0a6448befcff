import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import {
  createSafetySession,
  parsePersistedSession,
  restoreSafetySession,
  type RecordingEntry,
  type PersistedSession,
  type SafetySession,
  type SafetySessionOptions,
  type SessionState,
} from '../index.js';
import {
  AsyncSessionFunctionError,
  SessionConflictError,
  SessionKeyTypeError,
  SessionLostError,
  type SessionLossKind,
  SessionStoreClosedError,
  SessionStoreUnavailableError,
} from './errors.js';
import { idOfKey, scanPattern, SESSION_SUFFIX, sessionKey, streamKey } from './keys.js';
import {
  DEFAULT_IDLE_TTL_MS,
  DEFAULT_KEY_PREFIX,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_KNOWN_SESSIONS,
  DEFAULT_STREAM_MAX_LEN,
  DEFAULT_TIMEOUT_MS,
  parseStoreOptions,
  type RedisSessionStoreOptions,
} from './options.js';
import { DELETE_SCRIPT, DELETE_SCRIPT_SHA, SAVE_SCRIPT, SAVE_SCRIPT_SHA } from './scripts.js';
import { readStreamRecords, type StreamRecord } from './streamRecords.js';

/** A saved session as the store holds it. */
export interface StoredSession {
  id: string;
  /** Saves so far (1 after the first). */
  version: number;
  /** Recording entries so far (the next entry's `seq`). */
  entries: number;
  /** When it was last saved, epoch ms (the store's clock). */
  savedAt: number;
  /** Milliseconds before it expires unless saved again (-1: no expiry). */
  ttlMs: number;
  snapshot: PersistedSession;
}

/** One session in {@link RedisSessionStore.list}. */
export interface StoredSessionSummary {
  id: string;
  version: number;
  state: SessionState;
  savedAt: number;
}

/** What the store has done since it was created (for benchmarks and health checks). */
export interface RedisSessionStoreStats {
  /** `withSession` calls that resolved. */
  saved: number;
  /** Attempts that found the session saved by someone else in between. */
  conflicts: number;
  /** Attempts made (saved + conflicts + failed). */
  attempts: number;
  /** Calls that rejected because Redis was away, slow or could not confirm the save. */
  unavailable: number;
  /** Calls that rejected after `maxAttempts` conflicts. */
  gaveUp: number;
  /** Calls that rejected with `SESSION_LOST`. */
  lost: number;
}

/** Sessions shared by any number of processes through Redis. See {@link createRedisSessionStore}. */
export interface RedisSessionStore {
  /**
   * Loads the session (a new one if the id is unknown or was deleted), runs `fn` on it
   * synchronously and saves it only if nobody saved it in between; on a
   * conflict it reloads and runs `fn` again (bounded, with jittered backoff).
   * Resolves to `fn`'s value once the save is confirmed; rejects otherwise,
   * and with `SESSION_LOST` when a session this store saved is no longer in
   * Redis as it left it (see `lostSessions`).
   */
  withSession<T>(id: string, fn: (session: SafetySession) => T): Promise<T>;
  /** The session as saved, or undefined. */
  get(id: string): Promise<StoredSession | undefined>;
  /** Sessions under the key prefix (SCAN: a session saved meanwhile may be missed), at most `limit` (default 1000). */
  list(options?: { limit?: number }): Promise<StoredSessionSummary[]>;
  /** A session's recording stream, oldest first (streams on). */
  readRecording(id: string, options?: { after?: string; count?: number }): Promise<StreamRecord[]>;
  /** Deletes the session and its stream, leaving a tombstone for the idle TTL: the next `withSession` on it, in any store, starts afresh. */
  delete(id: string): Promise<void>;
  /** Counters since the store was created. */
  stats(): RedisSessionStoreStats;
  /** Waits for calls in progress to settle (each is bounded by `timeoutMs`), then disconnects. */
  close(): Promise<void>;
}

/** What this store last saved of a session: how it tells a lost session from a new one. */
interface Known {
  /** The session's generation (its first rev): another one means another session under the same id. */
  gen: string;
  /** The version this store saved. */
  v: number;
  /** Until when (performance.now() ms) the session cannot have expired by its idle TTL. */
  until: number;
}

interface Attempt<T> {
  saved: boolean;
  value?: T;
  /** Runs the recorder and listeners of the saved attempt. */
  flush?: () => void;
}

const isThenable = (v: unknown): boolean =>
  (typeof v === 'object' || typeof v === 'function') &&
  v !== null &&
  typeof (v as { then?: unknown }).then === 'function';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Creates a session store on Redis: every worker process that handles a
 * session's calls goes through it, and the gate holds across all of them.
 * Saves use optimistic concurrency (a version checked and replaced by one Lua
 * script); a lost update is impossible, and a call that cannot be confirmed
 * rejects within `timeoutMs` instead of being allowed.
 *
 * @example
 * const store = createRedisSessionStore({ url: 'redis://127.0.0.1:6379', keyPrefix: 'as:', streams: true });
 * const blocked = await store.withSession('conversation-42', (s) =>
 *   s.beginToolCall({ id: 'call_7', kind: 'write', tool: 'restart_vm' }),
 * );
 * if (!blocked) {
 *   const ok = await restartVm();
 *   await store.withSession('conversation-42', (s) => s.endToolCall({ id: 'call_7', ok }));
 * }
 * await store.close();
 */
export function createRedisSessionStore(input: RedisSessionStoreOptions): RedisSessionStore {
  const options = parseStoreOptions(input);
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const idleTtlMs = options.idleTtlMs ?? DEFAULT_IDLE_TTL_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const commandTimeoutMs = options.commandTimeoutMs ?? timeoutMs;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const retryDelayMs = options.retryDelayMs ?? 2;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 100;
  const streamMaxLen =
    options.streams === undefined || options.streams === false
      ? 0
      : options.streams === true
        ? DEFAULT_STREAM_MAX_LEN
        : (options.streams.maxLen ?? DEFAULT_STREAM_MAX_LEN);
  const worker = options.worker ?? `${hostname()}:${process.pid}`;
  const recorder = options.recorder;
  const wantEntries = streamMaxLen > 0 || recorder !== undefined;
  const report = (error: unknown) => {
    try {
      if (options.onError) options.onError(error instanceof Error ? error : new Error(String(error)));
      else console.error('assistant-safety/redis:', error);
    } catch {
      // An error handler that throws changes nothing either.
    }
  };
  const sessionOptions: SafetySessionOptions = { ...options.session };
  const rejectLost = (options.lostSessions ?? 'reject') === 'reject';
  const maxKnown = options.maxKnownSessions ?? DEFAULT_MAX_KNOWN_SESSIONS;
  /** Sessions this store saved, least recently saved first (a bounded LRU). */
  const known = new Map<string, Known>();
  const remember = (id: string, k: Known) => {
    known.delete(id);
    known.set(id, k);
    if (known.size > maxKnown) known.delete(known.keys().next().value!);
  };

  const client = new Redis(options.url, {
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(1000, Math.min(timeoutMs, 10_000)),
    // A command that cannot be sent now fails now (the call waits for the connection itself, within
    // its own deadline): nothing queued in the client can land later, after the call was rejected.
    enableOfflineQueue: false,
    // A save whose connection dropped is not sent again: its outcome is unknown and the call rejects.
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(50 * times, 1000),
    lazyConnect: false,
  });
  client.on('error', (e: Error) => options.onError?.(e));

  const counters: RedisSessionStoreStats = {
    saved: 0,
    conflicts: 0,
    attempts: 0,
    unavailable: 0,
    gaveUp: 0,
    lost: 0,
  };
  const pending = new Set<Promise<unknown>>();
  /**
   * Per session id, the tail of this process's calls: calls on one session from one process
   * take turns, so they never overtake one another (conflicts come only from other processes).
   */
  const lanes = new Map<string, Promise<void>>();
  const inLane = <R>(id: string, work: () => Promise<R>): Promise<R> => {
    const previous = lanes.get(id) ?? Promise.resolve();
    let release!: () => void;
    const tail = previous.then(() => new Promise<void>((r) => (release = r)));
    lanes.set(id, tail);
    return previous.then(work).finally(() => {
      release();
      if (lanes.get(id) === tail) lanes.delete(id);
    });
  };
  let closed = false;

  const unavailable = (id: string | undefined, what: string, cause?: unknown) =>
    new SessionStoreUnavailableError(
      `${id === undefined ? '' : `session ${JSON.stringify(id)}: `}${what}${cause instanceof Error ? `: ${cause.message}` : ''}`,
      id,
      cause === undefined ? undefined : { cause },
    );

  /** One wait for the next 'ready' shared by every call that needs the connection. */
  let nextReady: Promise<void> | undefined;
  const whenReady = () =>
    (nextReady ??= new Promise<void>((resolve) =>
      client.once('ready', () => {
        nextReady = undefined;
        resolve();
      }),
    ));

  /** Resolves when the client is connected, or rejects at the deadline. */
  const ready = (deadline: number, id: string | undefined): Promise<void> => {
    if (client.status === 'ready') return Promise.resolve();
    if (closed) return Promise.reject(new SessionStoreClosedError());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(unavailable(id, `Redis is not reachable (connection ${client.status})`)),
        Math.max(0, deadline - performance.now()),
      );
      void whenReady().then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  };

  /** A Redis command, with every failure turned into STORE_UNAVAILABLE. */
  const command = async <R>(id: string | undefined, what: string, deadline: number, run: () => Promise<R>) => {
    await ready(deadline, id);
    try {
      return await run();
    } catch (e) {
      if (e instanceof SessionKeyTypeError) throw e;
      throw unavailable(id, what, e);
    }
  };

  const script = async <R>(
    sha: string,
    source: string,
    keys: [string, string],
    args: (string | number)[],
  ): Promise<R> => {
    try {
      return (await client.evalsha(sha, 2, ...keys, ...args)) as R;
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
      // The server restarted or flushed its scripts: send the script itself (it is cached again).
      return (await client.eval(source, 2, ...keys, ...args)) as R;
    }
  };
  type ScriptReply = [number, string | number, string?, string?];
  const save = (keys: [string, string], args: (string | number)[]) =>
    script<ScriptReply>(SAVE_SCRIPT_SHA, SAVE_SCRIPT, keys, args);
  const wrongType = (id: string, reply: ScriptReply) =>
    new SessionKeyTypeError(id, String(reply[1]), String(reply[2]), String(reply[3]));

  /** Loads a session's fields; a key of another type is WRONG_KEY_TYPE, not an outage. */
  const load = async (id: string, sk: string, deadline: number) => {
    try {
      return await command(id, 'could not load the session', deadline, () =>
        client.hmget(sk, 'rev', 'v', 'seq', 'data', 'gen', 'born'),
      );
    } catch (e) {
      if (!(e instanceof SessionStoreUnavailableError) || !/WRONGTYPE/.test(e.message)) throw e;
      const found = await command(id, 'could not load the session', deadline, () => client.type(sk));
      throw new SessionKeyTypeError(id, sk, found, 'hash');
    }
  };

  /** Why a session this store saved counts as lost at this load, or undefined when it does not. */
  const lossAt = (
    id: string,
    rev: string | null,
    v: string | null,
    data: string | null,
    gen: string | null,
    born: string | null,
  ): SessionLossKind | undefined => {
    const k = known.get(id);
    if (k === undefined) return undefined;
    if (performance.now() >= k.until) {
      known.delete(id); // it may have expired, as documented: a fresh session is expected
      return undefined;
    }
    if (data == null) {
      if (rev == null) return 'gone';
      known.delete(id); // a tombstone: deleted, by this store or another
      return undefined;
    }
    if ((gen ?? '') === k.gen) return Number(v ?? 0) < k.v ? 'older' : undefined;
    if (born === 'delete') {
      known.delete(id); // deleted and created again since
      return undefined;
    }
    return 'replaced';
  };

  const attempt = async <T>(
    id: string,
    fn: (s: SafetySession) => T,
    deadline: number,
    timedOut: () => boolean,
  ): Promise<Attempt<T>> => {
    const sk = sessionKey(prefix, id);
    const [rev = null, v = null, seq = null, data = null, gen = null, born = null] = await load(id, sk, deadline);
    // The caller was already told no: neither decide nor save now.
    if (timedOut()) throw unavailable(id, 'the load came back after the deadline');
    const loss = rejectLost ? lossAt(id, rev, v, data, gen, born) : undefined;
    if (loss !== undefined) throw new SessionLostError(id, loss, known.get(id)!.v);
    const buffer: RecordingEntry[] = [];
    const sessionRecorder = wantEntries ? { record: (e: RecordingEntry) => void buffer.push(e) } : undefined;
    const opts: SafetySessionOptions = { ...sessionOptions, id, ...(sessionRecorder && { recorder: sessionRecorder }) };
    const session = data == null ? createSafetySession(opts) : restoreSafetySession(data, opts);
    // The session's own `restore` entry is not a call: the stream continues where the last save left it.
    if (data != null && buffer[0]?.call.type === 'restore') buffer.shift();

    // Listeners subscribed by fn hear of the changes only once this attempt is saved.
    const deferred: Array<{ listener: (s: SafetySession) => void; count: number }> = [];
    const view = new Proxy(session, {
      get(target, prop) {
        if (prop === 'subscribe') {
          return (listener: (s: SafetySession) => void) => {
            const d = { listener, count: 0 };
            deferred.push(d);
            return target.subscribe(() => void d.count++);
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });

    const value = fn(view);
    if (isThenable(value)) {
      (value as Promise<unknown>).then(undefined, () => undefined);
      throw new AsyncSessionFunctionError(id);
    }

    const base = Number(seq ?? 0);
    const entries = buffer.map((e, i) => (e.seq === base + i ? e : { ...e, seq: base + i }));
    if (timedOut()) throw unavailable(id, 'past the deadline before the save');
    const newRev = randomBytes(12).toString('base64url');
    const args: (string | number)[] = [
      rev ?? '',
      newRev,
      JSON.stringify(session.persist()),
      idleTtlMs,
      streamMaxLen,
      worker,
      Date.now(),
      streamMaxLen > 0 ? entries.length : 0,
      ...(streamMaxLen > 0 ? entries.map((e) => JSON.stringify(e)) : []),
    ];
    const until = performance.now() + idleTtlMs;
    const reply = await command(id, 'could not confirm the save', deadline, () =>
      save([sk, streamKey(prefix, id)], args),
    );
    const [ok, current] = reply;
    if (ok === 3) throw wrongType(id, reply);
    if (ok === 1) remember(id, { gen: String(reply[2] ?? ''), v: Number(current), until });
    // `current === newRev`: this very save landed (a reply seen twice); anything else is someone else's.
    else if (current !== newRev) return { saved: false };
    return {
      saved: true,
      value,
      flush: () => {
        if (recorder) {
          for (const entry of entries) {
            try {
              recorder.record(entry);
            } catch (e) {
              report(e);
            }
          }
        }
        for (const d of deferred) {
          for (let i = 0; i < d.count; i++) {
            try {
              d.listener(session);
            } catch (e) {
              report(e);
            }
          }
        }
      },
    };
  };

  const run = async <T>(id: string, fn: (s: SafetySession) => T, deadline: number, timedOut: () => boolean) => {
    for (let n = 1; ; n++) {
      if (timedOut()) throw unavailable(id, 'gave up at the deadline');
      counters.attempts++;
      const result = await attempt(id, fn, deadline, timedOut);
      if (result.saved) return result;
      counters.conflicts++;
      if (n >= maxAttempts) {
        counters.gaveUp++;
        throw new SessionConflictError(id, n);
      }
      const cap = Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (n - 1));
      await sleep(Math.random() * cap);
    }
  };

  const checkId = (method: string, id: unknown): string => {
    if (typeof id !== 'string' || id.length === 0)
      throw new TypeError(`${method}: id: expected a non-empty string, got ${typeof id}`);
    return id;
  };

  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    const done = () => void pending.delete(p);
    p.then(done, done);
    return p;
  };

  const withSession = <T>(id: string, fn: (s: SafetySession) => T): Promise<T> => {
    try {
      checkId('withSession', id);
      if (typeof fn !== 'function') throw new TypeError('withSession: fn: expected a function');
      if (closed) throw new SessionStoreClosedError();
    } catch (e) {
      return Promise.reject(e);
    }
    const deadline = performance.now() + timeoutMs;
    let late = false;
    const work = inLane(id, () => run(id, fn, deadline, () => late));
    return track(
      new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          late = true;
          counters.unavailable++;
          reject(
            unavailable(id, `no confirmed save within ${timeoutMs} ms (Redis away or too slow); nothing was decided`),
          );
        }, timeoutMs);
        work.then(
          (result) => {
            clearTimeout(timer);
            if (late) return;
            counters.saved++;
            result.flush!();
            resolve(result.value as T);
          },
          (error: unknown) => {
            clearTimeout(timer);
            if (late) return;
            if (error instanceof SessionStoreUnavailableError) counters.unavailable++;
            if (error instanceof SessionLostError) counters.lost++;
            reject(error);
          },
        );
      }),
    );
  };

  const simple = <T>(id: string | undefined, what: string, run: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new SessionStoreClosedError());
    const deadline = performance.now() + timeoutMs;
    return track(
      new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(unavailable(id, `${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
        command(id, what, deadline, run).then(
          (v) => {
            clearTimeout(timer);
            resolve(v);
          },
          (e: unknown) => {
            clearTimeout(timer);
            reject(e);
          },
        );
      }),
    );
  };

  return {
    withSession,

    get(id) {
      try {
        checkId('get', id);
      } catch (e) {
        return Promise.reject(e);
      }
      const sk = sessionKey(prefix, id);
      return simple(id, 'could not read the session', async () => {
        const [[, fields], [, ttl]] = (await client.multi().hmget(sk, 'v', 'seq', 'data', 'at').pttl(sk).exec()) as [
          [unknown, (string | null)[]],
          [unknown, number],
        ];
        const [v, seq, data, at] = fields;
        if (data == null) return undefined;
        return {
          id,
          version: Number(v ?? 0),
          entries: Number(seq ?? 0),
          savedAt: Number(at ?? 0),
          ttlMs: ttl,
          snapshot: parsePersistedSession(data),
        };
      });
    },

    list({ limit = 1000 } = {}) {
      return simple(undefined, 'could not list the sessions', async () => {
        const ids = new Set<string>();
        let cursor = '0';
        do {
          const [next, keys] = await client.scan(cursor, 'MATCH', scanPattern(prefix, SESSION_SUFFIX), 'COUNT', 500);
          cursor = next;
          for (const key of keys) {
            const id = idOfKey(prefix, key, SESSION_SUFFIX);
            if (id !== undefined) ids.add(id);
          }
        } while (cursor !== '0' && ids.size < limit);
        const chosen = [...ids].slice(0, limit);
        if (chosen.length === 0) return [];
        const pipeline = client.pipeline();
        for (const id of chosen) pipeline.hmget(sessionKey(prefix, id), 'v', 'data', 'at');
        const rows = (await pipeline.exec()) ?? [];
        const out: StoredSessionSummary[] = [];
        rows.forEach(([error, fields], i) => {
          if (error) return;
          const [v, data, at] = fields as (string | null)[];
          if (data == null) return; // expired or deleted since the scan
          let state: SessionState;
          try {
            state = (JSON.parse(data) as { state: SessionState }).state;
          } catch {
            return;
          }
          out.push({ id: chosen[i]!, version: Number(v ?? 0), state, savedAt: Number(at ?? 0) });
        });
        return out.sort((a, b) => a.savedAt - b.savedAt || a.id.localeCompare(b.id));
      });
    },

    readRecording(id, { after, count } = {}) {
      try {
        checkId('readRecording', id);
      } catch (e) {
        return Promise.reject(e);
      }
      return simple(id, 'could not read the recording', () =>
        readStreamRecords(client, streamKey(prefix, id), {
          ...(after !== undefined && { after }),
          ...(count !== undefined && { count }),
        }),
      );
    },

    delete(id) {
      try {
        checkId('delete', id);
      } catch (e) {
        return Promise.reject(e);
      }
      return simple(id, 'could not delete the session', async () => {
        const tombstone = randomBytes(12).toString('base64url');
        const reply = await script<ScriptReply>(
          DELETE_SCRIPT_SHA,
          DELETE_SCRIPT,
          [sessionKey(prefix, id), streamKey(prefix, id)],
          [tombstone, idleTtlMs],
        );
        if (reply[0] === 3) throw wrongType(id, reply);
        known.delete(id);
      });
    },

    stats: () => ({ ...counters }),

    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...pending]);
      if (client.status === 'ready') {
        await Promise.race([client.quit().catch(() => undefined), sleep(Math.min(timeoutMs, 1000))]);
      }
      client.disconnect();
    },
  };
}

export type { RedisSessionStoreOptions };
