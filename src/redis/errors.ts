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
