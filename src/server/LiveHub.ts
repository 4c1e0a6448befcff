import type { WebSocket } from 'ws';
import type { RecordingEntry } from '../RecordingEntry.js';
import { ClientMessage, MAX_ENTRIES_PER_MESSAGE, type LiveSessionInfo, type ServerMessage } from '../live/protocol.js';

/*
 * The live hub: agents stream entries in, viewers follow sessions. Memory is
 * bounded (sessions, entries per session, agents remembered), messages are
 * validated with the protocol's zod schemas, and an agent that reconnects
 * resends what was not acknowledged without creating duplicates.
 */

export interface LiveHubLimits {
  /** Sessions kept; the oldest ended one goes first. Default 200. */
  maxSessions: number;
  /** Entries kept per session; the oldest are dropped beyond it. Default 100,000. */
  maxEntriesPerSession: number;
  /** Agents remembered for de-duplication. Default 1,000. */
  maxAgents: number;
  /** Entries kept across all sessions; the least recently active sessions lose theirs first. Default 1,000,000. */
  maxTotalEntries: number;
}

export const DEFAULT_HUB_LIMITS: LiveHubLimits = {
  maxSessions: 200,
  maxEntriesPerSession: 100_000,
  maxAgents: 1000,
  maxTotalEntries: 1_000_000,
};

interface HubSession {
  id: string;
  agent?: string;
  entries: RecordingEntry[];
  truncated: boolean;
  sockets: Set<WebSocket>;
  touched: number;
}

type Peer =
  { role: 'unknown' } | { role: 'agent'; agentId: string; name?: string } | { role: 'viewer'; follow?: string };

export class LiveHub {
  private readonly sessions = new Map<string, HubSession>();
  /** Per agent id: the index of the next entry it has not delivered. */
  private readonly agents = new Map<string, number>();
  private readonly peers = new Map<WebSocket, Peer>();
  private listTimer: ReturnType<typeof setTimeout> | undefined;
  private clock = 0;
  private total = 0;

  constructor(private readonly limits: LiveHubLimits = DEFAULT_HUB_LIMITS) {}

  /** Takes over a socket that passed the token check. */
  accept(ws: WebSocket): void {
    this.peers.set(ws, { role: 'unknown' });
    ws.on('message', (data, isBinary) => this.onMessage(ws, isBinary ? '' : String(data)));
    ws.on('close', () => this.onClose(ws));
    ws.on('error', () => ws.terminate());
  }

  /** The sessions as the app lists them, oldest first. */
  list(): LiveSessionInfo[] {
    return [...this.sessions.values()].map((s) => {
      const last = s.entries.at(-1);
      return {
        id: s.id,
        ...(s.agent !== undefined && { agent: s.agent }),
        events: s.entries.length,
        state: last?.after ?? 'RESOLVING',
        lastAt: last?.at ?? 0,
        connected: s.sockets.size > 0,
        truncated: s.truncated,
      };
    });
  }

  /** A session's entries (for tests and the HTTP API). */
  entriesOf(id: string): readonly RecordingEntry[] | undefined {
    return this.sessions.get(id)?.entries;
  }

  close(): void {
    clearTimeout(this.listTimer);
    for (const ws of this.peers.keys()) ws.terminate();
    this.peers.clear();
  }

  private send(ws: WebSocket, message: ServerMessage): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  }

  private onMessage(ws: WebSocket, text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.send(ws, { type: 'error', message: 'messages are JSON text' });
    }
    const parsed = ClientMessage.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.send(ws, {
        type: 'error',
        message: `unexpected message: ${issue ? `${issue.path.join('.') || '(message)'}: ${issue.message}` : 'invalid'}`,
      });
    }
    const message = parsed.data;
    const peer = this.peers.get(ws);
    if (!peer) return;
    if (message.type === 'hello') {
      if (peer.role !== 'unknown') return this.send(ws, { type: 'error', message: 'hello was already said' });
      if (message.role === 'viewer') {
        this.peers.set(ws, { role: 'viewer' });
        this.send(ws, { type: 'sessions', sessions: this.list() });
      } else {
        this.peers.set(ws, {
          role: 'agent',
          agentId: message.agentId,
          ...(message.name !== undefined && { name: message.name }),
        });
        this.rememberAgent(message.agentId);
        this.send(ws, { type: 'ack', next: this.agents.get(message.agentId)! });
      }
      return;
    }
    if (message.type === 'entries') {
      if (peer.role !== 'agent') return this.send(ws, { type: 'error', message: 'only an agent sends entries' });
      const next = this.agents.get(peer.agentId) ?? 0;
      const fresh = message.entries.slice(Math.max(0, next - message.from));
      const bySession = new Map<string, RecordingEntry[]>();
      for (const entry of fresh) {
        this.add(ws, peer.name, entry);
        const list = bySession.get(entry.session);
        if (list) list.push(entry);
        else bySession.set(entry.session, [entry]);
      }
      for (const [session, entries] of bySession) this.broadcast(session, entries);
      const after = Math.max(next, message.from + message.entries.length);
      this.agents.set(peer.agentId, after);
      this.send(ws, { type: 'ack', next: after });
      return;
    }
    // follow
    if (peer.role !== 'viewer') return this.send(ws, { type: 'error', message: 'only a viewer follows a session' });
    peer.follow = message.session;
    const entries = this.sessions.get(message.session)?.entries ?? [];
    let first = true;
    for (let i = 0; i < entries.length || first; i += MAX_ENTRIES_PER_MESSAGE) {
      this.send(ws, {
        type: 'session-entries',
        session: message.session,
        reset: first,
        entries: entries.slice(i, i + MAX_ENTRIES_PER_MESSAGE),
      });
      first = false;
    }
  }

  private rememberAgent(agentId: string): void {
    if (this.agents.has(agentId)) {
      // Re-insert: the map's order is the eviction order.
      const next = this.agents.get(agentId)!;
      this.agents.delete(agentId);
      this.agents.set(agentId, next);
      return;
    }
    this.agents.set(agentId, 0);
    while (this.agents.size > this.limits.maxAgents) this.agents.delete(this.agents.keys().next().value!);
  }

  private add(ws: WebSocket, agent: string | undefined, entry: RecordingEntry): void {
    let session = this.sessions.get(entry.session);
    if (!session) {
      session = {
        id: entry.session,
        ...(agent !== undefined && { agent }),
        entries: [],
        truncated: false,
        sockets: new Set(),
        touched: 0,
      };
      this.sessions.set(entry.session, session);
      this.evictSessions();
    }
    session.sockets.add(ws);
    session.touched = ++this.clock;
    session.entries.push(entry);
    this.total += 1;
    if (session.entries.length > this.limits.maxEntriesPerSession) {
      // Drop a tenth at once: one splice per many entries, not one per entry.
      this.truncate(session, Math.max(1, Math.floor(this.limits.maxEntriesPerSession / 10)));
    }
    while (this.total > this.limits.maxTotalEntries) {
      const oldest = [...this.sessions.values()]
        .filter((s) => s.entries.length > 0)
        .sort((a, b) => (a.sockets.size > 0 ? 1 : 0) - (b.sockets.size > 0 ? 1 : 0) || a.touched - b.touched)[0]!;
      this.truncate(
        oldest,
        Math.max(1, Math.ceil(oldest.entries.length / 10), this.total - this.limits.maxTotalEntries),
      );
    }
    this.scheduleList();
  }

  private broadcast(session: string, entries: RecordingEntry[]): void {
    for (const [viewer, peer] of this.peers) {
      if (peer.role === 'viewer' && peer.follow === session) {
        this.send(viewer, { type: 'session-entries', session, reset: false, entries });
      }
    }
  }

  private truncate(session: HubSession, count: number): void {
    const dropped = session.entries.splice(0, count).length;
    this.total -= dropped;
    session.truncated = true;
  }

  private evictSessions(): void {
    while (this.sessions.size > this.limits.maxSessions) {
      const all = [...this.sessions.values()];
      const victim =
        all.filter((s) => s.sockets.size === 0).sort((a, b) => a.touched - b.touched)[0] ??
        all.sort((a, b) => a.touched - b.touched)[0]!;
      this.sessions.delete(victim.id);
      this.total -= victim.entries.length;
    }
  }

  private onClose(ws: WebSocket): void {
    this.peers.delete(ws);
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
