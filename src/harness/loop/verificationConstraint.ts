import type { FSMBlockedError } from '../../safety/FSMBlockedError.js';
import type { SafetySession } from '../../safety/SafetySessionTypes.js';

/**
 * The sentence a loop feeds back to the model when its final answer is
 * refused: a fact naming the write it is about, never an instruction naming
 * a tool to call (that steers the model: docs/behaviour.md, Blocked calls).
 */
export function verificationConstraint(session: SafetySession, refusal: FSMBlockedError): string {
  if (refusal.state === 'WRITING') {
    const tool = session.inFlightWrite?.tool ?? session.lastWriteTool;
    return `The write ${tool ?? '(unknown tool)'} is still in flight; its result and verification evidence are required before responding about it.`;
  }
  const tool = session.lastWriteTool;
  const about = refusal.unverifiedTargets?.length ? ` about ${refusal.unverifiedTargets.join(', ')}` : '';
  return `Verification evidence${about} is required before responding about the write result for ${tool ?? 'the last write'}.`;
}
