import type { FSMBlockedEnvelope } from '../FSMBlockedError.js';
import type { SafetySession } from '../SafetySession.js';
import { TOOL_KINDS, type ToolKind } from '../toolKind.js';
import { settleToolCall } from './settleToolCall.js';

/**
 * The kind `classify` gives a call, failing closed: a classifier that throws
 * or returns something other than a tool kind makes the call a write, so a
 * classification bug can never let a mutation past the gate.
 *
 * @example
 * classifyOrWrite(pulseClassifier, 'pulse_query', { query: 'web-01' }); // 'read'
 * classifyOrWrite(() => { throw new Error('bug'); }, 'x', {});           // 'write'
 */
export function classifyOrWrite(
  classify: (toolName: string, input: unknown) => unknown,
  toolName: string,
  input: unknown,
): ToolKind {
  let kind: unknown;
  try {
    kind = classify(toolName, input);
  } catch {
    return 'write';
  }
  return (TOOL_KINDS as readonly unknown[]).includes(kind) ? (kind as ToolKind) : 'write';
}

/**
 * Whether a tool's rejection means its outcome is unknown (aborted or timed
 * out: it may have acted) rather than a reported failure.
 */
export function isUnknownOutcome(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return name === 'AbortError' || name === 'TimeoutError';
}

/** What {@link gateToolCall} returns: the tool's value, or the block envelope when the call never ran. */
export type GatedResult<T> = { blocked: false; value: T } | { blocked: true; envelope: FSMBlockedEnvelope };

/**
 * Runs one tool call through the session's call-lifecycle API, for harnesses
 * that run one call at a time (the SDK adapters): `beginToolCall`; if blocked,
 * the tool never runs and the block's envelope is returned; otherwise `run()`,
 * then {@link settleToolCall}. A throw is a failed call and is rethrown (an
 * abort or timeout, see {@link isUnknownOutcome}, is an unknown outcome).
 *
 * @example
 * const out = await gateToolCall(session, { id: call.id, kind: 'write', tool: 'restart_vm' }, () => restart(args));
 * if (out.blocked) return out.envelope; // { error: 'FSM_BLOCKED', message, details }
 */
export async function gateToolCall<T>(
  session: SafetySession,
  call: { id: string; kind: ToolKind; tool: string },
  run: () => T | PromiseLike<T>,
  signal?: AbortSignal,
): Promise<GatedResult<Awaited<T>>> {
  const blocked = session.beginToolCall(call);
  if (blocked) return { blocked: true, envelope: blocked.toJSON() };
  let value: Awaited<T>;
  try {
    value = await run();
  } catch (error) {
    settleToolCall(session, call, { ok: false, unknown: isUnknownOutcome(error, signal) });
    throw error;
  }
  settleToolCall(session, call, { ok: true, value });
  return { blocked: false, value };
}
