import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordingEntry, SessionRecorder } from '../safety/RecordingEntry.js';
import type { SafetySession, SafetySessionOptions } from '../safety/SafetySessionTypes.js';
import { createFileSessionStore, type SessionNotes } from '../node/createFileSessionStore.js';

/*
 * Where the hook command keeps its sessions between processes: files in the state folder (the
 * default), or Redis (`--redis URL`), shared by every machine on the same server. Either way the
 * hook sees one interface: a session and its notes for one event, saved with a compare-and-swap.
 */

/** The hook's sessions, whichever store holds them. */
export interface HookSessions {
  /** Runs `fn` on the session and its notes (synchronously) and saves both; retried on a conflict. */
  withSession<T>(id: string, fn: (session: SafetySession, notes: SessionNotes) => T): Promise<T>;
  /** What SessionStart does: removes expired sessions this store created. */
  sweep(): Promise<void>;
  /** What SessionEnd does: removes the session. */
  delete(id: string): Promise<void>;
  /** Lets go of connections. */
  close(): Promise<void>;
}

/** The settings every hook session is created or restored with (never taken from what was saved). */
type HookSessionSettings = Required<Pick<SafetySessionOptions, 'targets' | 'profile' | 'mode'>> & {
  onWarning?: (message: string) => void;
  recorder?: SessionRecorder;
};

/** Sessions in files under `dir` (see createFileSessionStore). */
export function fileHookSessions(dir: string, settings: HookSessionSettings): HookSessions {
  const store = createFileSessionStore({ dir, session: settings });
  return {
    withSession: (id, fn) => store.withSession(id, fn),
    sweep: async () => void (await store.sweep()),
    delete: (id) => store.delete(id),
    close: async () => {},
  };
}

const ASKED = 'asked';

function askedIn(notes: SessionNotes): Record<string, unknown> {
  const v = notes[ASKED];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * Sessions in Redis (`createRedisSessionStore`, loaded only when asked for). The session itself
 * is shared through Redis; the notes (which calls were answered `ask`) stay in the state folder
 * of the machine whose Claude Code asked, the only one that sees that call's PostToolUse. They
 * are merged by tool-use id, so parallel events lose none.
 */
export async function redisHookSessions(
  url: string,
  dir: string,
  settings: HookSessionSettings,
): Promise<HookSessions> {
  const { createRedisSessionStore } = await import('../redis/index.js');
  const store = createRedisSessionStore({
    url,
    session: { targets: settings.targets, profile: settings.profile, mode: settings.mode },
    ...(settings.recorder && { recorder: settings.recorder }),
  });
  const local = createFileSessionStore({ dir, session: settings });
  return {
    async withSession(id, fn) {
      const base = (await local.get(id))?.notes ?? {};
      let notes: SessionNotes = {};
      const value = await store.withSession(id, (session) => {
        notes = structuredClone(base);
        return fn(session, notes);
      });
      const before = askedIn(base);
      const after = askedIn(notes);
      const removed = Object.keys(before).filter((k) => !Object.hasOwn(after, k));
      const added = Object.entries(after).filter(([k, v]) => JSON.stringify(before[k]) !== JSON.stringify(v));
      if (removed.length > 0 || added.length > 0)
        await local.withSession(id, (_session, stored) => {
          const asked = { ...askedIn(stored) };
          for (const k of removed) delete asked[k];
          for (const [k, v] of added) asked[k] = v;
          stored[ASKED] = asked;
        });
      return value;
    },
    sweep: async () => void (await local.sweep()),
    async delete(id) {
      await store.delete(id);
      await local.delete(id);
    },
    close: () => store.close(),
  };
}

/** A file name for any session id: readable ids as they are, anything else hashed. */
function fileNameOf(id: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9_.-]{0,100}$/.test(id) && !id.includes('..')) return `${id}.jsonl`;
  return `h-${createHash('sha256').update(id).digest('hex').slice(0, 40)}.jsonl`;
}

/** The note key of how many entries of the session were streamed to the live hub before this event. */
const LIVE_FROM = 'liveFrom';

/** The recording of one hook event: entries of the attempt that was saved, written once it was. */
interface HookRecording {
  /** The recorder the session writes to (each create or restore starts an attempt: the entries of one that lost a conflict are dropped). */
  recorder: SessionRecorder;
  /** Called at the end of an attempt with its notes: keeps where the live stream is. */
  noteAttempt(notes: SessionNotes): void;
  /** Appends the saved attempt's entries to the session's file (and the live hub); a failure is only told. */
  commit(warn: (message: string) => void): Promise<void>;
}

/**
 * Records a hook session as JSON Lines, one file per session in `dir` (the recording format
 * of every other surface: one process per event appends its restore and its calls), and with
 * `live` streams the same entries to the app's hub. Recording never changes a decision.
 */
export function createHookRecording(options: {
  dir: string;
  sessionId: string;
  live?: { url: string; token: string };
}): HookRecording {
  let entries: RecordingEntry[] = [];
  let from = 0;
  return {
    recorder: {
      record(entry) {
        if (entry.call.type === 'create' || entry.call.type === 'restore') entries = [];
        entries.push(entry);
      },
    },
    noteAttempt(notes) {
      const before = notes[LIVE_FROM];
      from = typeof before === 'number' && Number.isSafeInteger(before) && before >= 0 ? before : 0;
      if (options.live !== undefined) notes[LIVE_FROM] = from + entries.length;
    },
    async commit(warn) {
      if (entries.length === 0) return;
      try {
        mkdirSync(options.dir, { recursive: true, mode: 0o700 });
        chmodSync(options.dir, 0o700);
        const { createFileRecorder } = await import('../node/fileRecorder.js');
        const file = createFileRecorder(join(options.dir, fileNameOf(options.sessionId)));
        try {
          for (const entry of entries) file.record(entry);
        } finally {
          file.close();
        }
      } catch (e) {
        warn(`the recording was not written: ${(e as Error).message}`);
      }
      if (options.live === undefined) return;
      try {
        const { createLiveRecorder } = await import('../node/createLiveRecorder.js');
        // One agent id per session (every process of it is the same agent to the hub), and the
        // index this process's entries start at: what earlier processes streamed.
        const agentId = createHash('sha256').update(`claude-code-hook\u0000${options.sessionId}`).digest('hex');
        const live = createLiveRecorder({
          url: options.live.url,
          token: options.live.token,
          name: 'claude-code hook',
          maxRetryMs: 250,
          agentId: `${agentId.slice(0, 8)}-${agentId.slice(8, 12)}-${agentId.slice(12, 16)}-${agentId.slice(16, 20)}-${agentId.slice(20, 32)}`,
          from,
        });
        for (const entry of entries) live.record(entry);
        await live.close({ timeoutMs: 1000 });
        if (live.pending > 0) warn(`${live.pending} recording entries did not reach ${new URL(options.live.url).host}`);
      } catch (e) {
        warn(`the recording was not streamed: ${(e as Error).message}`);
      }
    },
  };
}
