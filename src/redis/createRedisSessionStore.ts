import { hostname } from 'node:os';
import {
  parsePersistedSession,
  type PersistedSession,
  type SafetySession,
  type SafetySessionOptions,
  type SessionState,
} from '../index.js';
import {
  createConnection,
  type Fields,
  openClient,
  primariesOf,
  type ScriptReply,
  unavailable,
  wrongType,
} from './connection.js';
import { type Attempt, type Call, createDecideAndSave } from './decideAndSave.js';
import {
  SessionConflictError,
  SessionLostError,
  SessionStoreClosedError,
  SessionStoreUnavailableError,
} from './errors.js';
import { createSessionMemory, type Held, tokenSource } from './heldSessions.js';
import { idOfKey, keysShareSlot, scanPattern, SESSION_SUFFIX, sessionKey, streamKey } from './keys.js';
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
import { DELETE_SCRIPT, DELETE_SCRIPT_SHA } from './scripts.js';
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
  const replicated = options.durability === 'replicated';
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
  const nextToken = tokenSource();
  const idleTtlArg = String(idleTtlMs);
  const memory = createSessionMemory(maxKnown, sessionOptions, wantEntries);
  const { known, held } = memory;

  const client = openClient(options, timeoutMs, commandTimeoutMs);
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

  const connection = createConnection(client, () => closed);
  const { ready, command, script, load } = connection;
  const decideAndSave = createDecideAndSave({
    connection,
    memory,
    sessionOptions,
    prefix,
    idleTtlMs,
    streamMaxLen,
    worker,
    replicated,
    nextToken,
    recorder,
    report,
  });

  /** One attempt: load (unless `fields` came with a refused speculative save), decide, save. */
  const attempt = async (call: Call, mine: Held | undefined, fields: Fields | undefined): Promise<Attempt> => {
    const id = call.id;
    if (client.status !== 'ready') await ready(call.deadline, id);
    if (fields === undefined) {
      fields = await load(id, sessionKey(prefix, id));
      // The caller was already told no: neither decide nor save now.
      if (call.late) throw unavailable(id, 'the load came back after the deadline');
    }
    const loss = rejectLost ? memory.lossAt(id, fields) : undefined;
    if (loss !== undefined) throw new SessionLostError(id, loss, known.get(id)!.v);
    const [rev, , seq, data] = fields;
    // Nobody saved since this store did: the held session is the stored one, no restore needed.
    const { session, sink } = mine !== undefined && rev === mine.rev ? mine : memory.sessionFrom(id, data);
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
    // A session's keys must share a slot for its scripts to run on a cluster (an id such as `}x`
    // would break the key layout's hash tag): refused before anything is sent.
    if (options.cluster !== undefined && !keysShareSlot(prefix, id))
      throw new TypeError(
        `${method}: id: ${JSON.stringify(id)} under key prefix ${JSON.stringify(prefix)} would put the session's keys in different cluster slots (an id starting with "}" does)`,
      );
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
        // Every primary holds its own slots: each is scanned, and its sessions read from it.
        const out: StoredSessionSummary[] = [];
        let found = 0;
        for (const node of primariesOf(client)) {
          if (found >= limit) break;
          const ids = new Set<string>();
          let cursor = '0';
          do {
            const [next, keys] = await node.scan(cursor, 'MATCH', scanPattern(prefix, SESSION_SUFFIX), 'COUNT', 500);
            cursor = next;
            for (const key of keys) {
              const id = idOfKey(prefix, key, SESSION_SUFFIX);
              if (id !== undefined) ids.add(id);
            }
          } while (cursor !== '0' && found + ids.size < limit);
          const chosen = [...ids].slice(0, limit - found);
          found += chosen.length;
          if (chosen.length === 0) continue;
          const pipeline = node.pipeline();
          for (const id of chosen) pipeline.hmget(sessionKey(prefix, id), 'v', 'data', 'at');
          const rows = (await pipeline.exec()) ?? [];
          rows.forEach(([error, fields], i) => {
            if (error) return; // moved to another node since the scan
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
        }
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
      const deadline = performance.now() + timeoutMs;
      return simple(id, 'could not delete the session', async () => {
        const args = [DELETE_SCRIPT_SHA, '2', sessionKey(prefix, id), streamKey(prefix, id), nextToken(), idleTtlArg];
        // The session is forgotten either way: a delete that did land must not read as a loss.
        known.delete(id);
        held.delete(id);
        const [reply, acks] = replicated
          ? await connection.scriptAndWait<ScriptReply>(DELETE_SCRIPT, args, deadline)
          : [await script<ScriptReply>(DELETE_SCRIPT, args), 1];
        if (reply[0] === 3) throw wrongType(id, reply);
        if (acks < 1) throw new Error('deleted on the primary, but no replica acknowledged it before the deadline');
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
