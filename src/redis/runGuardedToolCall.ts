import type { FSMBlockedError, ToolCallEnd, ToolCallStart } from '../index.js';
import { finishToolCall } from '../harness/loop/finishToolCall.js';
import { outcomeOfError } from '../harness/outcomeOfError.js';
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
 * A tool that throws a `TimeoutError` or `AbortError` (or anything that is not an ordinary
 * `Error`) ends with an unknown outcome: a write so ended may have acted, so the session
 * needs verification before the next write. An ordinary error is a reported failure.
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
  // One settle rule with the tool loop and the adapters: a timeout, an abort or an unclassifiable
  // throw is an unknown outcome (a write so ended must be verified); a reported failure is a failure.
  let end: ToolCallEnd;
  if (outcome.status === 'ok') {
    const result = outcome.result;
    let verified = false;
    try {
      verified = call.kind === 'write' && options.verified?.(result) === true;
    } catch {
      verified = false; // a judge that throws verifies nothing
    }
    end = verified ? { id: call.id, ok: true, verified } : { id: call.id, ok: true };
  } else {
    end =
      outcomeOfError(outcome.error) === 'unknown'
        ? { id: call.id, ok: false, unknown: true }
        : { id: call.id, ok: false };
  }
  await store.withSession(sessionId, (s) => finishToolCall(s, end));
  return outcome;
}
