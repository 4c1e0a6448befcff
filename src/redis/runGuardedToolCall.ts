import type { FSMBlockedError, ToolCallStart } from '../index.js';
import type { RedisSessionStore } from './createRedisSessionStore.js';

/** What {@link runGuardedToolCall} did with the call. */
export type GuardedToolCallResult<T> =
  { status: 'blocked'; error: FSMBlockedError } | { status: 'ok'; result: T } | { status: 'error'; error: unknown };

export interface GuardedToolCallOptions<T> {
  /** Whether a write's own result carries verification evidence (`endToolCall({ verified })`). Default never. */
  verified?: (result: T) => boolean;
}

/**
 * One tool call through a shared session: `beginToolCall` in one
 * `withSession` (the decision, saved), the tool itself outside any
 * `withSession`, then `endToolCall` in another (and `completeVerification`
 * when the end verified a write). What a tool loop, an MCP gateway's
 * `tools/call` or an SDK tool's `execute` does per call when its sessions
 * live in Redis.
 *
 * Rejects, without running the tool, when the decision could not be saved
 * (treat that as a block). Rejects after the tool ran when its end could not
 * be saved: the call then stays in flight in the session (a write keeps other
 * writes blocked) until it is ended, which is the safe direction.
 *
 * @example
 * const outcome = await runGuardedToolCall(store, 'conversation-42',
 *   { id: 'call_7', kind: 'write', tool: 'restart_vm' },
 *   () => restartVm('vm-101'));
 * if (outcome.status === 'blocked') return outcome.error.toJSON(); // what the model sees
 */
export async function runGuardedToolCall<T>(
  store: Pick<RedisSessionStore, 'withSession'>,
  sessionId: string,
  call: ToolCallStart,
  run: () => Promise<T>,
  options: GuardedToolCallOptions<T> = {},
): Promise<GuardedToolCallResult<T>> {
  const blocked = await store.withSession(sessionId, (s) => s.beginToolCall(call));
  if (blocked) return { status: 'blocked', error: blocked };
  let outcome: GuardedToolCallResult<T>;
  try {
    outcome = { status: 'ok', result: await run() };
  } catch (error) {
    outcome = { status: 'error', error };
  }
  const ok = outcome.status === 'ok';
  const verified = outcome.status === 'ok' && call.kind === 'write' && options.verified?.(outcome.result) === true;
  await store.withSession(sessionId, (s) => {
    s.endToolCall(verified ? { id: call.id, ok, verified } : { id: call.id, ok });
    if (ok && s.state === 'VERIFYING' && s.readAfterWrite) s.completeVerification();
  });
  return outcome;
}
