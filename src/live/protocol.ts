import { z } from 'zod';
import { RecordingEntry } from '../safety/RecordingEntry.js';
import { SessionState } from '../safety/toolKind.js';

/*
 * The live hub's wire protocol: every WebSocket message, both ways, as zod
 * schemas. Browser-safe (the app imports this module directly), so it must
 * not import node code.
 */

/** The WebSocket path of the hub. */
export const LIVE_PATH = '/live';
/** The HTTP header that carries the token (the query `?token=` works too; a cookie never does). */
export const TOKEN_HEADER = 'x-assistant-safety-token';

/**
 * What keeps `url` (with `token`, when the URL does not carry one) from ever reaching a live hub,
 * in words, or undefined: a URL that could never connect is a mistake to say at once, not an
 * outage to retry in silence. `tokenElsewhere` names where else a caller may give the token.
 *
 * @example
 * liveUrlProblem('http://127.0.0.1:4400/'); // 'has no token: give the URL `assistant-safety serve` printed (…)'
 */
export function liveUrlProblem(url: unknown, token?: string, tokenElsewhere?: string): string | undefined {
  const printed = 'the URL `assistant-safety serve` printed (http://127.0.0.1:PORT/?token=…)';
  if (typeof url !== 'string' || !URL.canParse(url))
    return `expected ${printed}, got ${typeof url === 'string' ? JSON.stringify(url) : String(url)}`;
  if ((token ?? new URL(url).searchParams.get('token') ?? '') === '')
    return `has no token: give ${printed}${tokenElsewhere ? `, or ${tokenElsewhere}` : ''}`;
  return undefined;
}
/** The WebSocket subprotocol the hub speaks; the server selects it when a browser offers it. */
export const LIVE_PROTOCOL = 'assistant-safety.live';
/**
 * A browser cannot set headers on a WebSocket: it offers the token as a
 * second subprotocol, `assistant-safety.token.<token>`, which only the
 * server the socket opens to receives (never echoed back).
 */
export const TOKEN_PROTOCOL_PREFIX = 'assistant-safety.token.';
/** Entries per message, both ways: keeps a frame small and a slow viewer responsive. */
export const MAX_ENTRIES_PER_MESSAGE = 1000;
/** The largest message the hub reads (bytes); a bigger one closes the socket with 1009. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** An agent's message carries at most this many bytes of entries (one bigger entry goes alone). */
export const BATCH_BYTES = 1024 * 1024;

/** An agent's first message: who it is, so a reconnect can resume without duplicates. */
export const AgentHello = z.strictObject({
  type: z.literal('hello'),
  role: z.literal('agent'),
  /** Random per live recorder; stays the same across reconnects. */
  agentId: z.string().min(1).max(100),
  name: z.string().max(200).optional(),
});
export type AgentHello = z.infer<typeof AgentHello>;

/** A viewer's first message. */
export const ViewerHello = z.strictObject({ type: z.literal('hello'), role: z.literal('viewer') });
export type ViewerHello = z.infer<typeof ViewerHello>;

/** Entries from an agent; `from` is the recorder's index of the first one (0-based, across reconnects). */
export const AgentEntries = z.strictObject({
  type: z.literal('entries'),
  from: z.number().int().nonnegative(),
  entries: z.array(RecordingEntry).max(MAX_ENTRIES_PER_MESSAGE),
});
export type AgentEntries = z.infer<typeof AgentEntries>;

/** A viewer asks for one session's backlog and then its new entries. */
export const FollowSession = z.strictObject({ type: z.literal('follow'), session: z.string().min(1) });
export type FollowSession = z.infer<typeof FollowSession>;

export const ClientMessage = z.union([AgentHello, ViewerHello, AgentEntries, FollowSession]);
export type ClientMessage = z.infer<typeof ClientMessage>;

/** One live session as the hub lists it. */
export const LiveSessionInfo = z.strictObject({
  id: z.string(),
  /** Agent name given in its hello, if any. */
  agent: z.string().optional(),
  events: z.number().int().nonnegative(),
  state: SessionState,
  lastAt: z.number(),
  /** The agent's socket is still open. */
  connected: z.boolean(),
  /** Older entries were dropped to bound the hub's memory; the backlog starts mid-session. */
  truncated: z.boolean(),
});
export type LiveSessionInfo = z.infer<typeof LiveSessionInfo>;

export const SessionsMessage = z.strictObject({ type: z.literal('sessions'), sessions: z.array(LiveSessionInfo) });
export type SessionsMessage = z.infer<typeof SessionsMessage>;

/** Entries of a followed session: `reset` true on the first message of a (re)follow. */
export const SessionEntries = z.strictObject({
  type: z.literal('session-entries'),
  session: z.string(),
  reset: z.boolean(),
  entries: z.array(RecordingEntry),
});
export type SessionEntries = z.infer<typeof SessionEntries>;

/** The hub acknowledges an agent's entries up to (not including) index `next`. */
export const Ack = z.strictObject({ type: z.literal('ack'), next: z.number().int().nonnegative() });
export type Ack = z.infer<typeof Ack>;

/** A message the hub refused, with why. */
export const ProtocolError = z.strictObject({ type: z.literal('error'), message: z.string() });
export type ProtocolError = z.infer<typeof ProtocolError>;

export const ServerMessage = z.discriminatedUnion('type', [SessionsMessage, SessionEntries, Ack, ProtocolError]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/** A recording the server offers. */
export const RecordingFileInfo = z.strictObject({
  name: z.string(),
  size: z.number().int().nonnegative(),
  modified: z.number(),
});
export type RecordingFileInfo = z.infer<typeof RecordingFileInfo>;

export const RecordingList = z.strictObject({ recordings: z.array(RecordingFileInfo) });
export type RecordingList = z.infer<typeof RecordingList>;

/** The machines the server offers: file name and parsed JSON (validated by the app with the core's schema). */
export const MachineList = z.strictObject({
  /** `error`: why the file is not JSON (where it breaks); `json` is null then. */
  machines: z.array(z.strictObject({ file: z.string(), json: z.unknown(), error: z.optional(z.string()) })),
});
export type MachineList = z.infer<typeof MachineList>;

/** Names the server serves from the recordings folder: a plain file name ending in `.jsonl`. */
export const RECORDING_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*\.jsonl$/;
