import type { SafetySession } from '../index.js';

/** A call whose claim ran out, and who held the claim (absent when the claim does not say). */
export interface OrphanedCall {
  id: string;
  /** The holder id of the gateway that claimed it (`createRedisGatewaySession`'s `holder`). */
  holder?: string;
}

/**
 * A session kept outside the gateway's process (Redis: `createRedisGatewaySession` in
 * `assistant-safety/redis`), for a gateway whose restart or crash must not lose a write in
 * flight. The gateway saves every decision there before the call reaches the server, and
 * every end before it goes on; it claims each call it runs, so that when its process dies
 * the calls it left in flight can be told from calls another live gateway is running.
 *
 * The rule for a call left in flight by a gateway that is gone (an orphaned call): once its
 * claim is no longer kept alive (the claim's lease ran out), the next gateway on the session
 * ends it with an unknown outcome (`endToolCall({ id, ok: false, unknown: true, orphanedBy })`,
 * `orphanedBy` the holder whose claim ran out) before it decides anything. A write so ended must be verified: the next write is refused
 * `UNVERIFIED_WRITE` until a read that begins after it.
 *
 * @example
 * const gateway = createMcpGateway({ upstream, downstream, sharedSession: createRedisGatewaySession({ ... }) });
 */
export interface SharedGatewaySession {
  /** Loads the session, runs `fn` on it synchronously and saves it; rejects when the save is not confirmed. */
  withSession<T>(fn: (session: SafetySession) => T): Promise<T>;
  /** Marks `callId` as run by this live gateway (before its begin is saved); kept alive until released. */
  claim(callId: string): Promise<void>;
  /**
   * The call's end was saved (`ended: true`: forget the claim), or may not have been
   * (`false`: stop keeping the claim alive, so the call is orphaned once it runs out).
   */
  release(callId: string, ended: boolean): Promise<void>;
  /** Calls claimed by a gateway that stopped keeping them alive (their process is gone), with its holder id. */
  orphans(): Promise<OrphanedCall[]>;
}
