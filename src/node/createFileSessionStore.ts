import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { defaultStateDir } from './stateDir.js';
import { escapeControls, jsonSyntaxError } from './jsonSyntaxError.js';
// The modules themselves, not the core's index: a hook process loads only what it runs.
import { formatIssues, issuesOf } from '../core/Issue.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import { SafetyInputError, SESSION_OPTION_KEYS } from '../safety/sessionInput.js';
import { createSafetySession, restoreSafetySession } from '../safety/SafetySession.js';
import type { SafetySession, SafetySessionOptions } from '../safety/SafetySessionTypes.js';

/*
 * Sessions kept in files, for processes that live for one event (a coding agent's hooks).
 * Each session is a folder of numbered revisions: `<dir>/<id>/<rev>.json`. A save writes the
 * new revision to a temporary file (fsynced), then links it to the next number: link fails
 * when that number exists, so of two processes that read revision n, exactly one saves n+1
 * and the other reads again and decides again (compare-and-swap on the revision, no lock to
 * go stale). A revision file is whole the moment it appears; a process killed mid-save leaves
 * only a temporary file, which readers ignore and sweeps remove.
 */

/** The file format of one saved revision. */
const SessionFileContent = z.strictObject({
  format: z.literal('assistant-safety/session-file'),
  version: z.literal(1),
  id: z.string(),
  rev: z.int().check(z.positive()),
  savedAt: z.number(),
  notes: z.record(z.string(), z.unknown()),
  snapshot: z.unknown(),
});

export { defaultStateDir };

/** A session file that cannot be read or trusted: the message names the file and what is wrong with it. */
export class SessionFileError extends Error {
  readonly code = 'SESSION_FILE' as const;
  constructor(
    message: string,
    readonly path: string,
  ) {
    // One line, whatever a path or a quoted piece of the file holds: a hook's refusal is read line by line.
    super(escapeControls(message));
    this.name = 'SessionFileError';
  }
}

/** Every attempt found a newer revision saved in between (`maxAttempts` or `timeoutMs` reached). */
export class FileSessionConflictError extends Error {
  readonly code = 'SESSION_CONFLICT' as const;
  constructor(
    readonly sessionId: string,
    readonly attempts: number,
  ) {
    super(
      `session ${JSON.stringify(sessionId)}: saved by another process during each of ${attempts} attempts; nothing was saved`,
    );
    this.name = 'FileSessionConflictError';
  }
}

/** Notes kept with a session (JSON values): what an integration must remember between processes. */
export type SessionNotes = Record<string, unknown>;

export interface FileSessionStoreOptions {
  /** The state folder. Default {@link defaultStateDir}. */
  dir?: string;
  /** Options for every session created or restored (`targets`, `profile`, `recorder`...). */
  session?: SafetySessionOptions;
  /** A session not saved for this long is expired: read as absent, removed by `sweep`. Default 7 days. */
  idleTtlMs?: number;
  /** Give up (reject) after this long. Default 5000. */
  timeoutMs?: number;
  /** Give up after this many conflicting attempts. Default 100. */
  maxAttempts?: number;
  /** Clock, epoch ms. Default `Date.now`. */
  now?: () => number;
}

/** One saved session as {@link FileSessionStore.get} returns it. */
export interface StoredFileSession {
  id: string;
  rev: number;
  savedAt: number;
  notes: SessionNotes;
  session: SafetySession;
}

/** Sessions in files, safe across processes. See {@link createFileSessionStore}. */
export interface FileSessionStore {
  /** The state folder. */
  readonly dir: string;
  /**
   * Loads the session (a new one if the id is unknown or expired), runs `fn` on it and its notes
   * synchronously, and saves both as the next revision only if nobody saved in between; on a
   * conflict it reads again and runs `fn` again. Resolves to `fn`'s value once saved.
   */
  withSession<T>(id: string, fn: (session: SafetySession, notes: SessionNotes) => T): Promise<T>;
  /** The session as saved (restored), or undefined. */
  get(id: string): Promise<StoredFileSession | undefined>;
  /** Removes the session. */
  delete(id: string): Promise<void>;
  /** Removes expired sessions and temporary files left by killed processes; resolves to the sessions removed. */
  sweep(): Promise<number>;
}

const DAY = 24 * 60 * 60 * 1000;
const REV_FILE = /^([0-9]+)\.json$/;
/**
 * The file in every session folder this store created: `sweep` and `delete` remove a folder only
 * when it holds one, so nothing else kept in the state folder is ever deleted.
 */
const MARKER = '.assistant-safety-session';

/**
 * Whether a file or folder of the store can be trusted: owned by this user and writable by
 * nobody else (another local user could otherwise plant a session that lets writes through).
 * Where there are no user ids (Windows), there is nothing to check.
 */
function untrusted(stats: Stats): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  if (stats.uid !== uid) return `it belongs to user id ${stats.uid}, not to this user (${uid})`;
  if ((stats.mode & 0o022) !== 0)
    return `it is writable by group or others (mode ${(stats.mode & 0o777).toString(8).padStart(3, '0')})`;
  return undefined;
}

/** What a path that should be a folder is instead, in words. */
function whatItIs(stats: Stats): string {
  if (stats.isFile()) return 'a file';
  if (stats.isSymbolicLink()) return 'a symbolic link (links are not followed)';
  return 'a device, a FIFO or a socket';
}

/**
 * Refuses the state folder (`what`: the folder of all sessions, `--state-dir`) or a session folder
 * in it when it is not a folder of this user's alone, naming which of the two it is, and what it
 * is instead when it is not a folder.
 */
function checkFolder(path: string, what: 'state folder' | 'session folder'): void {
  const stats = lstatSync(path);
  if (!stats.isDirectory())
    throw new SessionFileError(
      `the ${what} ${path} is ${whatItIs(stats)}, not a folder; nothing was decided. ${what === 'state folder' ? 'Give the hook another state folder (--state-dir), or remove it.' : 'Remove it to start the session again.'}`,
      path,
    );
  const why = untrusted(stats);
  if (why !== undefined)
    throw new SessionFileError(
      `the ${what} ${path} is not trusted: ${why}; nothing was decided. Remove it, or make it yours with mode 700.`,
      path,
    );
}

/**
 * Creates a folder (and its missing parents) readable by this user only, whatever the umask
 * (mkdir's mode is masked by it: each folder created is set to 0700 afterwards). Returns whether
 * `path` itself was created by this call.
 */
function makeFolder(path: string): boolean {
  if (existsSync(path)) return false;
  const first = mkdirSync(path, { recursive: true, mode: 0o700 });
  if (first === undefined) return false; // created by another process in between
  for (let p = path; ; p = dirname(p)) {
    chmodSync(p, 0o700);
    if (p === first || dirname(p) === p) break;
  }
  return true;
}

/** Reads a session file without following a link or waiting on a FIFO; refuses one this user does not own alone. */
function readSessionFile(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    const why = stats.isFile() ? untrusted(stats) : 'it is not a regular file';
    if (why !== undefined)
      throw new SessionFileError(
        `the session file ${path} is not trusted: ${why}; nothing was decided. Remove it to start the session again.`,
        path,
      );
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** A folder name for any session id: readable ids as they are, anything else hashed. */
function folderOf(id: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9_.-]{0,100}$/.test(id) && !id.includes('..')) return id;
  return `h-${createHash('sha256').update(id).digest('hex').slice(0, 40)}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const OPTION_KEYS = keysOf<FileSessionStoreOptions>({
  dir: true,
  session: true,
  idleTtlMs: true,
  timeoutMs: true,
  maxAttempts: true,
  now: true,
});

/**
 * Creates a session store on the file system: each call of a short-lived process (a hook)
 * loads the session, decides, and saves it as the next revision with a compare-and-swap, so
 * parallel processes never lose an update. A corrupt file is an error naming it, never a fresh
 * session.
 *
 * @example
 * const store = createFileSessionStore({ session: { targets: 'bind' } });
 * const blocked = await store.withSession('claude-session-1', (s) =>
 *   s.beginToolCall({ id: 'toolu_1', kind: 'read', tool: 'Read', targets: ['file:/src/app.ts'] }),
 * );
 */
export function createFileSessionStore(options: FileSessionStoreOptions = {}): FileSessionStore {
  // A misspelt `dir` would keep sessions where nobody looks for them.
  refuseUnknownOptions('createFileSessionStore', options, OPTION_KEYS);
  const dir = options.dir ?? defaultStateDir();
  const idleTtlMs = options.idleTtlMs ?? 7 * DAY;
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxAttempts = options.maxAttempts ?? 100;
  const now = options.now ?? Date.now;
  const sessionOptions = options.session ?? {};
  refuseUnknownOptions('createFileSessionStore', sessionOptions, SESSION_OPTION_KEYS, 'options.session');
  // What decides enforcement comes from the options, never from a file: a restore with these set
  // replaces the snapshot's own (a session file edited from enforce to shadow changes nothing).
  const configured: SafetySessionOptions = {
    ...sessionOptions,
    mode: sessionOptions.mode ?? 'enforce',
    targets: sessionOptions.targets ?? 'ignore',
    profile: sessionOptions.profile ?? 'interactive',
  };

  const checkId = (method: string, id: unknown): string => {
    if (typeof id !== 'string' || id.length === 0)
      throw new TypeError(`${method}: id: expected a non-empty string, got ${typeof id}`);
    return id;
  };

  interface Loaded {
    rev: number;
    savedAt: number;
    notes: SessionNotes;
    snapshot: unknown;
  }

  /** The latest revision of a session, or undefined. Retries when a revision vanishes under it (a sweep of old ones). */
  const load = (id: string): Loaded | undefined => {
    const folder = join(dir, folderOf(id));
    for (let tries = 0; ; tries++) {
      let names: string[];
      let at: 'state folder' | 'session folder' = 'state folder';
      try {
        checkFolder(dir, at);
        at = 'session folder';
        checkFolder(folder, at);
        names = readdirSync(folder);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return undefined;
        if (e instanceof SessionFileError) throw e;
        const path = at === 'state folder' ? dir : folder;
        if (code === 'ENOTDIR')
          throw new SessionFileError(
            `the ${at} ${path} cannot be a folder: a part of its path is a file; nothing was decided.${at === 'state folder' ? ' Give the hook another state folder (--state-dir).' : ''}`,
            path,
          );
        throw new SessionFileError(`cannot read the ${at} ${path}: ${(e as Error).message}`, path);
      }
      let rev = 0;
      for (const name of names) {
        const m = REV_FILE.exec(name);
        if (m) rev = Math.max(rev, Number(m[1]));
      }
      if (rev === 0) return undefined;
      const path = join(folder, `${rev}.json`);
      let text: string;
      try {
        text = readSessionFile(path);
      } catch (e) {
        if (e instanceof SessionFileError) throw e;
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' && tries < 10) continue;
        throw new SessionFileError(`cannot read the session file ${path}: ${(e as Error).message}`, path);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (e) {
        throw new SessionFileError(
          `the session file ${path} is corrupt (${jsonSyntaxError(text, e)}); nothing was decided. Remove the file to start the session again.`,
          path,
        );
      }
      const parsed = SessionFileContent.safeParse(json);
      if (!parsed.success)
        throw new SessionFileError(
          `the session file ${path} is corrupt: ${formatIssues(issuesOf(parsed.error))}; nothing was decided. Remove the file to start the session again.`,
          path,
        );
      if (parsed.data.rev !== rev || parsed.data.id !== id)
        throw new SessionFileError(
          `the session file ${path} is corrupt: it says revision ${parsed.data.rev} of session ${JSON.stringify(parsed.data.id)}; nothing was decided.`,
          path,
        );
      return {
        rev,
        savedAt: parsed.data.savedAt,
        notes: parsed.data.notes,
        snapshot: parsed.data.snapshot,
      };
    }
  };

  const restore = (id: string, loaded: Loaded, path: string): SafetySession => {
    try {
      return restoreSafetySession(loaded.snapshot, { ...configured, id });
    } catch (e) {
      // Options this store was given (or a polluted prototype) are not the file's fault.
      if (e instanceof SafetyInputError) throw e;
      throw new SessionFileError(
        `the session file ${path} is corrupt: ${(e as Error).message}; nothing was decided. Remove the file to start the session again.`,
        path,
      );
    }
  };

  /** Writes revision `rev` unless it exists: true when this call saved it. */
  const save = (id: string, rev: number, content: string): boolean => {
    const folder = join(dir, folderOf(id));
    makeFolder(dir);
    checkFolder(dir, 'state folder');
    if (makeFolder(folder)) writeFileSync(join(folder, MARKER), '', { mode: 0o600 });
    checkFolder(folder, 'session folder');
    const temp = join(folder, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temp, join(folder, `${rev}.json`));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    } finally {
      rmSync(temp, { force: true });
    }
    const names = readdirSync(folder);
    const revs = names
      .map((n) => REV_FILE.exec(n))
      .filter((m) => m !== null)
      .map((m) => Number(m[1]));
    if (revs.some((r) => r > rev)) {
      // This number was free only because old revisions had been removed: the session has moved
      // on past it (nobody builds on a revision below the latest), so this save is stale. Undo it.
      rmSync(join(folder, `${rev}.json`), { force: true });
      return false;
    }
    // Older revisions are no longer needed (the one before is kept for readers that just listed it).
    for (const r of revs) if (r < rev - 1) rmSync(join(folder, `${r}.json`), { force: true });
    return true;
  };

  const expired = (loaded: Loaded | undefined) => loaded !== undefined && now() - loaded.savedAt > idleTtlMs;

  return {
    dir,

    async withSession<T>(id: string, fn: (session: SafetySession, notes: SessionNotes) => T): Promise<T> {
      checkId('withSession', id);
      if (typeof fn !== 'function') throw new TypeError('withSession: fn: expected a function');
      const deadline = performance.now() + timeoutMs;
      for (let attempt = 1; ; attempt++) {
        const loaded = load(id);
        const fresh = loaded === undefined || expired(loaded);
        const path = join(dir, folderOf(id), `${loaded?.rev ?? 0}.json`);
        const session = fresh ? createSafetySession({ ...configured, id }) : restore(id, loaded, path);
        const notes: SessionNotes = fresh ? {} : structuredClone(loaded.notes);
        const value = fn(session, notes);
        if (typeof (value as { then?: unknown } | null)?.then === 'function') {
          // A native promise is running already: its rejection is this error's business now (left alone it
          // would crash the process). Any other thenable may be lazy (a query builder runs on then()): never call it.
          if (value instanceof Promise) value.catch(() => undefined);
          throw new TypeError(
            `withSession(${JSON.stringify(id)}, fn): fn returned a promise; it must run synchronously (do the tool call outside, then a second withSession to end it). Nothing was saved.`,
          );
        }
        const rev = (loaded?.rev ?? 0) + 1;
        const content = JSON.stringify({
          format: 'assistant-safety/session-file',
          version: 1,
          id,
          rev,
          savedAt: now(),
          notes,
          snapshot: session.persist(),
        });
        if (save(id, rev, content)) return value;
        if (attempt >= maxAttempts || performance.now() > deadline) throw new FileSessionConflictError(id, attempt);
        await sleep(Math.random() * Math.min(20, 2 * attempt));
      }
    },

    async get(id) {
      checkId('get', id);
      const loaded = load(id);
      if (loaded === undefined || expired(loaded)) return undefined;
      const path = join(dir, folderOf(id), `${loaded.rev}.json`);
      return { id, rev: loaded.rev, savedAt: loaded.savedAt, notes: loaded.notes, session: restore(id, loaded, path) };
    },

    async delete(id) {
      checkId('delete', id);
      const folder = join(dir, folderOf(id));
      if (existsSync(join(folder, MARKER))) rmSync(folder, { recursive: true, force: true });
    },

    async sweep() {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return 0;
      }
      let removed = 0;
      const cutoff = now() - idleTtlMs;
      for (const name of names) {
        const folder = join(dir, name);
        let files: string[];
        try {
          files = readdirSync(folder);
        } catch {
          continue;
        }
        // Only the folders this store created: anything else in the state folder is left alone.
        if (!files.includes(MARKER)) continue;
        let latest = 0;
        for (const file of files) {
          if (file === MARKER) continue;
          try {
            const { mtimeMs } = statSync(join(folder, file));
            // Temporary files of killed processes: gone after a minute.
            if (file.startsWith('.tmp-') && mtimeMs < now() - 60_000) unlinkSync(join(folder, file));
            else latest = Math.max(latest, mtimeMs);
          } catch {
            // removed meanwhile
          }
        }
        if (latest < cutoff) {
          rmSync(folder, { recursive: true, force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
