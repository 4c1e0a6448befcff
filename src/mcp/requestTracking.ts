import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { asObject, keyOf } from './jsonRpc.js';

/*
 * JSON-RPC request tracking, the part of the gateway that the MCP SDK keeps in `Protocol`:
 * which of the client's requests the server has not answered yet (with their progress tokens),
 * the gateway's own requests waiting for an answer, and the cancelled calls whose answer may
 * still come. Each is a plain object with its own small state, knowing nothing of the gate.
 */

/** A client request the server has not answered yet. */
export interface Pending<C> {
  method: string;
  /** The gated tool call, once it was admitted (tools/call only). */
  call?: C;
  /** The request's progress token, as a key of the progress routes. */
  progress?: string;
}

/** The client's requests the server has not answered, by id. See {@link createRequestTracker}. */
export interface RequestTracker<C> {
  /** Remembers a request as pending, with its progress token if it has one. */
  track(request: JSONRPCRequest): Pending<C>;
  /** Forgets a request (answered, cancelled, refused); returns what was pending. */
  untrack(id: RequestId): Pending<C> | undefined;
  has(key: string): boolean;
  get(key: string): Pending<C> | undefined;
  /** Every pending request, by {@link keyOf} key. */
  entries(): IterableIterator<[string, Pending<C>]>;
  clear(): void;
  /** The request a progress token reports on, so a transport with a stream per request (HTTP) routes it. */
  requestOfProgress(token: unknown): RequestId | undefined;
}

/**
 * Tracks the client's pending requests and their progress tokens.
 *
 * @example
 * const tracker = createRequestTracker<{ tool: string }>();
 * tracker.track({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 't' } } });
 * tracker.requestOfProgress('t'); // 1
 * tracker.untrack(1)?.method; // 'tools/call'
 */
export function createRequestTracker<C>(): RequestTracker<C> {
  const pending = new Map<string, Pending<C>>();
  const progressOf = new Map<string, RequestId>();
  return {
    track(request) {
      const token = asObject(asObject(request.params)?._meta)?.progressToken;
      const entry: Pending<C> = { method: request.method };
      if (typeof token === 'string' || typeof token === 'number') {
        entry.progress = JSON.stringify(token);
        progressOf.set(entry.progress, request.id);
      }
      pending.set(keyOf(request.id), entry);
      return entry;
    },
    untrack(id) {
      const key = keyOf(id);
      const entry = pending.get(key);
      if (entry?.progress !== undefined) progressOf.delete(entry.progress);
      pending.delete(key);
      return entry;
    },
    has: (key) => pending.has(key),
    get: (key) => pending.get(key),
    entries: () => pending.entries(),
    clear() {
      pending.clear();
      progressOf.clear();
    },
    requestOfProgress: (token) => progressOf.get(JSON.stringify(token)),
  };
}

/** Requests the gateway itself sends (to the server or to the client), waiting for their answers. */
export interface OwnRequests {
  /** Whether a message's id is one of this gateway's own (its answer is not forwarded). */
  owns(id: RequestId | undefined): id is string;
  /**
   * Sends a request of a new id (`send(id)`) and resolves with its answer, or with `undefined`
   * when none came within `timeoutMs`; rejects when `send` rejects.
   */
  request(timeoutMs: number, send: (id: string) => Promise<void>): Promise<JSONRPCMessage | undefined>;
  /** Hands an answer to the request waiting for it (none: dropped). */
  answer(message: JSONRPCMessage & { id: string }): void;
  /** Answers every waiting request with `message` (the gateway stopped). */
  closeAll(message: JSONRPCMessage): void;
}

/**
 * The gateway's own requests in one direction, ids `${prefix}${n}`.
 *
 * @example
 * const own = createOwnRequests('gateway:1:');
 * const answer = own.request(10_000, (id) => transport.send({ jsonrpc: '2.0', id, method: 'tools/list' }));
 * // transport.onmessage = (m) => own.owns(m.id) && own.answer(m);
 */
export function createOwnRequests(prefix: string): OwnRequests {
  const waiting = new Map<string, (message: JSONRPCMessage | undefined) => void>();
  let seq = 0;
  return {
    owns: (id): id is string => typeof id === 'string' && id.startsWith(prefix),
    request(timeoutMs, send) {
      const id = `${prefix}${seq++}`;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(undefined);
        }, timeoutMs);
        waiting.set(id, (m) => {
          clearTimeout(timer);
          resolve(m);
        });
        send(id).catch((e: unknown) => {
          clearTimeout(timer);
          waiting.delete(id);
          reject(e as Error);
        });
      });
    },
    answer(message) {
      const resolve = waiting.get(message.id);
      waiting.delete(message.id);
      resolve?.(message);
    },
    closeAll(message) {
      for (const [, resolve] of [...waiting]) resolve(message);
      waiting.clear();
    },
  };
}

/**
 * Cancelled calls the server may still answer, by request id: each is held until its answer
 * comes or its grace period ends; then its id is retired (a late answer is dropped, the id is
 * not reused). See {@link createCancelHolds}.
 */
export interface CancelHolds<T> {
  /** Holds `value` for `ms`; when no answer came by then, retires the id and calls `expired(value)`. */
  hold(key: string, value: T, ms: number, expired: (value: T) => void): void;
  /** The answer came: the held value, no longer held (undefined when none was). */
  take(key: string): T | undefined;
  /** Its grace period ended: a late answer to it is dropped. */
  isRetired(key: string): boolean;
  /** Held or retired: a new request must not reuse the id. */
  isTaken(key: string): boolean;
  /** Stops every timer; returns what was held. */
  drain(): T[];
}

/**
 * @example
 * const holds = createCancelHolds<string>();
 * holds.hold('n:1', 'restart', 30_000, (tool) => console.log(`${tool}: outcome unknown`));
 * holds.take('n:1'); // 'restart' (the server answered in time)
 */
export function createCancelHolds<T>(): CancelHolds<T> {
  const held = new Map<string, { value: T; timer: ReturnType<typeof setTimeout> }>();
  const retired = new Set<string>();
  return {
    hold(key, value, ms, expired) {
      const timer = setTimeout(() => {
        held.delete(key);
        retired.add(key);
        expired(value);
      }, ms);
      timer.unref?.();
      held.set(key, { value, timer });
    },
    take(key) {
      const h = held.get(key);
      if (!h) return undefined;
      clearTimeout(h.timer);
      held.delete(key);
      return h.value;
    },
    isRetired: (key) => retired.has(key),
    isTaken: (key) => held.has(key) || retired.has(key),
    drain() {
      const values = [...held.values()].map((h) => {
        clearTimeout(h.timer);
        return h.value;
      });
      held.clear();
      return values;
    },
  };
}
