import type { SafetySession, ToolCallEnd } from '../../safety/SafetySessionTypes.js';
import { outcomeOfError } from '../outcomeOfError.js';
import type { ToolKind } from '../../safety/toolKind.js';
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
 * - a successful write of a tool declared self-verifying whose result carries
 *   `{ verification: { ok: true } }` (and whose arguments carry no such thing)
 *   ends with `verified: true`;
 * - a thrown error ends the call as failed when its tool reported failure, and
 *   as unknown for a timeout, an abort or anything unclassifiable
 *   ({@link outcomeOfError});
 * - a call whose outcome is unknown ends with `unknown: true`: the session
 *   treats such a write as possibly landed, so it must be verified;
 * - the call ends through {@link finishToolCall}, which completes a
 *   verification the call gave right away.
 *
 * @example
 * const blocked = session.beginToolCall({ id: 'c3', kind: 'read', tool: 'get_vm' });
 * if (!blocked) settleToolCall(session, { id: 'c3', kind: 'read' }, { ok: true, value: await getVm() });
 * // a tool that threw: settleToolCall(session, { id: 'c4', kind: 'write' }, { ok: false, error });
 */
export function settleToolCall(
  session: SafetySession,
  call: SettledCall,
  settled: ToolCallSettlement | { ok: false; error: unknown },
): void {
  if (!settled.ok) {
    // An unknown outcome is not a failure: a write that may have landed must be verified.
    const unknown = 'error' in settled ? outcomeOfError(settled.error) === 'unknown' : settled.unknown === true;
    finishToolCall(session, unknown ? { id: call.id, ok: false, unknown: true } : { id: call.id, ok: false });
    return;
  }
  const verified = selfVerifies(call, settled.value);
  const end: ToolCallEnd = verified ? { id: call.id, ok: true, verified } : { id: call.id, ok: true };
  if (call.discovered !== undefined) end.discovered = call.discovered;
  finishToolCall(session, end);
}

/** The call as the harness classified it: what {@link settleToolCall} needs to judge its end. */
export interface SettledCall {
  id: string;
  kind: ToolKind;
  /** Declared self-verifying (classifier rules `selfVerifying: true`): only such a tool's result may verify it. */
  selfVerifying?: boolean;
  /** The call's own arguments: evidence that appears in them is the model's, not the tool's. */
  args?: unknown;
  /** Targets the result revealed (a rule's `discovers`, each with its field), validated on success. */
  discovered?: (string | { target: string; field: string })[];
}

/**
 * Whether a write's own result verifies it: only for a tool declared self-verifying, only when the
 * result carries `{ verification: { ok: true } }`, and never when the call's own arguments carry
 * verification evidence too (a tool that echoes its arguments would let the model verify itself).
 */
export function selfVerifies(call: SettledCall, value: unknown): boolean {
  if (call.kind !== 'write' || call.selfVerifying !== true) return false;
  return hasVerificationEvidence(value) && !mentionsVerification(call.args);
}

/** Whether arguments carry a `verification` field anywhere (bounded depth; unreadable counts as yes). */
function mentionsVerification(args: unknown, depth = 0): boolean {
  try {
    if (typeof args === 'string') return /verification/i.test(args);
    if (typeof args !== 'object' || args === null) return false;
    if (depth > 8) return true;
    for (const key of Object.keys(args)) {
      if (/verification/i.test(key)) return true;
      const desc = Object.getOwnPropertyDescriptor(args, key);
      if (desc && 'value' in desc && mentionsVerification(desc.value, depth + 1)) return true;
    }
    return false;
  } catch {
    return true;
  }
}
