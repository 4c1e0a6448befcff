import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { RecordingEntry, SessionRecorder } from '../safety/RecordingEntry.js';
import { keysOf, refuseUnknownOptions } from '../core/knownKeys.js';
import {
  ProtocolError,
  Ack,
  BATCH_BYTES,
  LIVE_PATH,
  MAX_ENTRIES_PER_MESSAGE,
  liveUrlProblem,
  MAX_MESSAGE_BYTES,
  TOKEN_HEADER,
} from '../live/protocol.js';

export interface LiveRecorderOptions {
  /** The URL `assistant-safety serve` printed (`http://127.0.0.1:N/?token=...`), or a `ws://` URL. */
  url: string;
  /** The token, when the URL does not carry it. */
  token?: string;
  /** Receives every entry first, whatever happens to the server (e.g. a file recorder): the local recording. */
  fallback?: SessionRecorder;
  /** A name shown next to the sessions in the app. */
  name?: string;
  /** Entries kept for the server while it is away; the oldest are dropped beyond it. Default 10,000. */
  maxBuffer?: number;
  /** First reconnect delay, doubled up to `maxRetryMs`. Default 250 ms. */
  retryMs?: number;
  maxRetryMs?: number;
  /**
   * Told once each time the connection is lost or refused. Default: silent, as the app may simply be
   * closed, except that a refused token (HTTP 401 or 403, which no retry heals) is said once on the console.
   */
  onError?: (error: Error) => void;
  /**
   * The agent id the hub knows this recorder by. Default a random UUID. A process that carries
   * on an earlier process's sessions (a hook run per event) passes the same id and `from`.
   */
  agentId?: string;
  /** The hub's index of this recorder's first entry: how many entries earlier processes with the same `agentId` sent. Default 0. */
  from?: number;
}

const OPTION_KEYS = keysOf<LiveRecorderOptions>({
  url: true,
  token: true,
  fallback: true,
  name: true,
  maxBuffer: true,
  retryMs: true,
  maxRetryMs: true,
  onError: true,
  agentId: true,
  from: true,
});

/** A recorder that streams to the visualiser's live hub. */
export interface LiveRecorder extends SessionRecorder {
  /** The socket is open. */
  readonly connected: boolean;
  /** Entries not yet acknowledged by the server. */
  readonly pending: number;
  /** Entries dropped from the buffer while the server was away, or too big for a message (the fallback has them). */
  readonly dropped: number;
  /** Waits until the server has every entry (or `timeoutMs` passes), then closes. */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

function socketUrl(url: unknown, token: string | undefined): { url: string; token: string } {
  const problem = liveUrlProblem(url, token, 'options.token');
  if (problem !== undefined) throw new TypeError(`createLiveRecorder: options.url: ${problem}`);
  const u = new URL(url as string);
  const t = token ?? u.searchParams.get('token') ?? '';
  u.protocol = u.protocol === 'https:' || u.protocol === 'wss:' ? 'wss:' : 'ws:';
  u.pathname = LIVE_PATH;
  u.search = '';
  return { url: u.toString(), token: t };
}

/**
 * Streams a session's recording to the visualiser (`assistant-safety serve`)
 * while it runs. Recording never fails or waits because of the server: each
 * entry goes to `fallback` first (the local recording, complete whatever
 * happens), then into a bounded buffer that is sent when connected, resent
 * after a reconnect until acknowledged, and never sent twice.
 *
 * @example
 * const live = createLiveRecorder({
 *   url: 'http://127.0.0.1:4400/?token=...',
 *   fallback: createFileRecorder('recordings/run.jsonl'),
 * });
 * const session = createSafetySession({ recorder: live });
 * // ... the agent works; the app shows the session as it goes
 * await live.close();
 */
export function createLiveRecorder(options: LiveRecorderOptions): LiveRecorder {
  refuseUnknownOptions('createLiveRecorder', options, OPTION_KEYS);
  const target = socketUrl(options.url, options.token);
  const maxBuffer = Math.max(1, options.maxBuffer ?? 10_000);
  const retryMs = options.retryMs ?? 250;
  const maxRetryMs = options.maxRetryMs ?? 5000;
  const agentId = options.agentId ?? randomUUID();

  /** Entries not acknowledged, as JSON text; buffer[0] has index `base`. */
  const buffer: string[] = [];
  let base = options.from ?? 0;
  /** Index of the next entry to send on the current socket. */
  let sent = base;
  let dropped = 0;
  let ws: WebSocket | undefined;
  let open = false;
  let closing = false;
  let delay = retryMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reported = false;
  let warnedToken = false;
  const waiters = new Set<() => void>();

  const report = (error: Error) => {
    if (reported) return;
    reported = true;
    options.onError?.(error);
  };

  const flush = () => {
    if (!ws || !open) return;
    while (sent < base + buffer.length) {
      const from = Math.max(sent, base);
      // At most MAX_ENTRIES_PER_MESSAGE entries and BATCH_BYTES of them: every message fits the hub's limit.
      const texts: string[] = [];
      let bytes = 0;
      for (let i = from - base; i < buffer.length && texts.length < MAX_ENTRIES_PER_MESSAGE; i++) {
        const text = buffer[i]!;
        if (texts.length > 0 && bytes + text.length > BATCH_BYTES) break;
        texts.push(text);
        bytes += text.length;
      }
      ws.send(`{"type":"entries","from":${from},"entries":[${texts.join(',')}]}`);
      sent = from + texts.length;
    }
  };

  // Entries recorded in one burst (a batch of tool calls) go out as one message.
  let flushQueued = false;
  const queueFlush = () => {
    if (flushQueued) return;
    flushQueued = true;
    queueMicrotask(() => {
      flushQueued = false;
      flush();
    });
  };

  const settle = () => {
    if (buffer.length === 0) for (const w of waiters) w();
  };

  const schedule = () => {
    if (closing || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      connect();
    }, delay);
    // A server that is away must not keep the agent's process alive.
    timer.unref?.();
    delay = Math.min(maxRetryMs, delay * 2);
  };

  const connect = () => {
    if (closing) return;
    const socket = new WebSocket(target.url, { headers: { [TOKEN_HEADER]: target.token }, handshakeTimeout: 5000 });
    ws = socket;
    socket.on('open', () => {
      open = true;
      reported = false;
      delay = retryMs;
      socket.send(
        JSON.stringify({ type: 'hello', role: 'agent', agentId, ...(options.name && { name: options.name }) }),
      );
      // Whatever was sent on an earlier socket and not acknowledged goes again; the hub skips duplicates.
      sent = base;
      flush();
    });
    socket.on('message', (data) => {
      let json: unknown;
      try {
        json = JSON.parse(String(data));
      } catch {
        return;
      }
      const ack = Ack.safeParse(json);
      if (!ack.success) {
        // The hub refused something (a limit, a session another agent owns): say so, never silently.
        const refused = ProtocolError.safeParse(json);
        if (refused.success) report(new Error(`live server refused entries: ${refused.data.message}`));
        return;
      }
      const drop = Math.min(buffer.length, ack.data.next - base);
      if (drop > 0) {
        buffer.splice(0, drop);
        base += drop;
      }
      settle();
    });
    socket.on('unexpected-response', (_req, res) => {
      const refused = new Error(`live server refused the connection: HTTP ${res.statusCode}`);
      // A refusal (a wrong token; a Host or Origin the server does not take) never heals: said once
      // even with no onError, or the app stays empty without a word.
      if (!options.onError && (res.statusCode === 401 || res.statusCode === 403) && !warnedToken) {
        warnedToken = true;
        console.warn(
          `assistant-safety: createLiveRecorder: ${new URL(target.url).host} refused the connection (HTTP ${res.statusCode}): use the URL \`assistant-safety serve\` printed, token included. ${options.fallback ? 'Entries go only to the fallback.' : 'Entries are kept for it, and dropped beyond maxBuffer.'}`,
        );
      }
      report(refused);
      socket.terminate();
    });
    socket.on('error', (error) => report(error));
    socket.on('close', () => {
      if (open && !closing) report(new Error('lost the connection to the live server'));
      open = false;
      if (ws === socket) ws = undefined;
      schedule();
    });
  };

  connect();

  return {
    get connected() {
      return open;
    },
    get pending() {
      return buffer.length;
    },
    get dropped() {
      return dropped;
    },
    record(entry: RecordingEntry) {
      // The local recording first, whatever the server does.
      let fallbackError: unknown;
      try {
        options.fallback?.record(entry);
      } catch (error) {
        fallbackError = error;
      }
      const text = closing ? '' : JSON.stringify(entry);
      if (Buffer.byteLength(text) > MAX_MESSAGE_BYTES - 1024) {
        // No message could carry it (the hub would close the socket): the local recording has it.
        dropped += 1;
      } else if (!closing) {
        buffer.push(text);
        if (buffer.length > maxBuffer) {
          const over = buffer.length - maxBuffer;
          buffer.splice(0, over);
          base += over;
          dropped += over;
        }
        queueFlush();
      }
      if (fallbackError !== undefined) throw fallbackError;
    },
    async close({ timeoutMs = 2000 } = {}) {
      // Still connecting counts too: a short session may end before its socket opened.
      if (buffer.length > 0 && !closing) {
        await new Promise<void>((done) => {
          const t = setTimeout(done, timeoutMs);
          waiters.add(() => {
            clearTimeout(t);
            done();
          });
        });
      }
      closing = true;
      clearTimeout(timer);
      ws?.close();
    },
  };
}
