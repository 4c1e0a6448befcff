import { restoreSafetySession, type SafetySession, type SafetySessionOptions, type SessionRecorder } from '../index.js';
import { AsyncSessionFunctionError } from './errors.js';
import { type Connection, type Fields, type ScriptReply, unavailable, wrongType } from './connection.js';
import type { SessionMemory, Sink } from './heldSessions.js';
import { sessionKey, streamKey } from './keys.js';
import { SAVE_SCRIPT, SAVE_SCRIPT_SHA } from './scripts.js';

/*
 * One decision: runs the caller's `fn` on the session (through a view that stops reaching the
 * session once `fn` returned) and saves the result with the save script, if the stored rev is
 * still the one the decision started from.
 */

/** One `withSession` call. */
export interface Call {
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

/** An attempt's outcome (`fields`: what a refused save without a load found stored). */
export type Attempt = { saved: true; flush: () => void; value: unknown } | { saved: false; fields?: Fields };

/** What every decision of one store shares. */
export interface SaveContext {
  connection: Connection;
  memory: SessionMemory;
  sessionOptions: SafetySessionOptions;
  prefix: string;
  idleTtlMs: number;
  streamMaxLen: number;
  worker: string;
  /** `'replicated'`: a save counts only once a replica acknowledged it (`WAIT 1`, within the call's deadline). */
  replicated: boolean;
  nextToken: () => string;
  recorder: SessionRecorder | undefined;
  report: (error: unknown) => void;
}

/**
 * How long a save may wait for a replica with `remaining` ms left. Redis ends a WAIT that timed
 * out on its server cron (every 100 ms at the default `hz 10`), measured up to 200 ms late: half
 * the time left, at most 300 ms, is kept for that and the reply.
 */
export const waitWithin = (remaining: number) => remaining - Math.min(300, remaining / 2);

const isThenable = (v: unknown): boolean =>
  (typeof v === 'object' || typeof v === 'function') &&
  v !== null &&
  typeof (v as { then?: unknown }).then === 'function';

/**
 * Returns the store's decide-and-save: runs `fn` on the session and saves it if the stored rev
 * is still `expected`. `base`: the stored `seq`. `speculative`: the session is a held copy sent
 * without a load, and a refused save is answered with the stored fields.
 */
export function createDecideAndSave(ctx: SaveContext) {
  const { connection, memory, sessionOptions, prefix, idleTtlMs, streamMaxLen, worker, replicated } = ctx;
  const { nextToken, recorder, report } = ctx;
  // The save script's fixed arguments, as the strings Redis receives.
  const idleTtlArg = String(idleTtlMs);
  const streamMaxLenArg = String(streamMaxLen);

  return async (
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
      // A native promise is running already: its rejection is this error's business now. Any other
      // thenable may be lazy (a query builder runs on then()): never call it.
      if (value instanceof Promise) value.catch(() => undefined);
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
    let acks = 1;
    try {
      if (replicated)
        [reply, acks] = await connection.scriptAndWait<ScriptReply>(
          SAVE_SCRIPT,
          args,
          // WAIT ends before the deadline, so the call's error says what happened.
          performance.now() + waitWithin(call.deadline - performance.now()),
        );
      else reply = await connection.script<ScriptReply>(SAVE_SCRIPT, args);
    } catch (e) {
      throw unavailable(id, 'could not confirm the save', e);
    }
    const ok = reply[0];
    if (ok === 3) throw wrongType(id, reply);
    if (ok === 1 && acks < 1) {
      // The primary has the save, no replica acknowledged it in time: a failover now would lose
      // it, so it is not confirmed. Neither remembered nor held: the next decision loads whatever
      // Redis then holds (this save, once a replica copies it, or the session before it).
      throw unavailable(id, 'saved on the primary, but no replica acknowledged it before the deadline');
    }
    if (ok === 1) {
      memory.remember(id, { gen: String(reply[2] ?? ''), v: Number(reply[1]), until });
      // A call past its deadline holds nothing: the calls after it may have saved (and held) since.
      if (!call.late) {
        if (sink) sink.entries = []; // a held session's sink holds the next decision's entries only
        memory.hold(id, {
          rev: newRev,
          session,
          sink,
          seq: base + n,
          speculate: speculative || expected === call.heldRev,
        });
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
}
