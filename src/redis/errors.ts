/*
 * What a Redis session store rejects with. Every failure is a rejection: the
 * store never resolves as if a call had been decided when it could not load,
 * decide and save the session.
 */

/** The store could not reach Redis, or could not confirm a save, within `timeoutMs`. */
export class SessionStoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE' as const;
  constructor(
    message: string,
    readonly sessionId: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SessionStoreUnavailableError';
  }
}

/** Every attempt found the session saved by someone else in between (`maxAttempts` reached). */
export class SessionConflictError extends Error {
  readonly code = 'SESSION_CONFLICT' as const;
  constructor(
    readonly sessionId: string,
    readonly attempts: number,
  ) {
    super(
      `session ${JSON.stringify(sessionId)}: saved by another worker during each of ${attempts} attempts; nothing was saved (raise maxAttempts, or spread the load over more sessions)`,
    );
    this.name = 'SessionConflictError';
  }
}

/** The store was closed. */
export class SessionStoreClosedError extends Error {
  readonly code = 'STORE_CLOSED' as const;
  constructor() {
    super('the Redis session store is closed');
    this.name = 'SessionStoreClosedError';
  }
}

/** `fn` returned a promise: it must decide synchronously, because it may run again on a conflict. */
export class AsyncSessionFunctionError extends TypeError {
  readonly code = 'ASYNC_SESSION_FUNCTION' as const;
  constructor(sessionId: string) {
    super(
      `withSession(${JSON.stringify(sessionId)}, fn): fn returned a promise; it must run synchronously (do the tool call outside, then a second withSession to end it). Nothing was saved.`,
    );
    this.name = 'AsyncSessionFunctionError';
  }
}

/** Why a session counts as lost (see {@link SessionLostError}). */
export type SessionLossKind = 'gone' | 'older' | 'replaced';

/**
 * A session this store saved is no longer in Redis as it left it, before its idle expiry and
 * without a delete: Redis restarted without persistence, was flushed, evicted the key, or came
 * back with an older copy. Nothing was decided or saved. Whatever the session held (a write in
 * flight or unverified) is unknown: check what its tools act on, then `delete(id)` to start afresh.
 */
export class SessionLostError extends Error {
  readonly code = 'SESSION_LOST' as const;
  constructor(
    readonly sessionId: string,
    readonly kind: SessionLossKind,
    readonly lastVersion: number,
  ) {
    const what =
      kind === 'gone'
        ? 'is gone from Redis'
        : kind === 'older'
          ? 'came back from Redis at an older version'
          : 'was replaced in Redis by a new session that did not follow a delete';
    super(
      `session ${JSON.stringify(sessionId)}: saved by this store at version ${lastVersion}, it ${what} before its idle expiry (Redis restarted without persistence, was flushed, evicted the key, or restored an older copy). Nothing was decided or saved. Its state (a write in flight or unverified) is lost: check what its tools act on, then call delete(${JSON.stringify(sessionId)}) to start a fresh session.`,
    );
    this.name = 'SessionLostError';
  }
}

/** A session's key holds another Redis type (another program's data under the prefix): refused, nothing written. */
export class SessionKeyTypeError extends Error {
  readonly code = 'WRONG_KEY_TYPE' as const;
  constructor(
    readonly sessionId: string,
    readonly key: string,
    readonly found: string,
    readonly expected: string,
  ) {
    super(
      `session ${JSON.stringify(sessionId)}: key ${JSON.stringify(key)} holds a ${found}, not a ${expected}; nothing was saved (use another keyPrefix, or remove the key)`,
    );
    this.name = 'SessionKeyTypeError';
  }
}
