import type { WebSocket } from 'ws';
import type { RecordingEntry } from '../safety/RecordingEntry.js';
import { ClientMessage, MAX_ENTRIES_PER_MESSAGE, type LiveSessionInfo, type ServerMessage } from '../live/protocol.js';

/*
 * The live hub: agents stream entries in, viewers follow sessions. Memory is
 * bounded in bytes (each session, all sessions), in sessions, agents and
 * connections; a viewer that stops reading is disconnected rather than
 * buffered for; messages are validated with the protocol's zod schemas; an
 * agent id belongs to one connection at a time, and an agent that reconnects
 * resends what was not acknowledged without creating duplicates.
 *
 * Entries are kept as their JSON text (what the agent sent, re-serialised
 * once): a session's bytes are its entries' UTF-8 sizes, which bound the
 * memory the strings take, and a viewer's messages are built by joining them.
 */

export interface LiveHubLimits {
  /** Sessions kept; at the limit the session idle the longest goes (never the newcomer). Default 200. */
  maxSessions: number;
  /** Bytes of entries kept per session; beyond it the oldest entries are dropped (`truncated`). Default 8 MiB. */
  maxSessionBytes: number;
  /** Bytes of entries kept across sessions; beyond it whole sessions go, idle the longest first. Default 64 MiB. */
  maxTotalBytes: number;
  /** Agents remembered for de-duplication, least recently seen forgotten first. Default 1,000. */
  maxAgents: number;
  /** Open sockets (agents and viewers); one more is closed with 1013. Default 128. */
  maxConnections: number;
  /**
   * Bytes a viewer may leave unread beyond one session's backlog (`maxSessionBytes`); a viewer
   * further behind is disconnected (it reconnects and follows again). Default 4 MiB.
   */
  maxViewerBufferBytes: number;
}

export const DEFAULT_HUB_LIMITS: LiveHubLimits = {
  maxSessions: 200,
  maxSessionBytes: 8 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxAgents: 1000,
  maxConnections: 128,
  maxViewerBufferBytes: 4 * 1024 * 1024,
};

/** A backlog message carries at most this many bytes of entries. */
const MAX_BACKLOG_MESSAGE_BYTES = 1024 * 1024;

/** What the hub holds now, and what it has dropped: for tests, the soak and an operator. */
export interface LiveHubStats {
  sessions: number;
  /** Bytes of entries held (UTF-8 JSON), across sessions. */
  bytes: number;
  agents: number;
  viewers: number;
  connections: number;
  /** Sessions forgotten at the session or byte limit. */
  evictedSessions: number;
  /** Entries dropped from the front of a session at its byte limit, or with an evicted session. */
  droppedEntries: number;
  /** Viewers disconnected for falling too far behind. */
  slowViewersClosed: number;
}

interface HubSession {
  id: string;
  /** The agent id that started it: only that agent may add to it. */
  owner: string;
  agent?: string;
  /** Entries as JSON text, oldest first, from `head` on (the ones before are dropped). */
  entries: string[];
  sizes: number[];
  head: number;
  bytes: number;
  events: number;
  lastAfter: RecordingEntry['after'];
  lastAt: number;
  truncated: boolean;
  sockets: Set<WebSocket>;
  /** The session's own clock at its first entry (`at`): what orders the list. */
  startedAt: number;
  /** Arrival order at the hub: breaks ties between sessions that started at the same time. */
  created: number;
  /** Date.now() of its last entry. */
  active: number;
}

/** A session the hub forgot at a limit, for an operator's log or a test. */
export interface EvictedSession {
  id: string;
  /** Date.now() of its last entry. */
  lastActive: number;
  /** The least recent last activity among the sessions kept (Infinity when none): never before `lastActive`. */
  keptLeastRecent: number;
  bytes: number;
}

interface AgentRecord {
  /** The index of the next entry it has not delivered. */
  next: number;
  /** No entries received since the hub (re)learned this id: the first message sets where it starts. */
  fresh: boolean;
  socket?: WebSocket;
}

type Peer =
  | { role: 'unknown' }
  | { role: 'agent'; agentId: string; name?: string }
  | { role: 'viewer'; follow?: string }
  | { role: 'closed' };

/** UTF-8 size of a JSON text; ASCII (the usual entry) is its length, without encoding it. */
const utf8Length = (text: string) =>
  /^[\x00-\x7f]*$/.test(text) ? text.length : new TextEncoder().encode(text).length;

export class LiveHub {
  /** Insertion order is recency: the first session is the one idle the longest. */
  private readonly sessions = new Map<string, HubSession>();
  /** Insertion order is recency: the first agent is the one seen the longest ago. */
  private readonly agents = new Map<string, AgentRecord>();
  private readonly peers = new Map<WebSocket, Peer>();
  private readonly limits: LiveHubLimits;
  private listTimer: ReturnType<typeof setTimeout> | undefined;
  private created = 0;
  private bytes = 0;
  private evictedSessions = 0;
  private droppedEntries = 0;
  private slowViewersClosed = 0;
  /** Told of every session evicted at the session or byte limit (oldest-idle first). */
  onEvict?: (session: EvictedSession) => void;

  constructor(limits: Partial<LiveHubLimits> = {}) {
    const l = { ...DEFAULT_HUB_LIMITS, ...limits };
    this.limits = { ...l, maxSessionBytes: Math.min(l.maxSessionBytes, l.maxTotalBytes) };
  }

  /** Takes over a socket that passed the token check. */
  accept(ws: WebSocket): void {
    if (this.peers.size >= this.limits.maxConnections) {
      ws.close(1013, 'too many connections');
      return;
    }
    this.peers.set(ws, { role: 'unknown' });
    ws.on('message', (data, isBinary) => this.onMessage(ws, isBinary ? '' : String(data)));
    ws.on('close', () => this.onClose(ws));
    ws.on('error', () => {
      // A protocol error (a message over maxPayload: 1009) has already sent its close frame and
      // will end the connection cleanly; cutting it now would reset it and lose that frame (1006).
      if (ws.readyState === ws.CLOSING) setTimeout(() => ws.terminate(), 5000).unref();
      else ws.terminate();
    });
  }

  /**
   * The sessions as the app lists them, oldest first: by when each session started by its own
   * clock (its first entry's `at`), not by when its entries happened to reach the hub, which
   * varies when several agents (or one agent's sockets) connect at once.
   */
  list(): LiveSessionInfo[] {
    return [...this.sessions.values()]
      .sort((a, b) => a.startedAt - b.startedAt || a.created - b.created)
      .map((s) => ({
        id: s.id,
        ...(s.agent !== undefined && { agent: s.agent }),
        events: s.events,
        state: s.lastAfter,
        lastAt: s.lastAt,
        connected: s.sockets.size > 0,
        truncated: s.truncated,
      }));
  }

  /** A session's entries held now (for tests and the HTTP API). */
  entriesOf(id: string): readonly RecordingEntry[] | undefined {
    const s = this.sessions.get(id);
    return s && s.entries.slice(s.head).map((text) => JSON.parse(text) as RecordingEntry);
  }

  /** Bytes of entries held for one session. */
  bytesOf(id: string): number {
    return this.sessions.get(id)?.bytes ?? 0;
  }

  stats(): LiveHubStats {
    let viewers = 0;
    for (const p of this.peers.values()) if (p.role === 'viewer') viewers++;
    return {
      sessions: this.sessions.size,
      bytes: this.bytes,
      agents: this.agents.size,
      viewers,
      connections: this.peers.size,
      evictedSessions: this.evictedSessions,
      droppedEntries: this.droppedEntries,
      slowViewersClosed: this.slowViewersClosed,
    };
  }

  close(): void {
    clearTimeout(this.listTimer);
    for (const ws of this.peers.keys()) ws.terminate();
    this.peers.clear();
  }

  private send(ws: WebSocket, message: ServerMessage | string): void {
    if (ws.readyState === ws.OPEN) ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  private error(ws: WebSocket, message: string): void {
    this.send(ws, { type: 'error', message });
  }

  private onMessage(ws: WebSocket, text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.error(ws, 'messages are JSON text');
    }
    const parsed = ClientMessage.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.error(
        ws,
        `unexpected message: ${issue ? `${issue.path.join('.') || '(message)'}: ${issue.message}` : 'invalid'}`,
      );
    }
    const message = parsed.data;
    const peer = this.peers.get(ws);
    if (!peer || peer.role === 'closed') return;
    if (message.type === 'hello') {
      if (peer.role !== 'unknown') return this.error(ws, 'hello was already said');
      if (message.role === 'viewer') {
        this.peers.set(ws, { role: 'viewer' });
        this.send(ws, { type: 'sessions', sessions: this.list() });
        return;
      }
      const known = this.agents.get(message.agentId);
      if (known?.socket && known.socket !== ws && known.socket.readyState === known.socket.OPEN) {
        // An agent id is one connection's: a second socket saying it is refused, the first keeps it.
        this.error(ws, `agentId ${JSON.stringify(message.agentId)} is connected on another socket`);
        this.peers.set(ws, { role: 'closed' });
        ws.close(1008, 'agentId in use');
        return;
      }
      this.peers.set(ws, {
        role: 'agent',
        agentId: message.agentId,
        ...(message.name !== undefined && { name: message.name }),
      });
      const record = this.rememberAgent(message.agentId);
      record.socket = ws;
      this.send(ws, { type: 'ack', next: record.next });
      return;
    }
    if (message.type === 'entries') {
      if (peer.role !== 'agent') return this.error(ws, 'only an agent sends entries');
      const record = this.agents.get(peer.agentId) ?? this.rememberAgent(peer.agentId);
      record.socket = ws;
      if (record.fresh) {
        // The hub had not heard from this id (new, or forgotten at maxAgents): it starts where the agent is.
        record.next = Math.max(record.next, message.from);
        record.fresh = false;
      }
      if (message.from > record.next) {
        return this.error(
          ws,
          `entries from ${message.from} leave a gap: the next entry expected is ${record.next}; nothing was taken`,
        );
      }
      const fresh = message.entries.slice(record.next - message.from);
      for (const entry of fresh) {
        const owner = this.sessions.get(entry.session)?.owner;
        if (owner !== undefined && owner !== peer.agentId) {
          return this.error(ws, `session ${JSON.stringify(entry.session)} belongs to another agent; nothing was taken`);
        }
      }
      const bySession = new Map<string, string[]>();
      for (const entry of fresh) {
        const text = this.add(ws, peer.agentId, peer.name, entry);
        const list = bySession.get(entry.session);
        if (list) list.push(text);
        else bySession.set(entry.session, [text]);
      }
      for (const [session, texts] of bySession) this.broadcast(session, texts);
      record.next = Math.max(record.next, message.from + message.entries.length);
      this.send(ws, { type: 'ack', next: record.next });
      return;
    }
    // follow
    if (peer.role !== 'viewer') return this.error(ws, 'only a viewer follows a session');
    peer.follow = message.session;
    const s = this.sessions.get(message.session);
    const texts = s ? s.entries.slice(s.head) : [];
    const sizes = s ? s.sizes.slice(s.head) : [];
    let i = 0;
    let first = true;
    while (i < texts.length || first) {
      let end = i;
      let bytes = 0;
      while (
        end < texts.length &&
        end - i < MAX_ENTRIES_PER_MESSAGE &&
        (end === i || bytes + sizes[end]! <= MAX_BACKLOG_MESSAGE_BYTES)
      ) {
        bytes += sizes[end]!;
        end++;
      }
      this.send(ws, entriesMessage(message.session, first, texts.slice(i, end)));
      i = end;
      first = false;
    }
  }

  private rememberAgent(agentId: string): AgentRecord {
    const known = this.agents.get(agentId);
    if (known) {
      // Re-insert: the map's order is the eviction order.
      this.agents.delete(agentId);
      this.agents.set(agentId, known);
      return known;
    }
    const record: AgentRecord = { next: 0, fresh: true };
    this.agents.set(agentId, record);
    while (this.agents.size > this.limits.maxAgents) this.agents.delete(this.agents.keys().next().value!);
    return record;
  }

  /** Adds one entry; returns its JSON text. */
  private add(ws: WebSocket, owner: string, agent: string | undefined, entry: RecordingEntry): string {
    const text = JSON.stringify(entry);
    const size = utf8Length(text);
    let session = this.sessions.get(entry.session);
    if (session) {
      // Most recently active goes last.
      this.sessions.delete(entry.session);
    } else {
      // Make room first, among the sessions already there: the newcomer is never the victim.
      while (this.sessions.size >= this.limits.maxSessions) this.evictIdlest();
      session = {
        id: entry.session,
        owner,
        ...(agent !== undefined && { agent }),
        entries: [],
        sizes: [],
        head: 0,
        bytes: 0,
        events: 0,
        lastAfter: entry.after,
        lastAt: entry.at,
        truncated: false,
        sockets: new Set(),
        startedAt: entry.at,
        created: ++this.created,
        active: 0,
      };
    }
    this.sessions.set(entry.session, session);
    session.sockets.add(ws);
    session.entries.push(text);
    session.sizes.push(size);
    session.bytes += size;
    session.events += 1;
    session.lastAfter = entry.after;
    session.lastAt = entry.at;
    session.active = Date.now();
    this.bytes += size;
    if (session.bytes > this.limits.maxSessionBytes) this.truncate(session);
    // Then the total: whole sessions, idle the longest first; this one is the most recent, so it goes last.
    while (this.bytes > this.limits.maxTotalBytes && this.sessions.size > 1) this.evictIdlest();
    if (this.bytes > this.limits.maxTotalBytes) this.truncate(session, this.limits.maxTotalBytes);
    this.scheduleList();
    return text;
  }

  /** Drops the oldest entries of a session until it holds at most 90% of `limit` (one compaction per many entries). */
  private truncate(session: HubSession, limit = this.limits.maxSessionBytes): void {
    const target = Math.floor(limit * 0.9);
    while (session.bytes > target && session.head < session.entries.length) {
      const size = session.sizes[session.head]!;
      session.bytes -= size;
      this.bytes -= size;
      session.head++;
      this.droppedEntries++;
    }
    session.truncated = true;
    if (session.head > 1024 && session.head * 2 > session.entries.length) {
      session.entries = session.entries.slice(session.head);
      session.sizes = session.sizes.slice(session.head);
      session.head = 0;
    }
  }

  private evictIdlest(): void {
    const victim = this.sessions.values().next().value;
    if (!victim) return;
    this.sessions.delete(victim.id);
    this.bytes -= victim.bytes;
    this.droppedEntries += victim.entries.length - victim.head;
    this.evictedSessions++;
    if (this.onEvict) {
      let keptLeastRecent = Infinity;
      for (const s of this.sessions.values()) keptLeastRecent = Math.min(keptLeastRecent, s.active);
      this.onEvict({ id: victim.id, lastActive: victim.active, keptLeastRecent, bytes: victim.bytes });
    }
  }

  private broadcast(session: string, texts: string[]): void {
    let message: string | undefined;
    for (const [viewer, peer] of this.peers) {
      if (peer.role !== 'viewer' || peer.follow !== session) continue;
      message ??= entriesMessage(session, false, texts);
      this.send(viewer, message);
      if (viewer.bufferedAmount > this.limits.maxViewerBufferBytes + this.limits.maxSessionBytes) {
        // A follower that stopped reading: cut it rather than hold its backlog (it can follow again).
        this.slowViewersClosed++;
        this.peers.set(viewer, { role: 'closed' });
        viewer.terminate();
      }
    }
  }

  private onClose(ws: WebSocket): void {
    const peer = this.peers.get(ws);
    this.peers.delete(ws);
    if (peer?.role === 'agent') {
      const record = this.agents.get(peer.agentId);
      if (record?.socket === ws) delete record.socket;
    }
    let changed = false;
    for (const s of this.sessions.values()) if (s.sockets.delete(ws)) changed = true;
    if (changed) this.scheduleList();
  }

  /** Tells viewers about the sessions, at most five times a second. */
  private scheduleList(): void {
    if (this.listTimer) return;
    this.listTimer = setTimeout(() => {
      this.listTimer = undefined;
      const message: ServerMessage = { type: 'sessions', sessions: this.list() };
      for (const [ws, peer] of this.peers) if (peer.role === 'viewer') this.send(ws, message);
    }, 200);
  }
}

/** A `session-entries` message from entries already in JSON text. */
function entriesMessage(session: string, reset: boolean, texts: string[]): string {
  return `{"type":"session-entries","session":${JSON.stringify(session)},"reset":${reset},"entries":[${texts.join(',')}]}`;
}
