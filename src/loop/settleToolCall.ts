import type { SafetySession } from '../SafetySession.js';
import type { ToolKind } from '../toolKind.js';
import { finishToolCall } from './finishToolCall.js';
import { hasVerificationEvidence } from './hasVerificationEvidence.js';

/**
 * How a begun call ended: its tool returned `value`, reported failure (threw),
 * or its outcome is unknown (aborted or timed out: the tool may have acted, or
 * may still act).
 */
export type ToolCallSettlement = { ok: true; value: unknown } | { ok: false; unknown?: boolean };

/**
 * Ends a call begun with `beginToolCall` the way the tool loop does, so every
 * harness (the loop, the SDK adapters) applies one rule:
 *
 * - a successful write whose result carries `{ verification: { ok: true } }`
 *   ends with `verified: true`;
 * - a call whose outcome is unknown ends with `unknown: true`: the session
 *   treats such a write as possibly landed, so it must be verified;
 * - the call ends through {@link finishToolCall}, which completes a
 *   verification the call gave right away.
 *
 * @example
 * const blocked = session.beginToolCall({ id: 'c3', kind: 'read', tool: 'get_vm' });
 * if (!blocked) settleToolCall(session, { id: 'c3', kind: 'read' }, { ok: true, value: await getVm() });
 */
export function settleToolCall(
  session: SafetySession,
  call: { id: string; kind: ToolKind },
  settled: ToolCallSettlement,
): void {
  if (!settled.ok) {
    // An unknown outcome is not a failure: a write that may have landed must be verified.
    finishToolCall(session, settled.unknown ? { id: call.id, ok: false, unknown: true } : { id: call.id, ok: false });
    return;
  }
  const verified = call.kind === 'write' && hasVerificationEvidence(settled.value);
  finishToolCall(session, verified ? { id: call.id, ok: true, verified } : { id: call.id, ok: true });
}
