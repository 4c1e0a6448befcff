import { randomBytes } from 'node:crypto';
import {
  createSafetySession,
  restoreSafetySession,
  type RecordingEntry,
  type SafetySession,
  type SafetySessionOptions,
} from '../index.js';
import type { SessionLossKind } from './errors.js';
import type { Fields } from './connection.js';

/*
 * What a store remembers of the sessions it saved: which generation and version it left in
 * Redis (how it tells a lost session from a new one), and the last saved copy of each, kept in
 * memory so the next decision on it needs neither a load nor a restore.
 */

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
export interface Sink {
  entries: RecordingEntry[];
}

/**
 * A session this store saved, kept in memory while no other save replaces it: Redis holds
 * exactly what it holds as long as the stored `rev` is this one (every save writes a new rev).
 */
export interface Held {
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
export function tokenSource(): () => string {
  const prefix = randomBytes(12).toString('base64url');
  let n = 0;
  return () => prefix + (n++).toString(36);
}

/** The known and held sessions of one store, both bounded LRUs. */
export interface SessionMemory {
  /** Sessions this store saved, least recently saved first. */
  readonly known: Map<string, Known>;
  /** Sessions this store saved and keeps in memory, least recently saved first. */
  readonly held: Map<string, Held>;
  remember(id: string, k: Known): void;
  hold(id: string, h: Held): void;
  /** Why a session this store saved counts as lost at this load, or undefined when it does not. */
  lossAt(id: string, fields: Fields): SessionLossKind | undefined;
  /** A new session, or the stored one restored, recording into a sink of its own. */
  sessionFrom(id: string, data: string | null): { session: SafetySession; sink: Sink | undefined };
}

export function createSessionMemory(
  maxKnown: number,
  sessionOptions: SafetySessionOptions,
  wantEntries: boolean,
): SessionMemory {
  const maxHeld = Math.min(maxKnown, MAX_HELD_SESSIONS);
  const known = new Map<string, Known>();
  const held = new Map<string, Held>();
  return {
    known,
    held,
    remember(id, k) {
      known.delete(id);
      known.set(id, k);
      if (known.size > maxKnown) known.delete(known.keys().next().value!);
    },
    hold(id, h) {
      held.delete(id);
      held.set(id, h);
      if (held.size > maxHeld) held.delete(held.keys().next().value!);
    },
    lossAt(id, [rev, v, , data, gen, born]) {
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
    },
    sessionFrom(id, data) {
      const sink: Sink | undefined = wantEntries ? { entries: [] } : undefined;
      const opts: SafetySessionOptions = { ...sessionOptions, id };
      if (sink) opts.recorder = { record: (e) => void sink.entries.push(e) };
      if (data == null) return { session: createSafetySession(opts), sink };
      const session = restoreSafetySession(data, opts);
      // The session's own `restore` entry is not a call: the stream continues where the last save left it.
      if (sink) sink.entries = [];
      return { session, sink };
    },
  };
}
