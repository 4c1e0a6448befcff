/*
 * The one replayer every session kind uses: a recording's entries run again, one real session per
 * recorded session, on the recorded clock, and every place the run disagrees with the recording noted.
 * A kind says how its entries start a session, how one step is applied and compared, and how its
 * sessions park as snapshots; the replayer owns the rest (sessions live and parked, the clock,
 * divergences kept within a bound), so the safety replay and the kind replay cannot drift apart.
 */

/** Where a replay did something other than what was recorded. */
export interface ReplayDivergence<Field extends string = string> {
  /** 0-based index of the entry in the replayed list (in a stream: among its entries). */
  index: number;
  session: string;
  seq: number;
  field: Field;
  recorded: unknown;
  actual: unknown;
}

/** The fields every recording entry has, whatever its kind. */
export interface ReplayedEntry {
  session: string;
  seq: number;
  at: number;
  before?: string;
  after: string;
  /** What the kind's recording keeps of the context after the entry. */
  context: unknown;
}

/** The session options a replayer hands a kind: the recorded session's id and the recorded clock. */
interface ReplaySessionOptions {
  id: string;
  now: () => number;
}

/** What a kind tells the replayer (see {@link createReplayer}). */
export interface ReplayProtocol<
  S extends { readonly state: string },
  Entry extends ReplayedEntry,
  Field extends string,
> {
  /** Reads a raw entry; throws naming what is wrong (the entry is a divergence). Default: taken as it is. */
  read?: (raw: unknown) => Entry;
  /** The session a start entry makes (create or restore); `undefined` for every other entry. */
  start(entry: Entry, options: ReplaySessionOptions): S | undefined;
  /** The session for a step whose session never started in the recording (a cut file); throw to refuse. */
  orphan(entry: Entry, options: ReplaySessionOptions): S;
  /** Applies a step entry to its session, noting the divergences of what the step itself returned. */
  step(session: S, entry: Entry, diverge: (field: Field, recorded: unknown, actual: unknown) => void): void;
  /** Whether the session's context is what the entry recorded; `summary` is only asked on a divergence. */
  contextMatches(session: S, entry: Entry): boolean;
  summary(session: S): unknown;
  /** The session as a JSON snapshot, to park it; its `id` is left out by the replayer. */
  persist(session: S): object;
  /** A parked session back (the snapshot with its id put back). */
  restore(snapshot: object, options: ReplaySessionOptions): S;
}

export interface ReplayerOptions<Entry, Field extends string> {
  /** How many divergences to keep in the result; every one is counted and passed to `onDivergence`. Default 1000. */
  keepDivergences?: number;
  /** Told of every divergence as it is found, with the entry it is about (the raw value, for one that could not be read). */
  onDivergence?: (divergence: ReplayDivergence<Field>, entry: Entry) => void;
  /**
   * Sessions kept running at once; the one least recently replayed beyond it is parked as its
   * persisted JSON and restored when its next entry comes. Default 1000.
   */
  maxLiveSessions?: number;
}

/** A replay under way: see {@link createReplayer}. */
export interface Replayer<S, Field extends string> {
  /** Replays the next entry. */
  push(entry: unknown): void;
  /** Entries replayed so far. */
  readonly count: number;
  /** Divergences found so far, all of them (`divergences()` keeps the first `keepDivergences`). */
  readonly divergenceCount: number;
  /** Sessions running now (the others are parked as snapshots). */
  readonly running: number;
  /** The session of the last entry replayed. */
  readonly last: S | undefined;
  divergences(): ReplayDivergence<Field>[];
  /** Every session seen, in order of appearance, with its state now. */
  sessions(): Record<string, string>;
}

/** The fields every kind compares the same way. */
type CommonField = 'before' | 'after' | 'context' | 'error';

/**
 * A replayer for entries of one kind, pushed one at a time. Memory grows with the number of
 * recorded sessions (a parked snapshot each beyond `maxLiveSessions` running ones) and the kept
 * divergences, not with the entries.
 *
 * @example
 * const replayer = createReplayer(doorReplay, {});
 * for (const entry of entries) replayer.push(entry);
 * replayer.divergences(); // [] when the machine decides as recorded
 */
export function createReplayer<S extends { readonly state: string }, Entry extends ReplayedEntry, Field extends string>(
  kind: ReplayProtocol<S, Entry, Field | CommonField>,
  options: ReplayerOptions<Entry, Field | CommonField>,
): Replayer<S, Field | CommonField> {
  type F = Field | CommonField;
  const keep = options.keepDivergences ?? 1000;
  const { onDivergence } = options;
  let clock = 0;
  const now = () => clock;
  const maxLive = Math.max(1, options.maxLiveSessions ?? 1000);
  /**
   * Running sessions, in the order they became live, each with a mark set when replayed since it was
   * last passed over: eviction is second chance (CLOCK), an LRU that needs no move per entry (moving a
   * session to the back of the map on every entry of an interleaved file was a tenth of a replay).
   */
  const live = new Map<string, { session: S; used: boolean }>();
  /** Sessions parked beyond maxLive: their persisted JSON without the id. */
  const parked = new Map<string, string>();
  /**
   * The snapshots parked lately, each text once: sessions parked in the same state (every
   * session of a file of one-line sessions) share one string instead of holding a copy each.
   */
  const recent = new Map<string, string>();
  const snapshotOf = (session: S): string => {
    const { id: _id, ...rest } = kind.persist(session) as { id?: unknown };
    const text = JSON.stringify(rest);
    const shared = recent.get(text);
    if (shared !== undefined) return shared;
    recent.set(text, text);
    if (recent.size > 64) recent.delete(recent.keys().next().value!);
    return text;
  };
  /** Every session seen, in order of appearance, with its state when parked. */
  const seen = new Map<string, string>();
  const divergences: ReplayDivergence<F>[] = [];
  let divergenceCount = 0;
  let last: S | undefined;
  let index = -1;

  // Nothing is allocated per entry unless it diverges: this is the loop a million-entry replay runs.
  const diverge = (entry: Entry, field: F, recorded: unknown, actual: unknown) => {
    divergenceCount++;
    const d: ReplayDivergence<F> = { index, session: entry.session, seq: entry.seq, field, recorded, actual };
    if (divergences.length < keep) divergences.push(d);
    onDivergence?.(d, entry);
  };
  /** The entry being stepped, for the one function a kind's step notes divergences through. */
  let current: Entry | undefined;
  const divergeCurrent = (field: F, recorded: unknown, actual: unknown) => diverge(current!, field, recorded, actual);
  const keepLive = (id: string, session: S) => {
    live.delete(id);
    live.set(id, { session, used: true });
    parked.delete(id);
    if (!seen.has(id)) seen.set(id, session.state);
    while (live.size > maxLive) {
      const [oldId, old] = live.entries().next().value!;
      live.delete(oldId);
      if (old.used) {
        // Replayed since it was last passed over: a second chance, at the back.
        old.used = false;
        live.set(oldId, old);
        continue;
      }
      parked.set(oldId, snapshotOf(old.session));
      seen.set(oldId, old.session.state);
    }
  };
  /** The running session of `id`: live, or restored from where it was parked. */
  const find = (id: string): S | undefined => {
    const running = live.get(id);
    if (running !== undefined) {
      running.used = true;
      return running.session;
    }
    const snapshot = parked.get(id);
    if (snapshot === undefined) return undefined;
    const session = kind.restore({ ...(JSON.parse(snapshot) as object), id }, { id, now });
    keepLive(id, session);
    return session;
  };
  const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

  const push = (raw: unknown) => {
    index++;
    let entry: Entry;
    try {
      entry = kind.read ? kind.read(raw) : (raw as Entry);
    } catch (e) {
      diverge({ session: '', seq: -1 } as Entry, 'error', raw, messageOf(e));
      return;
    }
    clock = entry.at;
    const sessionOptions = { id: entry.session, now };
    let session: S | undefined;
    try {
      session = kind.start(entry, sessionOptions);
      if (session === undefined) {
        session = find(entry.session);
        if (session === undefined) {
          session = kind.orphan(entry, sessionOptions);
          keepLive(entry.session, session);
        }
        if (session.state !== entry.before) diverge(entry, 'before', entry.before, session.state);
        current = entry;
        kind.step(session, entry, divergeCurrent);
      } else {
        // Parked at once: most recordings continue it at the next entry (one restore), and a file of
        // many short sessions then never holds a thousand running sessions that survive long enough
        // to fill the old generation with garbage.
        live.delete(entry.session);
        parked.set(entry.session, snapshotOf(session));
        seen.set(entry.session, session.state);
      }
      last = session;
    } catch (e) {
      diverge(entry, 'error', null, messageOf(e));
      return;
    }
    if (session.state !== entry.after) diverge(entry, 'after', entry.after, session.state);
    if (!kind.contextMatches(session, entry)) diverge(entry, 'context', entry.context, kind.summary(session));
  };

  return {
    push,
    get count() {
      return index + 1;
    },
    get divergenceCount() {
      return divergenceCount;
    },
    get running() {
      return live.size;
    },
    get last() {
      return last;
    },
    divergences: () => [...divergences],
    sessions: () => Object.fromEntries([...seen].map(([id, state]) => [id, live.get(id)?.session.state ?? state])),
  };
}
