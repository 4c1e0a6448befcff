import type { SafetySession } from '../index.js';
import { describeCall, probeCall, rememberEscalation, type AdapterClassify } from '../harness/adapters/gateCall.js';

/** What the AI SDK hands a tool's `needsApproval` besides the input. */
export interface ApprovalContext {
  toolCallId: string;
  messages?: readonly unknown[];
}

/**
 * Whether a person must approve this call of `tool`: the session, asked on a copy (nothing is
 * recorded), would block it for a reason in `escalate` (the block is remembered, so a denial shows
 * the model the block), or a person was already asked about this very call (the SDK asks again
 * before it runs an approved call, and denies it when the answer has become no).
 */
export function escalationNeeded(
  session: SafetySession,
  classify: AdapterClassify,
  escalate: readonly string[],
  tool: string,
  input: unknown,
  context: ApprovalContext,
): boolean {
  const call = describeCall(classify, context.toolCallId, tool, input);
  const blocked = probeCall(session, call.start);
  if (blocked && escalate.includes(blocked.reasonCode)) {
    rememberEscalation(session, context.toolCallId, blocked);
    return true;
  }
  return askedAbout(context.messages, context.toolCallId);
}

/** Whether the messages hold an approval request for call `toolCallId`. Anything unreadable is no. */
function askedAbout(messages: readonly unknown[] | undefined, toolCallId: string): boolean {
  try {
    if (!Array.isArray(messages)) return false;
    return messages.some((message: { role?: unknown; content?: unknown }) => {
      if (typeof message !== 'object' || message === null || message.role !== 'assistant') return false;
      if (!Array.isArray(message.content)) return false;
      return (message.content as unknown[]).some((part) => {
        const p = part as { type?: unknown; toolCallId?: unknown } | null;
        return typeof p === 'object' && p !== null && p.type === 'tool-approval-request' && p.toolCallId === toolCallId;
      });
    });
  } catch {
    return false;
  }
}
