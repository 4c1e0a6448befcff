import type { SafetySession, ToolCallEnd } from '../../safety/SafetySessionTypes.js';

/**
 * Ends a call on the session and, when that leaves a write verified (the
 * session is in VERIFYING with a read begun after the write), completes the
 * verification at once, as the reference loop does right after the evidence
 * arrives: waiting until the final answer would leave the session stuck in
 * VERIFYING and block the next write. The tool loop and the MCP gateway both
 * end calls through this, so they follow one rule.
 *
 * @example
 * const blocked = session.beginToolCall({ id: 'r1', kind: 'read', tool: 'get_status' });
 * // ... the read runs after a write succeeded
 * finishToolCall(session, { id: 'r1', ok: true }); // VERIFYING -> READING: the next write may go
 */
export function finishToolCall(session: SafetySession, end: ToolCallEnd): void {
  session.endToolCall(end);
  if (end.ok && session.state === 'VERIFYING' && session.readAfterWrite) session.completeVerification();
}
