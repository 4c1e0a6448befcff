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

/** Where a session's recorder puts its entries: the current attempt's list (a session's recorder is fixed at its creation). */
interface Sink {
  entries: RecordingEntry[];
}

/**
 * A session this store saved, kept in memory while no other save replaces it: Redis holds
 * exactly what it holds as long as the stored `rev` is this one (every save writes a new rev).
 */
interface Held {
  rev: string;
  session: SafetySession;
  sink: Sink | undefined;
  /** The stored `seq` after this save. */
  seq: number;
  /**
   * Whether the next decision may save on this copy without loading first: the last decision
   * found the session as this store left it. A save on a copy someone else overtook is refused
   * by the version check and answered with the stored fields, which then serve as the load.
   */
  speculate: boolean;
}

/** One `withSession` call. */
interface Call {
  id: string;
  fn: (s: SafetySession) => unknown;
  deadline: number;
  /** The caller was told no (the deadline passed): the call decides and saves nothing more. */
  late: boolean;
  /** Settled or expired: its lane moved on. */
  done: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The rev of the session this store held at the call's start, if any. */
  heldRev: string | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The session's fields as a load reads them (`null`: absent). */
type Fields = [
  rev: string | null,
  v: string | null,
  seq: string | null,
  data: string | null,
  gen: string | null,
  born: string | null,
];

/** The save script's reply: `[1, version, gen]`, `[0, rev, ...fields]`, or `[3, key, found, expected]`. */
type ScriptReply = [number, string | number, ...(string | null)[]];

/** An attempt's outcome (`fields`: what a refused save without a load found stored). */
type Attempt = { saved: true; flush: () => void; value: unknown } | { saved: false; fields?: Fields };

const isThenable = (v: unknown): boolean =>
  (typeof v === 'object' || typeof v === 'function') &&
  v !== null &&
  typeof (v as { then?: unknown }).then === 'function';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** At most this many sessions stay in memory per store (least recently saved forgotten first). */
const MAX_HELD_SESSIONS = 1000;

/**
 * Revisions (the version check's token, a new session's generation) and tombstones: one random
 * prefix per store, 16 characters (96 bits), then a counter. Every check compares a token with
 * one a save wrote, so what matters is that two saves never write the same token: within a
 * store the counter never repeats, and two stores share a prefix with a chance below k²/2⁹⁷ for
 * k stores ever created (a random token per save would give the same bound with k the number
 * of saves). The fixed prefix length keeps prefix + counter unambiguous. One random draw per
 * store instead of one per save: no cryptographic call on the decision path.
 */
function tokenSource(): () => string {
  const prefix = randomBytes(12).toString('base64url');
  let n = 0;
  return () => prefix + (n++).toString(36);
}

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
  const maxHeld = Math.min(maxKnown, MAX_HELD_SESSIONS);
  const nextToken = tokenSource();
  // The save script's fixed arguments, as the strings Redis receives.
  const idleTtlArg = String(idleTtlMs);
  const streamMaxLenArg = String(streamMaxLen);
  /** Sessions this store saved, least recently saved first (a bounded LRU). */
  const known = new Map<string, Known>();
  const remember = (id: string, k: Known) => {
    known.delete(id);
    known.set(id, k);
    if (known.size > maxKnown) known.delete(known.keys().next().value!);
  };
  /** Sessions this store saved and keeps in memory, least recently saved first (a bounded LRU). */
  const held = new Map<string, Held>();
  const hold = (id: string, h: Held) => {
    held.delete(id);
    held.set(id, h);
    if (held.size > maxHeld) held.delete(held.keys().next().value!);
  };

  const client = new Redis(options.url, {
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
  /** Calls not settled yet (`close` waits for them), and who waits for none to be left. */
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const settled = () => {
    if (--inFlight === 0 && drained) drained();
  };
  /**
   * Per session id, this process's calls in arrival order, the first one running: calls on one
   * session from one process take turns, so they never overtake one another (conflicts come
   * only from other processes).
   */
  const lanes = new Map<string, Call[]>();
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

  /** EVALSHA of a script (`args`: the sha, the key count, the keys, its arguments), EVAL if Redis lost it. */
  const script = async <R>(source: string, args: string[]): Promise<R> => {
    try {
      return (await client.call('evalsha', args)) as R;
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
      // The server restarted or flushed its scripts: send the script itself (it is cached again).
      return (await client.call('eval', [source, ...args.slice(1)])) as R;
    }
  };
  const wrongType = (id: string, reply: ScriptReply) =>
    new SessionKeyTypeError(id, String(reply[1]), String(reply[2]), String(reply[3]));

  /** Loads a session's fields; a key of another type is WRONG_KEY_TYPE, not an outage. */
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

  /** Why a session this store saved counts as lost at this load, or undefined when it does not. */
  const lossAt = (id: string, [rev, v, , data, gen, born]: Fields): SessionLossKind | undefined => {
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

  /** A new session, or the stored one restored, recording into a sink of its own. */
  const sessionFrom = (id: string, data: string | null): { session: SafetySession; sink: Sink | undefined } => {
    const sink: Sink | undefined = wantEntries ? { entries: [] } : undefined;
    const opts: SafetySessionOptions = { ...sessionOptions, id };
    if (sink) opts.recorder = { record: (e) => void sink.entries.push(e) };
    if (data == null) return { session: createSafetySession(opts), sink };
    const session = restoreSafetySession(data, opts);
    // The session's own `restore` entry is not a call: the stream continues where the last save left it.
    if (sink) sink.entries = [];
    return { session, sink };
  };

  /**
   * Runs `fn` on the session and saves it if the stored rev is still `expected`. `base`: the
   * stored `seq`. `speculative`: the session is a held copy sent without a load, and a refused
   * save is answered with the stored fields.
   */
  const decideAndSave = async (
    call: Call,
    session: SafetySession,
    sink: Sink | undefined,
    base: number,
    expected: string,
    speculative: boolean,
  ): Promise<Attempt> => {
    const id = call.id;
    // Listeners subscribed by fn hear of the changes only once this attempt is saved.
    const deferred: Array<{ listener: (s: SafetySession) => void; count: number }> = [];
    const unsubscribes: Array<() => void> = [];
    /**
     * What fn sees. Once fn has returned, the session may be held for the next decision, so the
     * view (and every method taken from it) stops reaching it: a view kept past fn (returned,
     * handed to a listener, a method kept for later) reads and changes a copy of the session as
     * this attempt left it, as it did when every call restored a session of its own.
     */
    let frozen: string | undefined;
    let copy: SafetySession | undefined;
    const current = (): SafetySession =>
      frozen === undefined ? session : (copy ??= restoreSafetySession(frozen, { ...sessionOptions, id }));
    const view = new Proxy(session, {
      get(_target, prop) {
        if (prop === 'subscribe') {
          return (listener: (s: SafetySession) => void) => {
            const s = current();
            const d = { listener, count: 0 };
            deferred.push(d);
            const off = s.subscribe(() => void d.count++);
            if (s === session) unsubscribes.push(off);
            return off;
          };
        }
        const value: unknown = Reflect.get(current(), prop);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const s = current();
          return (Reflect.get(s, prop) as (...a: unknown[]) => unknown).apply(s, args);
        };
      },
    });

    let value: unknown;
    try {
      value = call.fn(view);
    } finally {
      // A held session outlives this attempt: the counting listeners go with it.
      for (const off of unsubscribes) off();
    }
    if (isThenable(value)) {
      (value as Promise<unknown>).then(undefined, () => undefined);
      throw new AsyncSessionFunctionError(id);
    }

    const buffer = sink ? sink.entries : [];
    const entries = buffer.map((e, i) => (e.seq === base + i ? e : { ...e, seq: base + i }));
    if (call.late) throw unavailable(id, 'past the deadline before the save');
    const newRev = nextToken();
    const data = JSON.stringify(session.persist());
    frozen = data;
    const sk = sessionKey(prefix, id);
    const n = streamMaxLen > 0 ? entries.length : 0;
    const args = [
      SAVE_SCRIPT_SHA,
      '2',
      sk,
      streamKey(prefix, id),
      expected,
      newRev,
      data,
      idleTtlArg,
      streamMaxLenArg,
      worker,
      String(Date.now()),
      speculative ? '1' : '0',
      String(n),
    ];
    for (let i = 0; i < n; i++) args.push(JSON.stringify(entries[i]));
    const until = performance.now() + idleTtlMs;
    let reply: ScriptReply;
    try {
      reply = await script<ScriptReply>(SAVE_SCRIPT, args);
    } catch (e) {
      throw unavailable(id, 'could not confirm the save', e);
    }
    const ok = reply[0];
    if (ok === 3) throw wrongType(id, reply);
    if (ok === 1) {
      remember(id, { gen: String(reply[2] ?? ''), v: Number(reply[1]), until });
      // A call past its deadline holds nothing: the calls after it may have saved (and held) since.
      if (!call.late) {
        if (sink) sink.entries = []; // a held session's sink holds the next decision's entries only
        hold(id, { rev: newRev, session, sink, seq: base + n, speculate: speculative || expected === call.heldRev });
      }
    } else if (reply[1] !== newRev) {
      // Someone else saved in between (`reply[1] === newRev`: this very save landed, a reply seen twice).
      if (!speculative) return { saved: false };
      const [, rev, v = null, seq = null, stored = null, gen = null, born = null] = reply;
      return { saved: false, fields: [rev === '' ? null : String(rev), v, seq, stored, gen, born] };
    }
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
              d.listener(view);
            } catch (e) {
              report(e);
            }
          }
        }
      },
    };
  };

  /** One attempt: load (unless `fields` came with a refused speculative save), decide, save. */
  const attempt = async (call: Call, mine: Held | undefined, fields: Fields | undefined): Promise<Attempt> => {
    const id = call.id;
    if (client.status !== 'ready') await ready(call.deadline, id);
    if (fields === undefined) {
      fields = await load(id, sessionKey(prefix, id));
      // The caller was already told no: neither decide nor save now.
      if (call.late) throw unavailable(id, 'the load came back after the deadline');
    }
    const loss = rejectLost ? lossAt(id, fields) : undefined;
    if (loss !== undefined) throw new SessionLostError(id, loss, known.get(id)!.v);
    const [rev, , seq, data] = fields;
    // Nobody saved since this store did: the held session is the stored one, no restore needed.
    const { session, sink } = mine !== undefined && rev === mine.rev ? mine : sessionFrom(id, data);
    return decideAndSave(call, session, sink, Number(seq ?? 0), rev ?? '', false);
  };

  const run = async (call: Call): Promise<Attempt & { saved: true }> => {
    const id = call.id;
    // The held session is this call's alone from here on; a save puts it (or its successor) back.
    const mine = held.get(id);
    if (mine) held.delete(id);
    call.heldRev = mine?.rev;
    let fields: Fields | undefined;
    if (mine?.speculate) {
      if (client.status !== 'ready') await ready(call.deadline, id);
      if (call.late) throw unavailable(id, 'gave up at the deadline');
      counters.attempts++;
      const result = await decideAndSave(call, mine.session, mine.sink, mine.seq, mine.rev, true);
      if (result.saved) return result;
      // Overtaken since this store's last save: the reply is the load of a regular attempt.
      counters.attempts--;
      fields = result.fields;
    }
    for (let n = 1; ; n++) {
      if (call.late) throw unavailable(id, 'gave up at the deadline');
      counters.attempts++;
      const result = await attempt(call, n === 1 && fields === undefined ? mine : undefined, fields);
      fields = undefined;
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

  /** The call leaves its lane; the next one on the session starts. */
  const leave = (call: Call) => {
    call.done = true;
    if (call.timer !== undefined) clearTimeout(call.timer);
    const lane = lanes.get(call.id)!;
    const at = lane.indexOf(call);
    lane.splice(at, 1);
    if (lane.length === 0) lanes.delete(call.id);
    else if (at === 0) start(lane[0]!);
    settled();
  };

  const start = (call: Call) => {
    run(call).then(
      (result) => {
        if (call.done) return;
        counters.saved++;
        result.flush();
        call.resolve(result.value);
        leave(call);
      },
      (error: unknown) => {
        if (call.done) return;
        if (error instanceof SessionStoreUnavailableError) counters.unavailable++;
        if (error instanceof SessionLostError) counters.lost++;
        call.reject(error);
        leave(call);
      },
    );
  };

  const checkId = (method: string, id: unknown): string => {
    if (typeof id !== 'string' || id.length === 0)
      throw new TypeError(`${method}: id: expected a non-empty string, got ${typeof id}`);
    return id;
  };

  const withSession = <T>(id: string, fn: (s: SafetySession) => T): Promise<T> => {
    try {
      checkId('withSession', id);
      if (typeof fn !== 'function') throw new TypeError('withSession: fn: expected a function');
      if (closed) throw new SessionStoreClosedError();
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise<T>((resolve, reject) => {
      const call: Call = {
        id,
        fn,
        deadline: performance.now() + timeoutMs,
        late: false,
        done: false,
        timer: undefined,
        heldRev: undefined,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      inFlight++;
      // The one timer of the call: past it the caller is told no and the call's turn ends, even
      // with a command still out (its reply, if it comes, decides and saves nothing more).
      call.timer = setTimeout(() => {
        if (call.done) return;
        call.late = true;
        counters.unavailable++;
        reject(
          unavailable(id, `no confirmed save within ${timeoutMs} ms (Redis away or too slow); nothing was decided`),
        );
        leave(call);
      }, timeoutMs);
      const lane = lanes.get(id);
      if (lane) lane.push(call);
      else {
        lanes.set(id, [call]);
        // Never inside the caller's own stack: fn runs after withSession returns, as it always did.
        queueMicrotask(() => start(call));
      }
    });
  };

  /** Counts a promise as a call in flight until it settles (`close` waits for it). */
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight++;
    p.then(settled, settled);
    return p;
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
        const reply = await script<ScriptReply>(DELETE_SCRIPT, [
          DELETE_SCRIPT_SHA,
          '2',
          sessionKey(prefix, id),
          streamKey(prefix, id),
          nextToken(),
          idleTtlArg,
        ]);
        if (reply[0] === 3) throw wrongType(id, reply);
        known.delete(id);
        held.delete(id);
      });
    },

    stats: () => ({ ...counters }),

    async close() {
      if (closed) return;
      closed = true;
      if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
      if (client.status === 'ready') {
        await Promise.race([client.quit().catch(() => undefined), sleep(Math.min(timeoutMs, 1000))]);
      }
      client.disconnect();
    },
  };
}

export type { RedisSessionStoreOptions };
